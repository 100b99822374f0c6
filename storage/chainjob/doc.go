// Package chainjob is the durable queue of work that sends transactions to a chain:
// anchoring attestations and revocations (package attestation) and minting and
// burning land titles (package parcel). One Queue, run by one worker, serves every
// kind of job, so that a single account's transactions are sent one at a time and
// never race on its nonce.
//
// A job is written with Enqueue inside the transaction of the state change that needs
// it, so that the change and its chain work commit together or not at all. The worker
// (Queue.Run, or Queue.RunOnce from a scheduler) claims due jobs, hiding each from
// other workers for Policy.Lease, calls the Handler registered for the job's kind
// outside any storage transaction, and then, in one transaction, removes the job and
// lets the handler record the outcome (Handler.Settle). A failure is retried with
// exponential backoff (Policy.Backoff doubling up to Policy.MaxBackoff) until
// Policy.MaxAttempts, then settled as final. A handler says that a failure is final at
// once with Permanent, and that its environment has no chain with ErrDisabled.
//
// Exactly-once is the handlers' part: a worker may die between sending a transaction
// and settling its job, and the job then runs again once its lease expires. Handlers
// therefore read the chain before they send (a land title that is already minted is
// not minted again; its original receipt is returned), and the contracts refuse a
// second mint on their own.
//
// Keys of the queue's bucket (per environment, Bucket) are the due time in Unix
// nanoseconds, big-endian, followed by the kind and the reference, so that the worker
// finds due jobs with one range scan. A job of a kind that no handler serves (written
// by a newer version, say) is left in place and skipped.
//
// Replicas: each Queue's Policy.Fence is checked right before every handler call;
// the reference server sets it to its anchoring lease (storage/lease), so that only
// the leader sends.
package chainjob
