// Package lease elects one holder of a named role among processes that share a
// storage.Store: the replicas of a server on one PostgreSQL database, say, of which
// only one may send the Ethereum anchoring transactions of a single key.
//
// A lease is one record in the bucket storage.Global("leases"), keyed by the lease's
// name: who holds it, until when, and a term, a fencing counter that grows by one each
// time a holder takes the lease rather than renewing it. Acquire takes or renews the
// lease in one read-write transaction (the store's isolation makes two takers
// serialize: one wins, the other sees the winner), Release gives it up, and Run keeps
// a function running while the lease is held: it tries to take the lease every TTL/3,
// renews it at the same pace while held, and cancels the function's context as soon
// as a renewal fails or the lease runs out, before anyone else may take it over.
//
// # What a lease guarantees
//
// At most one holder per TTL window, provided the holders' clocks agree to well
// within the TTL: a lease is free only once its until time has passed by the taker's
// clock, and a holder that cannot renew stops by its own clock (by the time the
// record says it ends, counted from the successful renewal on the holder's
// monotonic clock, so a renewal that stalls stops the holder first).
//
// # What it does not guarantee
//
// A holder that is paused (a stop-the-world pause, a frozen VM, a process stopped
// with SIGSTOP) between checking its lease and acting can act after its lease has
// passed to another holder: the overlap lasts up to the pause. The term is the
// defence. Check re-reads the record and answers ErrLost unless this holder still
// holds the term it acquired, so an action checks it just before it acts, narrowing
// the overlap to the time between the check and the act. The anchoring workers do so
// before each transaction they send; a rare remaining overlap costs one anchoring
// transaction that the chain refuses (a nonce already used), which the job's backoff
// retries. Nothing here makes an action exactly-once: that is for the action's own
// idempotency to ensure.
//
// Two processes given the same holder id do not both lead: a renewal counts only
// when the stored term is the one this Lease value acquired.
package lease
