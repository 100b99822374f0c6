package assistant_test

import (
	"slices"
	"testing"
	"time"

	"github.com/veriland/veriland/assistant"
)

var benchQuestions = []string{
	"What is the status of parcel prc_abcdefghijklmnopqrstuvwxyz?",
	"Le certificat 0x0a60a1b2c3d4e5f60a60a1b2c3d4e5f60a60a1b2c3d4e5f60a60a1b2c3d4e5f6 est-il authentique ?",
	"¿Cómo puedo transferir mi parcela?",
	"Qual é o estado do pedido de verificação vrq_abcdefghijklmnopqrstuvwxyz?",
	"ما هي حالة قطعة الأرض prc_abcdefghijklmnopqrstuvwxyz؟",
	"Ist die Bescheinigung att_abcdefghijklmnopqrstuvwxyz noch gültig?",
	"Come posso trasferire il mio terreno?",
}

// BenchmarkMessageTurn is one POST /v1/assistant/messages in-process: detection,
// routing, a parcel lookup through the parcel service, sealing and storing both
// messages in a session (bbolt without fsync, so that the number is the assistant's
// work, not the disk's). It reports the p50 and p99 of the turns.
func BenchmarkMessageTurn(b *testing.B) {
	w := newWorld(b)
	first, err := w.svc.Send(b.Context(), agency, assistant.MessageRequest{Text: "hello"})
	if err != nil {
		b.Fatal(err)
	}
	questions := []string{
		"What is the status of parcel " + w.certified.ID + "?",
		"Quel est le statut de la parcelle " + w.pending.ID + " ?",
		"Ist das Zertifikat " + w.certified.CertificateHash + " echt?",
		"¿Cómo puedo transferir mi parcela " + w.certified.ID + "?",
	}
	sid := first.SessionID
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := w.svc.Send(b.Context(), agency, assistant.MessageRequest{SessionID: &sid, Text: questions[i%len(questions)]}); err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(durations)
	if n := len(durations); n > 0 {
		b.ReportMetric(float64(durations[n/2].Microseconds()), "p50-µs")
		b.ReportMetric(float64(durations[min(n-1, n*99/100)].Microseconds()), "p99-µs")
	}
}

// BenchmarkDetectLanguage is the language detection of one message.
func BenchmarkDetectLanguage(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		assistant.DetectLanguage(benchQuestions[i%len(benchQuestions)])
	}
}

// BenchmarkRoute is the routing of one message (entities and keywords).
func BenchmarkRoute(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		assistant.Route(benchQuestions[i%len(benchQuestions)])
	}
}
