package pocketsphinx

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/assistant"
	"github.com/veriland/veriland/assistant/audio"
)

// DefaultProgram is the decoder a Command runs: the batch recogniser of Debian's
// pocketsphinx package (0.8+5prealpha in bookworm). It decodes a whole recording as
// one utterance, with the cepstral mean of that recording (the en-us model's -cmn
// batch), and writes word posteriors (-ctm), which is what the embedded cgo decoder
// does too; pocketsphinx_continuous cuts and normalises the audio as a live stream
// and hears synthesised questions much worse.
const DefaultProgram = "pocketsphinx_batch"

// InstallHint tells an operator what to install for the embedded transcriber of the
// default build.
const InstallHint = "apt-get install pocketsphinx pocketsphinx-en-us"

// ErrNotInstalled is wrapped by NewCommand's error when the decoder program or the
// en-us models are missing: the machine has no PocketSphinx, which is not a fault
// (POST /v1/assistant/voice answers 503 with a hint).
var ErrNotInstalled = errors.New("pocketsphinx is not installed (" + InstallHint + ")")

// Command is the embedded offline speech-to-text of the default build, which needs
// neither cgo nor a build tag: each recording is decoded by Debian's
// pocketsphinx_batch program, run as a subprocess, with the stock US English
// acoustic model and the assistant's domain language model and dictionary (written
// once, by NewCommand, into a private temporary directory). It implements
// assistant.Transcriber and is safe for concurrent use: Config.Decoders programs run
// at once, further callers wait as long as their context allows.
//
// A recording is first decoded with the domain model only (about half a second for a
// question). When that finds nothing, or the decoder doubts one of its words (lowest
// word posterior below 0.1), it is decoded again with the stock en-us model and
// 130,000-word dictionary, which takes several seconds, so that speech outside the
// domain is not forced into domain words. Unlike the cgo Transcriber it does not
// run the stock model on every recording, so a confident domain transcript is kept
// even when the stock model would have heard another sentence.
type Command struct {
	cfg     Config
	program string // absolute path of the decoder
	dir     string // domain.arpa and domain.dict
	slots   chan struct{}
	closed  chan struct{}
	close   sync.Once
}

var _ assistant.Transcriber = (*Command)(nil)

// Names of the files NewCommand writes into its directory.
const (
	domainARPA    = "domain.arpa"
	domainDict    = "domain.dict"
	domainGrammar = "domain.gram"
)

// NewCommand finds the decoder program (cfg.Program, else DefaultProgram in PATH) and
// the models in cfg.ModelDir, writes the domain language model and dictionary, and
// decodes a short silence to check that the program runs. It fails with an error
// wrapping ErrNotInstalled when the program or a model file is missing, and with
// another error when they are there but do not work. Call Close to remove the
// temporary files.
func NewCommand(cfg Config) (*Command, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	program := cfg.Program
	if program == "" {
		program = DefaultProgram
	}
	path, err := exec.LookPath(program)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNotInstalled, program, err)
	}
	for _, p := range modelFiles(cfg.ModelDir) {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%w: model file %w", ErrNotInstalled, err)
		}
	}
	c := &Command{cfg: cfg, program: path, slots: make(chan struct{}, cfg.Decoders), closed: make(chan struct{})}
	if !cfg.GeneralOnly {
		if c.dir, err = os.MkdirTemp("", "veriland-pocketsphinx-*"); err != nil {
			return nil, fmt.Errorf("pocketsphinx: %w", err)
		}
		if err := writeDomainFiles(c.dir, cfg.ModelDir, cfg.Phrases); err != nil {
			os.RemoveAll(c.dir)
			return nil, err
		}
	}
	// A quarter of a second of near-silence: the program must start, load the models
	// and write its result files.
	probe := make([]int16, sampleRate/4)
	for i := range probe {
		probe[i] = int16(i%7 - 3)
	}
	kind := searchKindGrammar
	if cfg.GeneralOnly {
		kind = searchKindGeneral
	}
	if _, err := c.run(context.Background(), kind, probe); err != nil {
		c.Close()
		return nil, fmt.Errorf("pocketsphinx: %s does not work with the models in %s: %w", path, cfg.ModelDir, err)
	}
	return c, nil
}

// Program is the decoder program the Command runs (an absolute path).
func (c *Command) Program() string { return c.program }

// modelFiles are the files of the en-us model package a decoder needs.
func modelFiles(modelDir string) []string {
	hmm := filepath.Join(modelDir, "en-us")
	return []string{filepath.Join(hmm, "mdef"), filepath.Join(hmm, "means"), filepath.Join(hmm, "feat.params"),
		filepath.Join(modelDir, "en-us.lm.bin"), filepath.Join(modelDir, "cmudict-en-us.dict")}
}

// The three searches a Command runs.
const (
	searchKindDomain = iota
	searchKindGrammar
	searchKindGeneral
)

// searchArgs are the program's language model (or grammar) and dictionary options of
// a search.
func (c *Command) searchArgs(kind int) []string {
	switch kind {
	case searchKindDomain:
		return []string{"-lm", filepath.Join(c.dir, domainARPA), "-dict", filepath.Join(c.dir, domainDict)}
	case searchKindGrammar:
		// Wide beams: a grammar search that prunes its way out of every final
		// state returns nothing at all (measured on espeak-ng's voice).
		return []string{"-jsgf", filepath.Join(c.dir, domainGrammar), "-dict", filepath.Join(c.dir, domainDict),
			"-beam", "1e-80", "-pbeam", "1e-80", "-wbeam", "1e-60"}
	default:
		return []string{"-lm", filepath.Join(c.cfg.ModelDir, "en-us.lm.bin"), "-dict", filepath.Join(c.cfg.ModelDir, "cmudict-en-us.dict")}
	}
}

// writeDomainFiles writes the domain trigram model (ARPA) and a dictionary of its
// words only (from cmudict-en-us.dict and extraPronunciations) into dir. A small
// dictionary is what makes the program start in a fraction of a second.
func writeDomainFiles(dir, modelDir string, extra []string) error {
	want := map[string]bool{}
	for _, s := range append(domainCorpus(), extra...) {
		for _, w := range strings.Fields(s) {
			want[w] = true
		}
	}
	prons, err := readDictionary(filepath.Join(modelDir, "cmudict-en-us.dict"), want)
	if err != nil {
		return err
	}
	for w, phones := range extraPronunciations {
		if _, ok := prons[w]; !ok {
			prons[w] = []string{w + " " + phones}
		}
	}
	kept := domainSentences(extra, func(w string) bool { return prons[w] != nil })
	if len(kept) == 0 {
		return errors.New("pocketsphinx: no domain sentence uses only dictionary words")
	}
	m := estimateTrigrams(kept)
	var dict bytes.Buffer
	for _, w := range m.vocabulary() {
		for _, line := range prons[w] {
			dict.WriteString(line)
			dict.WriteByte('\n')
		}
	}
	if err := os.WriteFile(filepath.Join(dir, domainARPA), m.arpa(), 0o600); err != nil {
		return fmt.Errorf("pocketsphinx: writing the domain model: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, domainDict), dict.Bytes(), 0o600); err != nil {
		return fmt.Errorf("pocketsphinx: writing the domain dictionary: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, domainGrammar), jsgf(kept), 0o600); err != nil {
		return fmt.Errorf("pocketsphinx: writing the domain grammar: %w", err)
	}
	return nil
}

// jsgf is a JSGF grammar whose sentences are exactly the domain corpus.
func jsgf(sentences []string) []byte {
	var b bytes.Buffer
	b.WriteString("#JSGF V1.0;\ngrammar veriland;\npublic <question> = ")
	for i, s := range sentences {
		if i > 0 {
			b.WriteString("\n  | ")
		}
		b.WriteString(s)
	}
	b.WriteString(";\n")
	return b.Bytes()
}

// readDictionary reads the lines of the words in want from a sphinx dictionary
// ("word PH ON ES", alternates as "word(2) …").
func readDictionary(path string, want map[string]bool) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pocketsphinx: %w", err)
	}
	defer f.Close()
	prons := make(map[string][]string, len(want))
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Bytes()
		end := bytes.IndexAny(line, " (\t")
		if end <= 0 || !want[string(line[:end])] {
			continue
		}
		f := strings.Fields(string(line))
		if len(f) < 2 {
			continue
		}
		word := string(line[:end])
		prons[word] = append(prons[word], strings.Join(f, " "))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("pocketsphinx: reading %s: %w", path, err)
	}
	return prons, nil
}

// Transcribe decodes in.Audio (WAV, FLAC or MP3) in Go, resamples it to 16 kHz mono
// and returns what was said, in English. Errors are those of Transcriber.Transcribe:
// *veriland.Error values (validation_failed at /language, unsupported_media_type,
// audio_too_long and invalid_audio at /file, unavailable after Close, internal when
// the program fails) and ctx's error when the caller gives up.
func (c *Command) Transcribe(ctx context.Context, in assistant.SpeechInput) (*assistant.Transcription, error) {
	if err := checkLanguage(in.Language); err != nil {
		return nil, err
	}
	if len(in.Audio) == 0 {
		return nil, veriland.Invalid("/file", "the recording is empty")
	}
	pcm, err := audio.Decode(in.Audio, c.cfg.MaxDuration)
	if err != nil {
		return nil, audioError(err)
	}
	samples := audio.Resample(pcm, sampleRate).Int16()
	r, err := c.recognize(ctx, samples)
	if err != nil {
		return nil, err
	}
	return &assistant.Transcription{Text: r.chosen.text, Language: "en", Provider: Provider}, nil
}

// recognize transcribes 16 kHz mono samples: the domain search, then the stock one
// when the domain transcript is empty or doubtful.
func (c *Command) recognize(ctx context.Context, samples []int16) (recognition, error) {
	var r recognition
	if err := c.acquire(ctx); err != nil {
		return r, err
	}
	defer func() { <-c.slots }()
	if len(samples) == 0 {
		return r, nil
	}
	var err error
	if !c.cfg.GeneralOnly {
		var gerr error
		var wg sync.WaitGroup
		wg.Go(func() { r.grammar, gerr = c.run(ctx, searchKindGrammar, samples) })
		r.domain, err = c.run(ctx, searchKindDomain, samples)
		wg.Wait()
		if err = errors.Join(err, gerr); err != nil {
			return r, decodeError(err)
		}
		if h, ok := chooseDomain(r.grammar, r.domain); ok {
			r.chosen, r.search = h, searchDomain
			return r, nil
		}
	}
	if r.general, err = c.run(ctx, searchKindGeneral, samples); err != nil {
		return r, decodeError(err)
	}
	r.chosen, r.search = r.general, searchGeneral
	return r, nil
}

// acquire takes a slot, waiting while Config.Decoders programs run.
func (c *Command) acquire(ctx context.Context) error {
	select {
	case <-c.closed:
		return errClosed
	default:
	}
	select {
	case c.slots <- struct{}{}:
		select {
		case <-c.closed:
			<-c.slots
			return errClosed
		default:
			return nil
		}
	case <-c.closed:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// timeout bounds one run of the program: generous for the stock model's slow start,
// plus twice the recording's duration.
func (c *Command) timeout(samples int) time.Duration {
	if c.cfg.Timeout > 0 {
		return c.cfg.Timeout
	}
	return time.Minute + 2*time.Duration(samples)*time.Second/sampleRate
}

// uttID names the recording in the control, hypothesis and CTM files.
const uttID = "utt"

// run decodes samples with one language model and dictionary in a fresh process.
// The samples go to a raw file in a private temporary directory, removed when the
// program ends, and so do the program's log and result files.
func (c *Command) run(ctx context.Context, kind int, samples []int16) (hypothesis, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout(len(samples)))
	defer cancel()
	dir, err := os.MkdirTemp("", "veriland-utterance-*")
	if err != nil {
		return hypothesis{}, err
	}
	defer os.RemoveAll(dir)
	raw := make([]byte, 2*len(samples))
	for i, s := range samples {
		binary.LittleEndian.PutUint16(raw[2*i:], uint16(s))
	}
	if err := os.WriteFile(filepath.Join(dir, uttID+".raw"), raw, 0o600); err != nil {
		return hypothesis{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "ctl"), []byte(uttID+"\n"), 0o600); err != nil {
		return hypothesis{}, err
	}
	hypPath, ctmPath, logPath := filepath.Join(dir, "hyp"), filepath.Join(dir, "ctm"), filepath.Join(dir, "log")
	args := []string{
		"-hmm", filepath.Join(c.cfg.ModelDir, "en-us"),
		"-adcin", "yes", "-adchdr", "0", "-input_endian", "little", "-samprate", strconv.Itoa(sampleRate),
		"-cepdir", dir, "-cepext", ".raw", "-ctl", filepath.Join(dir, "ctl"),
		"-hyp", hypPath, "-ctm", ctmPath, "-logfn", logPath,
	}
	args = append(append(args, c.searchArgs(kind)...), c.cfg.extraArgs...)
	cmd := exec.CommandContext(ctx, c.program, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C"}
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		if cerr := context.Cause(ctx); errors.Is(cerr, context.DeadlineExceeded) && err != nil {
			return hypothesis{}, fmt.Errorf("%s timed out: %w", filepath.Base(c.program), cerr)
		}
		return hypothesis{}, ctx.Err()
	}
	if err != nil {
		return hypothesis{}, fmt.Errorf("%s: %w: %s", filepath.Base(c.program), err, logTail(logPath, out))
	}
	hyp, err := os.ReadFile(hypPath)
	if err != nil {
		return hypothesis{}, fmt.Errorf("%s wrote no hypothesis: %s", filepath.Base(c.program), logTail(logPath, out))
	}
	h, ok := parseHyp(hyp)
	if !ok {
		return hypothesis{}, fmt.Errorf("%s did not decode the recording: %s", filepath.Base(c.program), logTail(logPath, out))
	}
	if h.text != "" {
		ctm, _ := os.ReadFile(ctmPath)
		h.minWord = minPosterior(ctm)
	}
	return h, nil
}

// parseHyp reads the hypothesis file's line "words (utt score)".
func parseHyp(b []byte) (hypothesis, bool) {
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		i := strings.LastIndex(line, "(")
		if i < 0 || !strings.HasSuffix(line, ")") {
			continue
		}
		if f := strings.Fields(line[i+1 : len(line)-1]); len(f) == 0 || f[0] != uttID {
			continue
		}
		return hypothesis{text: cleanHypothesis(line[:i])}, true
	}
	return hypothesis{}, false
}

// minPosterior is the smallest posterior of a word in a CTM file ("utt channel start
// duration word posterior"), fillers excluded; 0 when no word has one, so that an
// unreadable file counts as doubt.
func minPosterior(ctm []byte) float64 {
	lowest, seen := 1.0, false
	for _, line := range strings.Split(string(ctm), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[0] != uttID || cleanHypothesis(f[4]) == "" {
			continue
		}
		p, err := strconv.ParseFloat(f[5], 64)
		if err != nil {
			continue
		}
		seen = true
		lowest = min(lowest, p)
	}
	if !seen {
		return 0
	}
	return lowest
}

// logTail is the end of the program's log (its errors), or its output.
func logTail(logPath string, out []byte) string {
	b, _ := os.ReadFile(logPath)
	if len(bytes.TrimSpace(b)) == 0 {
		b = out
	}
	var errs []string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "ERROR") || strings.HasPrefix(line, "FATAL") {
			errs = append(errs, strings.TrimSpace(line))
		}
	}
	s := strings.Join(errs, "; ")
	if s == "" {
		s = strings.TrimSpace(string(b))
	}
	if len(s) > 500 {
		s = "…" + s[len(s)-500:]
	}
	return s
}

// Close waits for the recordings being decoded and removes the domain model files.
// Later calls to Transcribe fail with unavailable. Close is idempotent.
func (c *Command) Close() error {
	c.close.Do(func() {
		close(c.closed)
		for range cap(c.slots) {
			c.slots <- struct{}{}
		}
		if c.dir != "" {
			os.RemoveAll(c.dir)
		}
	})
	return nil
}

// chooseDomain picks a Command's domain transcript from the grammar search (whose
// sentences are exactly the assistant's phrases) and the domain language model's
// search (which can express other word sequences, and whose word posteriors say how
// sure it is). The grammar hears the assistant's questions best, but forces any
// speech into one of them. It is kept when the language model agrees with most of
// its words, or when the language model is fairly sure of its own words (speech in
// the domain that it heard differently); otherwise the language model's transcript
// is kept if it is not doubtful. It reports false when neither is to be trusted,
// and the stock model should be asked.
func chooseDomain(grammar, domain hypothesis) (hypothesis, bool) {
	disagreement := 1.0
	if grammar.text != "" && domain.text != "" {
		disagreement, _, _ = wordErrorRate(grammar.text, domain.text)
	}
	switch {
	case grammar.text != "" && (disagreement <= maxGrammarDisagreement || domain.minWord >= minDomainPosteriorForGrammar):
		return grammar, true
	case domain.text != "" && domain.minWord >= minDomainWordPosterior:
		return domain, true
	default:
		return hypothesis{}, false
	}
}

// Thresholds of chooseDomain, set on flite's and espeak-ng's voices (see
// command_test.go). espeak-ng's questions often come out of the language model with
// words wrong or missing ("what is the parcel", "is the status of the bye", lowest
// word posterior 0.38–0.69) while the grammar gets them right. Speech outside the
// domain gave the language model a lowest word posterior of 0.29 or less in the
// measurement (with Go's resampling of flite's and espeak-ng's voices, sox's gave
// slightly different numbers), and a grammar sentence that shares few words with
// its transcript.
const (
	maxGrammarDisagreement       = 0.5
	minDomainPosteriorForGrammar = 0.3
)
