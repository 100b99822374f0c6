package storage

import "bytes"

// Contains reports whether key falls inside r. Backends use it to filter scans.
func (r Range) Contains(key []byte) bool {
	if r.Prefix != nil && !bytes.HasPrefix(key, r.Prefix) {
		return false
	}
	if r.Start != nil && bytes.Compare(key, r.Start) < 0 {
		return false
	}
	if r.End != nil && bytes.Compare(key, r.End) >= 0 {
		return false
	}
	return true
}

// Lower returns the smallest key the range can contain (nil for the bucket start).
func (r Range) Lower() []byte {
	if r.Start != nil && (r.Prefix == nil || bytes.Compare(r.Start, r.Prefix) > 0) {
		return r.Start
	}
	return r.Prefix
}

// Upper returns the exclusive upper bound of the range (nil for the bucket end).
func (r Range) Upper() []byte {
	var up []byte
	if r.Prefix != nil {
		up = PrefixEnd(r.Prefix)
	}
	if r.End != nil && (up == nil || bytes.Compare(r.End, up) < 0) {
		up = r.End
	}
	return up
}

// PrefixEnd returns the smallest key greater than every key with the given prefix,
// or nil when there is none (a prefix of only 0xff bytes).
func PrefixEnd(prefix []byte) []byte {
	end := bytes.Clone(prefix)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}
