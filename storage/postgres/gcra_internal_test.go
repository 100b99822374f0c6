package postgres

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/veriland/veriland/storage"
)

func TestGCRAError(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		code        string
		unsupported bool
		unavailable bool
	}{
		{"42883", true, false}, // undefined_function: int8send on CockroachDB
		{"42704", true, false},
		{"0A000", true, false},
		{"57P01", false, true}, // admin shutdown
		{"23502", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			err := gcraError(ctx, &pgconn.PgError{Code: tt.code})
			require.Equal(t, tt.unsupported, errors.Is(err, errors.ErrUnsupported), "%v", err)
			require.Equal(t, tt.unavailable, errors.Is(err, storage.ErrUnavailable), "%v", err)
		})
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	require.ErrorIs(t, gcraError(cancelled, &pgconn.PgError{Code: "57014"}), context.Canceled)
}
