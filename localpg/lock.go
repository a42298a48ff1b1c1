package localpg

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Kinds of flock(2) lock.
const (
	shared    = syscall.LOCK_SH
	exclusive = syscall.LOCK_EX
)

// lockFile opens path, creating it, and takes a lock of the given kind on
// it, waiting while another holder has a conflicting one, until ctx ends.
// Closing the file releases the lock; so does the death of the process.
func lockFile(ctx context.Context, path string, kind int) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), kind|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("wait for lock %s: %w", path, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// tryUpgrade turns a shared lock into an exclusive one if no one else holds
// the file locked, and reports whether it did. Either way the shared lock may
// be gone (flock converts by unlocking first), so call it only on the way out.
func tryUpgrade(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), exclusive|syscall.LOCK_NB) == nil
}
