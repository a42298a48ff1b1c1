package bench

import (
	"testing"
	"time"
)

func TestProcKiB(t *testing.T) {
	const status = "Name:\tleaderboard-bench\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t9\n"
	if got := procKiB(status, "VmRSS"); got != 100<<20 {
		t.Errorf("VmRSS = %d, want %d", got, 100<<20)
	}
	if got := procKiB(status, "VmHWM"); got != 200<<20 {
		t.Errorf("VmHWM = %d, want %d", got, 200<<20)
	}
	if got := procKiB(status, "VmSwap"); got != 0 {
		t.Errorf("a missing field reads %d, want 0", got)
	}
}

func TestProcField_CPUModel(t *testing.T) {
	const cpuinfo = "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Processor\n"
	if got := procField(cpuinfo, "model name", ':'); got != "Intel(R) Xeon(R) Processor" {
		t.Errorf("model name = %q", got)
	}
}

func TestTuning(t *testing.T) {
	settings := func(ram uint64) map[string]string {
		m := map[string]string{}
		for _, s := range Tuning(ram) {
			m[s.Name] = s.Value
		}
		return m
	}
	if got := settings(24 << 30)["shared_buffers"]; got != "4096MB" {
		t.Errorf("shared_buffers with 24 GiB = %s, want the 4 GB cap", got)
	}
	if got := settings(8 << 30)["shared_buffers"]; got != "2048MB" {
		t.Errorf("shared_buffers with 8 GiB = %s, want a quarter", got)
	}
	if got := settings(24 << 30)["synchronous_commit"]; got != "on" {
		t.Errorf("synchronous_commit = %s, want on", got)
	}
}

func TestMonths(t *testing.T) {
	for _, tt := range []struct {
		now          time.Time
		closed, open string
	}{
		{time.Date(2026, 11, 22, 1, 0, 0, 0, time.UTC), "2026-10", "2026-11"},
		{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "2025-12", "2026-01"},
		{time.Date(2026, 3, 31, 23, 59, 0, 0, time.UTC), "2026-02", "2026-03"},
	} {
		closed, open := Months(tt.now, time.UTC)
		if closed.String() != tt.closed || open.String() != tt.open {
			t.Errorf("Months(%v) = %s, %s; want %s, %s", tt.now, closed, open, tt.closed, tt.open)
		}
	}
}
