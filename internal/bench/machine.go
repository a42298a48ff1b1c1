package bench

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
)

// Machine describes the box a run measured on.
type Machine struct {
	CPUModel   string
	Cores      int    // logical CPUs the process may use
	RAM        uint64 // bytes of physical memory
	Kernel     string
	GoVersion  string
	PostgreSQL string // server version, filled in once it runs
	Redis      string // server version, filled in once it runs
}

// ReadMachine reads the machine's facts from /proc; what it cannot read
// stays empty.
func ReadMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), GoVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		m.CPUModel = procField(string(b), "model name", ':')
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		m.RAM = procKiB(string(b), "MemTotal")
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	return m
}

// Revision returns the git commit of the working directory's source, with
// the files changed since when there are any, such as "0e653b8" or
// "0e653b8 with uncommitted changes to db/ranks.go", or "".
func Revision() string {
	head, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output()
	if err != nil {
		return ""
	}
	rev := strings.TrimSpace(string(head))
	status, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output()
	if err != nil {
		return rev
	}
	var changed []string
	for line := range strings.Lines(string(status)) {
		if len(line) > 3 {
			changed = append(changed, strings.TrimSpace(line[3:]))
		}
	}
	if len(changed) > 0 {
		rev += " with uncommitted changes to " + strings.Join(changed, ", ")
	}
	return rev
}

// LoadAverage returns the 1, 5 and 15 minute load averages as the kernel
// writes them, such as "2.19 3.42 3.33", or "unknown".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	fields := strings.Fields(string(b))
	if len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}

// ResidentMemory returns this process's resident set size now (VmRSS) and
// at its peak (VmHWM), in bytes, from /proc/self/status.
func ResidentMemory() (rss, peak uint64, err error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, 0, fmt.Errorf("read resident memory: %w", err)
	}
	return procKiB(string(b), "VmRSS"), procKiB(string(b), "VmHWM"), nil
}

// procField returns the value of the first "key<sep> value" line of a /proc
// file, trimmed, or "".
func procField(text, key string, sep byte) string {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), string(sep))
		if ok && strings.TrimSpace(name) == key {
			return strings.TrimSpace(value)
		}
	}
	return ""
}

// procKiB returns a "Key:   1234 kB" field of a /proc file in bytes, or 0.
func procKiB(text, key string) uint64 {
	fields := strings.Fields(procField(text, key, ':'))
	if len(fields) == 0 {
		return 0
	}
	n, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return 0
	}
	return n * 1024
}
