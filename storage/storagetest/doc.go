// Package storagetest is the conformance suite every storage.Store backend passes.
//
// A backend runs the whole suite with one call from its own tests:
//
//	func TestConformance(t *testing.T) {
//		storagetest.Run(t, func(t *testing.T, path string) storage.Store {
//			s, err := mybackend.Open(path)
//			require.NoError(t, err)
//			return s
//		})
//	}
//
// The suite checks the contract documented on storage.Store and storage.Tx:
//
//   - Get, Put, Delete and Scan, missing buckets and keys, ErrNotFound;
//   - byte slices passed in or returned are never retained or shared;
//   - ErrReadOnly for writes in View;
//   - atomicity: a function that returns an error or panics leaves nothing behind, and
//     the panic reaches the caller of Update;
//   - isolation of concurrent read-modify-write transactions (no lost updates), also
//     when failing, panicking and succeeding transactions run at the same time;
//   - ordered prefix and range scans, forward and reverse, including 0xff edges, early
//     stop with ErrStop and error propagation;
//   - snapshot consistency of View while writers commit;
//   - durability across Close and reopen;
//   - context cancellation before and during a transaction and during a Scan;
//   - environment isolation of storage.Bucket namespaces;
//   - errors, never panics, after Close.
//
// Crash consistency (a process killed mid-write keeps every committed transaction,
// whole) needs a backend's own harness; storage/bolt's TestCrash is one.
//
// Stores the suite opens get a fresh path for every subtest; see OpenFunc for what a
// backend must do with it. Subtests run in parallel.
package storagetest
