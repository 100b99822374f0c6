// Package jsonappend holds appenders for encoders' fast paths: each writes a value
// exactly as encoding/json writes it (json.Marshal, HTML escaping on), byte for
// byte, so that a hand-written encoder built from them needs neither reflection nor
// encoding/json's second pass over the output of MarshalJSON methods (validation and
// compaction).
//
// Like internal/jsonscan on the decoding side, every appender handles the common
// case itself and hands anything else to encoding/json: a string with a byte that
// encoding/json escapes is written by json.Marshal, and raw JSON that is not
// already compact and free of characters encoding/json escapes is compacted by
// encoding/json. So the bytes, and the errors, are always encoding/json's own.
package jsonappend
