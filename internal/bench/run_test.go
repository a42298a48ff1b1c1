package bench

import (
	"strings"
	"testing"
)

func TestLockDir_RefusesASecondRun(t *testing.T) {
	dir := t.TempDir()
	unlock, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockDir(dir); err == nil || !strings.Contains(err.Error(), "another benchmark is running") {
		t.Fatalf("second lock: %v, want another benchmark is running", err)
	}
	unlock()
	unlock2, err := lockDir(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock2()
}
