// Package pgtest opens storage/postgres stores for tests that need a real PostgreSQL:
// the server named by VERILAND_TEST_POSTGRES_URL (storage/postgres/testdb.sh starts a
// throwaway one and prints its URL). Without it a test is skipped, or fails under
// CI=true (internal/testenv).
//
// Replicas opens several stores, each with its own connection pool, on one fresh
// schema: the shape of several server replicas sharing one database. The schema is
// dropped, with everything in it, when the test ends, so parallel tests and packages
// never share rows.
package pgtest
