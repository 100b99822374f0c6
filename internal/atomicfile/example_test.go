package atomicfile_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/veriland/veriland/internal/atomicfile"
)

// Two replicas creating one key: the second finds the first's and keeps it.
func Example() {
	dir, _ := os.MkdirTemp("", "keys")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "pepper.key")
	fmt.Println(atomicfile.Create(path, []byte("first")))
	err := atomicfile.Create(path, []byte("second"))
	fmt.Println(errors.Is(err, fs.ErrExist))
	b, _ := os.ReadFile(path)
	fmt.Println(string(b))
	// Output:
	// <nil>
	// true
	// first
}
