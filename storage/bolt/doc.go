// Package bolt is the default storage backend: one bbolt file, fsync on every commit,
// and group commit so that concurrent writers share fsyncs.
//
// Group commit needs no batching delay: the first writer commits at once, and writers
// that arrive while a commit is running queue up and are committed together by the
// next leader. A lone writer therefore pays one commit, and many writers pay far fewer
// commits than transactions (see Stats and the benchmarks).
//
// Update functions may run more than once (when another function in the same batch
// fails, the batch is retried without it), so they must have no effect outside the
// transaction they are given. A function that panics or ends its goroutine
// (runtime.Goexit) never stalls the writers queued behind it.
//
// Transactions do not nest: calling Update from inside an Update or View function of
// the same Store can deadlock (the inner writer waits for the outer transaction, which
// waits for it). Views may run while writers commit; a View that stays open for long
// may hold a writer back only when the file has to grow meanwhile.
package bolt
