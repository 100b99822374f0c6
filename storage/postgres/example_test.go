package postgres_test

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/postgres"
)

// DDL prints the statements Open would run, for a migration that a more privileged
// role runs before the servers start with NoCreate.
func ExampleOptions_DDL() {
	opts := postgres.Options{
		DSN:      "postgres://veriland@db.internal:5432/veriland?sslmode=verify-full",
		Schema:   "veriland",
		NoCreate: true, // the servers' role may read and write, not create
	}
	fmt.Println(opts.DDL())
	// Output:
	// CREATE SCHEMA IF NOT EXISTS "veriland";
	// CREATE TABLE IF NOT EXISTS "veriland"."veriland_kv" (bucket TEXT NOT NULL, key BYTEA NOT NULL, value BYTEA NOT NULL, PRIMARY KEY (bucket, key));
}

// Retryable tells serialization failures and deadlocks, which Update retries
// itself, from other errors, also when they are wrapped.
func ExampleRetryable() {
	serialization := &pgconn.PgError{Code: "40001", Message: "could not serialize access due to concurrent update"}
	gaveUp := fmt.Errorf("%w: postgres: transaction gave up after 30 attempts: %w", storage.ErrUnavailable, serialization)
	fmt.Println(postgres.Retryable(serialization))
	fmt.Println(postgres.Retryable(gaveUp), errors.Is(gaveUp, storage.ErrUnavailable))
	fmt.Println(postgres.Retryable(&pgconn.PgError{Code: "40P01", Message: "deadlock detected"}))
	fmt.Println(postgres.Retryable(&pgconn.PgError{Code: "23505", Message: "duplicate key value"}))
	fmt.Println(postgres.Retryable(storage.ErrNotFound))
	// Output:
	// true
	// true true
	// true
	// false
	// false
}
