package audit

import (
	"testing"

	"github.com/veriland/veriland/internal/pgtest"
	"github.com/veriland/veriland/storage"
)

// Two replicas on one PostgreSQL table append and seal at once.
func TestConcurrentAppendersAndSealersPostgres(t *testing.T) {
	pg := pgtest.Replicas(t, 2, 8)
	replicas := []storage.Store{pg[0], pg[1]}
	replicaTest(t, replicas, 16, 25)
	for i, s := range pg {
		st := s.Stats()
		t.Logf("replica %d: %d commits, %d retries", i, st.Commits, st.Retries)
	}
}
