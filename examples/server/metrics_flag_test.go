package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMetricsTokenFlag(t *testing.T) {
	o, err := parseFlags(nil, io.Discard)
	require.NoError(t, err)
	require.Empty(t, o.metricsToken, "the endpoint is public by default")

	t.Setenv("VERILAND_METRICS_TOKEN", "from-env")
	o, err = parseFlags(nil, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "from-env", o.metricsToken)

	o, err = parseFlags([]string{"-metrics-token", "from-flag"}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, "from-flag", o.metricsToken, "the flag wins")
}
