package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// spinSink keeps the spinning loop from being optimized away.
var spinSink int

func TestPostmasterPID(t *testing.T) {
	dir := t.TempDir()
	if got := PostmasterPID(dir); got != 0 {
		t.Errorf("without postmaster.pid: %d, want 0", got)
	}
	pidFile := "4242\n/data\n1700000000\n5434\n/run\n\n  1234 5678\nready   \n"
	if err := os.WriteFile(filepath.Join(dir, "postmaster.pid"), []byte(pidFile), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := PostmasterPID(dir); got != 4242 {
		t.Errorf("PostmasterPID = %d, want 4242", got)
	}
}

func TestCPUMeter_ReadsThisProcess(t *testing.T) {
	// The kernel counts CPU time in ticks of 10 ms: spin until one shows.
	var got CPUTimes
	for deadline := time.Now().Add(5 * time.Second); got.Process == 0 && time.Now().Before(deadline); {
		for range 1_000_000 {
			spinSink++
		}
		got = CPUMeter{}.Read()
	}
	if got.Process <= 0 || got.Postgres != 0 || got.Redis != 0 {
		t.Errorf("Read() = %+v: want this process's CPU time only", got)
	}
	if parent := statFields(os.Getpid()); len(parent) < 15 {
		t.Errorf("stat of this process has %d fields from the state on, want at least 15", len(parent))
	}
}
