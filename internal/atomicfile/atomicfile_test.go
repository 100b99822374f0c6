package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCreateAndReplace(t *testing.T) {
	for _, tc := range []struct {
		name     string
		existing bool
		write    func(string, []byte) error
		wantErr  error
		want     string
	}{
		{"create a new file", false, Create, nil, "new"},
		{"create never overwrites", true, Create, fs.ErrExist, "old"},
		{"replace a file", true, Replace, nil, "new"},
		{"replace creates", false, Replace, nil, "new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "secret.key")
			if tc.existing {
				require.NoError(t, os.WriteFile(path, []byte("old"), 0o600))
			}
			err := tc.write(path, []byte("new"))
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr)
			} else {
				require.NoError(t, err)
			}
			got, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, tc.want, string(got))
			fi, err := os.Stat(path)
			require.NoError(t, err)
			require.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			require.Len(t, entries, 1, "no temporary file left behind")
		})
	}
}

// Of many processes creating one file at once, exactly one wins, and the file holds
// the winner's whole content.
func TestCreateRace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret.key")
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := range 16 {
		wg.Go(func() {
			err := Create(path, []byte{byte('a' + i)})
			if err == nil {
				mu.Lock()
				wins++
				mu.Unlock()
			} else if !errors.Is(err, fs.ErrExist) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	require.Equal(t, 1, wins)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Len(t, got, 1)
}
