package webhook_test

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/veriland/veriland"
	"github.com/veriland/veriland/httpserver/webhook"
)

func Example() {
	secret, err := webhook.ParseSecret("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		panic(err)
	}
	sent := time.Unix(1614265330, 0)
	body := []byte(`{"test": 2432232314}`)

	// The sender signs...
	h := http.Header{}
	webhook.SetHeaders(h, []webhook.Secret{secret}, "msg_p5jXN8AQM9LWM0D4loKWxJek", sent, body)
	fmt.Println(h.Get(webhook.HeaderSignature))

	// ...and the receiver verifies against its clock.
	fmt.Println(webhook.Verify(h, body, []webhook.Secret{secret}, sent.Add(time.Minute)))

	err = webhook.Verify(h, body, []webhook.Secret{secret}, sent.Add(time.Hour))
	fmt.Println(errors.Is(err, webhook.ErrStaleTimestamp), veriland.CodeOf(err))
	// Output:
	// v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=
	// <nil>
	// true invalid_webhook_signature
}

func ExampleValidateCallbackURL() {
	for _, u := range []string{
		"https://hooks.example.com/veriland",
		"http://hooks.example.com/veriland",
		"https://169.254.169.254/latest/meta-data/",
	} {
		fmt.Println(webhook.ValidateCallbackURL(veriland.Production, u, webhook.CallbackPolicy{}))
	}
	fmt.Println(webhook.ValidateCallbackURL(veriland.Sandbox, "http://localhost:8080/hook", webhook.CallbackPolicy{}))
	// Output:
	// <nil>
	// validation_failed: callbackUrl must use https (at /callbackUrl)
	// validation_failed: callbackUrl must not point to a loopback, private, link-local or metadata address (at /callbackUrl)
	// <nil>
}

func ExampleNextAttempt() {
	first := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	for n := 0; ; n++ {
		next, ok := webhook.NextAttempt(first, n, noJitter{})
		if !ok {
			fmt.Println("FAILED")
			break
		}
		fmt.Println(next.Sub(first))
	}
	// Output:
	// 0s
	// 5s
	// 5m0s
	// 30m0s
	// 2h0m0s
	// 5h0m0s
	// 10h0m0s
	// FAILED
}

// noJitter draws the middle of the ±10 % range, so the example shows the bare schedule.
type noJitter struct{}

func (noJitter) Float64() float64 { return 0.5 }
