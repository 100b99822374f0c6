package ratelimit

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestHeaders(t *testing.T) {
	cases := []struct {
		name       string
		p          Policy
		d          Decision
		policy     string
		rateLimit  string
		retryAfter string
	}{
		{
			name:      "fresh wallet",
			p:         WalletPolicy(),
			d:         Decision{Allowed: true, Remaining: 29, Reset: 500 * time.Millisecond},
			policy:    `"wallet";q=120;w=60`,
			rateLimit: `"wallet";r=29;t=1`,
		},
		{
			name:      "ip, whole seconds",
			p:         IPPolicy(),
			d:         Decision{Allowed: true, Remaining: 0, Reset: 12 * time.Second},
			policy:    `"ip";q=600;w=60`,
			rateLimit: `"ip";r=0;t=12`,
		},
		{
			name:       "denied, retry rounds up",
			p:          WalletPolicy(),
			d:          Decision{Reset: 15 * time.Second, RetryAfter: 1500 * time.Millisecond},
			policy:     `"wallet";q=120;w=60`,
			rateLimit:  `"wallet";r=0;t=15`,
			retryAfter: "2",
		},
		{
			name:       "denied, retry at least one second",
			p:          WalletPolicy(),
			d:          Decision{Reset: 15 * time.Second, RetryAfter: time.Nanosecond},
			policy:     `"wallet";q=120;w=60`,
			rateLimit:  `"wallet";r=0;t=15`,
			retryAfter: "1",
		},
		{
			name:       "sub-second window rounds up",
			p:          Policy{Name: "burst.v2", Limit: 5, Window: 1500 * time.Millisecond, Burst: 5},
			d:          Decision{Reset: 0, RetryAfter: 2 * time.Second},
			policy:     `"burst.v2";q=5;w=2`,
			rateLimit:  `"burst.v2";r=0;t=0`,
			retryAfter: "2",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			h.Set(HeaderRetryAfter, "stale")
			Headers(h, c.p, c.d)
			require.Equal(t, c.policy, h.Get(HeaderPolicy))
			require.Equal(t, c.rateLimit, h.Get(HeaderRateLimit))
			require.Equal(t, c.retryAfter, h.Get(HeaderRetryAfter))
		})
	}
}
