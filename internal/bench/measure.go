package bench

import (
	"math"
	"time"
)

// Workload makes the Op of one client in one run of a measurement. Runs
// are numbered across the whole benchmark, so that a workload can draw
// different players, and event ids, in every run.
type Workload func(run, client int) Op

// The systems a measurement runs against.
const (
	SystemHTTP  = "service over HTTP"
	SystemDB    = "service, DB only"
	SystemRedis = "Redis"
)

// The cases the benchmark measures.
const (
	CaseClosed       = "closed month, players across the table"
	CaseOpen         = "open month, players across the table"
	CaseOpenTop      = "open month, top (ranks 1-100)"
	CaseOpenMiddle   = "open month, middle (100 around the median)"
	CaseOpenBottom   = "open month, bottom (last 100)"
	CaseOpenTieGroup = "open month, tie group on score 100"
	CaseSubmit       = "submitScores, batches of 100"
)

// Measurement is one operation against one system at one number of
// clients, run several times.
type Measurement struct {
	System  string
	Case    string
	Clients int
	// PerOp is how many units one operation stands for: 1 request, or
	// the events of one batch.
	PerOp int
	Unit  string // of the rate: "req/s", "events/s"
	Runs  []RunStats
}

// Rate returns the units per second over the runs.
func (m Measurement) Rate() Spread {
	return m.spread(func(s RunStats) float64 { return s.Throughput() * float64(m.PerOp) })
}

// P50 returns the median latency over the runs, in milliseconds.
func (m Measurement) P50() Spread {
	return m.latency(func(s RunStats) time.Duration { return s.P50 })
}

// P99 returns the 99th percentile latency over the runs, in milliseconds.
func (m Measurement) P99() Spread {
	return m.latency(func(s RunStats) time.Duration { return s.P99 })
}

// latency returns a latency over the runs in which some operation
// completed inside the measured window; NaN when there were none, as with
// operations slower than the window.
func (m Measurement) latency(figure func(RunStats) time.Duration) Spread {
	var values []float64
	for _, s := range m.Runs {
		if s.Ops > 0 {
			values = append(values, milliseconds(figure(s)))
		}
	}
	if len(values) == 0 {
		return Spread{Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	return SpreadOf(values)
}

// Errors returns the failed operations of all runs.
func (m Measurement) Errors() int {
	n := 0
	for _, s := range m.Runs {
		n += s.Errors
	}
	return n
}

// FirstError returns the first failure's message, or "".
func (m Measurement) FirstError() string {
	for _, s := range m.Runs {
		if s.FirstError != "" {
			return s.FirstError
		}
	}
	return ""
}

// CPUPerUnit returns the CPU time each part of the system used per unit
// (request or event) over the runs, in milliseconds.
func (m Measurement) CPUPerUnit() (process, postgres, redis Spread) {
	per := func(part func(CPUTimes) time.Duration) Spread {
		return m.spread(func(s RunStats) float64 {
			if s.AllOps == 0 {
				return 0
			}
			return milliseconds(part(s.CPU)) / float64(s.AllOps*m.PerOp)
		})
	}
	return per(func(t CPUTimes) time.Duration { return t.Process }),
		per(func(t CPUTimes) time.Duration { return t.Postgres }),
		per(func(t CPUTimes) time.Duration { return t.Redis })
}

func (m Measurement) spread(figure func(RunStats) float64) Spread {
	values := make([]float64, len(m.Runs))
	for i, s := range m.Runs {
		values[i] = figure(s)
	}
	return SpreadOf(values)
}

func milliseconds(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
