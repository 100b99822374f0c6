package bolt_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	bbolt "go.etcd.io/bbolt"

	"github.com/veriland/veriland/storage"
	"github.com/veriland/veriland/storage/bolt"
)

const crashEnv = "VERILAND_BOLT_CRASH_PATH"

// TestCrashChild is the writer that TestCrash kills: it commits forever from several
// goroutines and prints each key once its Update has returned.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("run by TestCrash")
	}
	s, err := bolt.Open(path, bolt.Options{})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(2)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				k := fmt.Sprintf("%d-%06d", w, i)
				if err := s.Update(context.Background(), func(tx storage.Tx) error {
					if err := tx.Put("crash", []byte(k), []byte(k)); err != nil {
						return err
					}
					return tx.Put("crash-pairs", []byte(k), []byte(k)) // same tx, other bucket
				}); err != nil {
					return
				}
				mu.Lock()
				fmt.Fprintln(out, k)
				out.Flush()
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// TestCrash kills a writing process with SIGKILL and checks that the file opens, is
// consistent, and holds every transaction whose Update returned, whole.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns a process")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())

	var committed []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		committed = append(committed, sc.Text())
		if len(committed) == 300 {
			require.NoError(t, cmd.Process.Kill())
		}
	}
	_ = cmd.Wait()
	require.GreaterOrEqual(t, len(committed), 300, "the child stopped early: %v", committed)

	db, err := bbolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.View(func(tx *bbolt.Tx) error {
		for err := range tx.Check() {
			return err
		}
		return nil
	}))
	require.NoError(t, db.Close())

	s, err := bolt.Open(path, bolt.Options{})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.View(t.Context(), func(tx storage.Tx) error {
		for _, k := range committed {
			v, err := tx.Get("crash", []byte(k))
			require.NoError(t, err, "committed key %s lost", k)
			require.Equal(t, k, string(v))
		}
		// Every transaction is whole: both buckets hold the same keys.
		var a, b []string
		require.NoError(t, tx.Scan("crash", storage.Range{}, func(k, _ []byte) error { a = append(a, string(k)); return nil }))
		require.NoError(t, tx.Scan("crash-pairs", storage.Range{}, func(k, _ []byte) error { b = append(b, string(k)); return nil }))
		require.Equal(t, a, b)
		return nil
	}))
}
