package ratelimit

import (
	"github.com/veriland/veriland/storage"
)

// transactional hides a store's GCRA method, so that a Limiter on it takes the
// transactional path.
type transactional struct{ storage.Store }
