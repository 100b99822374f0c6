package main

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/httpserver"
	"github.com/veriland/veriland/httpserver/ratelimit"
)

func TestParseRateLimits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want httpserver.RateLimits
		err  string
	}{
		{in: "on"},
		{in: ""},
		{in: "off", want: httpserver.RateLimits{Disabled: true}},
		{in: "key=50/1s:100", want: httpserver.RateLimits{Key: ratelimit.Policy{Name: "key", Limit: 50, Window: time.Second, Burst: 100}}},
		{in: "wallet=60/m:20, ip=1000/1m:200", want: httpserver.RateLimits{
			Wallet: ratelimit.Policy{Name: "wallet", Limit: 60, Window: time.Minute, Burst: 20},
			Public: ratelimit.Policy{Name: "ip", Limit: 1000, Window: time.Minute, Burst: 200},
		}},
		{in: "maybe", err: "must be on, off"},
		{in: "admin=1/1s:1", err: "unknown policy"},
		{in: "key=100/1s", err: "burst is missing"},
		{in: "key=100:200", err: "window is missing"},
		{in: "key=x/1s:2", err: "limit is not an integer"},
		{in: "key=1/1s:y", err: "burst is not an integer"},
		{in: "key=1/fortnight:2", err: "not a duration"},
		{in: "key=0/1s:2", err: "limit must be positive"},
		{in: "key=1/1s:0", err: "burst must be positive"},
		{in: "key=1/1s:1,key=2/1s:2", err: "given twice"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseRateLimits(tc.in)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	require.Equal(t, 2, run(t.Context(), []string{"-rate-limit", "key=1/1s"}, io.Discard, io.Discard))
}
