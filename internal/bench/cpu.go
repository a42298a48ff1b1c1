package bench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTicks is the unit of the CPU times in /proc/<pid>/stat: USER_HZ,
// 100 on Linux whatever the kernel's own tick rate.
const clockTicks = 100

// CPUMeter reads the CPU time used so far by the processes whose share of
// a measurement the report splits out: this process (the service and the
// load generator), the PostgreSQL server (the postmaster and its children)
// and the Redis server. A pid of 0 is not measured.
type CPUMeter struct {
	Postmaster, Redis int
}

// CPUTimes is the CPU time, user and system, used so far by each part.
type CPUTimes struct {
	Process, Postgres, Redis time.Duration
}

// Sub returns the CPU time used between since and t.
func (t CPUTimes) Sub(since CPUTimes) CPUTimes {
	return CPUTimes{t.Process - since.Process, t.Postgres - since.Postgres, t.Redis - since.Redis}
}

// Read returns the CPU times now. The PostgreSQL share counts the processes
// alive now, so a backend that exited since an earlier Read takes its CPU
// time with it; the service's pool keeps its connections, so that is rare.
func (m CPUMeter) Read() CPUTimes {
	t := CPUTimes{Process: processCPU(os.Getpid())}
	if m.Redis != 0 {
		t.Redis = processCPU(m.Redis)
	}
	if m.Postmaster != 0 {
		t.Postgres = processCPU(m.Postmaster)
		for _, pid := range childrenOf(m.Postmaster) {
			t.Postgres += processCPU(pid)
		}
	}
	return t
}

// processCPU returns the user and system CPU time of a process, 0 when it
// cannot be read.
func processCPU(pid int) time.Duration {
	fields := statFields(pid)
	if len(fields) < 15 {
		return 0
	}
	// Fields 14 and 15 of stat(5), utime and stime; the slice starts at field 3.
	user, _ := strconv.ParseInt(fields[11], 10, 64)
	system, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(user+system) * time.Second / clockTicks
}

// statFields returns /proc/<pid>/stat from its third field (the state) on:
// the second, the command name, may hold spaces.
func statFields(pid int) []string {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return nil
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(b[i+1:]))
}

// childrenOf returns the pids of the processes whose parent is pid.
func childrenOf(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var children []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if fields := statFields(child); len(fields) > 1 && fields[1] == strconv.Itoa(pid) {
			children = append(children, child)
		}
	}
	return children
}

// PostmasterPID returns the pid that a PostgreSQL data directory's
// postmaster.pid names, or 0.
func PostmasterPID(dataDir string) int {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return 0
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, _ := strconv.Atoi(strings.TrimSpace(first))
	return pid
}
