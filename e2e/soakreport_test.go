package e2e_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// report logs the soak's table and verdicts, fails the test on a failed
// check and, when LEADERBOARD_SOAK_REPORT names a directory (`make soak`:
// docs/), writes soak.md and soak.svg there.
func (r *soakRun) report() {
	t := r.t
	for _, m := range r.minutes {
		t.Log(r.minuteRow(m))
	}
	r.load.mu.Lock()
	t.Logf("reads: %d, failed %v; events rejected by code %v", r.load.reads, r.load.readErrors, r.load.rejected)
	for _, u := range r.load.unexpected {
		t.Errorf("unexpected answer: %s", u)
	}
	r.load.mu.Unlock()
	for _, p := range r.problems {
		t.Errorf("%s", p)
	}
	for _, v := range r.verdicts {
		if v.OK {
			t.Logf("ok: %s: %s", v.Name, v.Detail)
		} else {
			t.Errorf("%s: %s", v.Name, v.Detail)
		}
	}
	for _, inst := range r.instances {
		t.Logf("instance %s logged %v", inst.name, inst.logWarnings())
	}
	dir := os.Getenv("LEADERBOARD_SOAK_REPORT")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, "soak.svg"), []byte(r.plot()), 0o644); err != nil {
		t.Error(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "soak.md"), []byte(r.markdown()), 0o644); err != nil {
		t.Error(err)
	}
}

// markdown is the report as docs/soak.md.
func (r *soakRun) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Soak: %s\n\n", r.duration)
	fmt.Fprintf(&b, "Written by `make soak` (e2e/soak_test.go, TestSoak_TwoInstancesStayFlatThroughSeasonClosesAndRestarts) on %s, %d CPUs. ",
		r.start.UTC().Format("2006-01-02 15:04 UTC"), runtime.NumCPU())
	fmt.Fprintf(&b, "Two processes of the program on one PostgreSQL; %d writers (%d events a call, a call every %s each: %d events/s, "+
		"the season board and main in turn), %d readers (a read every %s each); a SEASON board of one-minute seasons "+
		"(closeGrace %d s, retainPeriods %d), settlement to a test receiver. PostgreSQL restarted at 40 %%, instance b at 60 %%.\n\n",
		soakWriters, soakBatch, soakCallEvery, soakWriters*soakBatch*int(time.Second/soakCallEvery), soakReaders, soakReadEvery,
		soakCloseGrace, soakRetain)
	b.WriteString("![heap, RSS, goroutines and database sessions of each instance, minute by minute](soak.svg)\n\n")
	b.WriteString("## Checks\n\n| check | result | figures |\n|---|---|---|\n")
	for _, v := range r.verdicts {
		result := "ok"
		if !v.OK {
			result = "**failed**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", v.Name, result, v.Detail)
	}
	for _, p := range r.problems {
		fmt.Fprintf(&b, "\nProblem: %s\n", p)
	}
	fmt.Fprintf(&b, "\n## Minute by minute\n\nEach instance's figures come from the minute's samples (one every %s): "+
		"the medians of RSS (MiB), heap in use (MiB), the heap goal (MiB: go_memstats_next_gc_bytes, set by each collection from the heap it found live), "+
		"goroutines and database sessions (the pool's / pg_stat_activity's); the floor (fewest of any sample) of the goroutines. "+
		"Flatness compares the medians of these minutes' heap goals and goroutine floors over the first and the last third of each process's minutes, "+
		"minute 1 (warm-up) left out. "+
		"Rows and relations at the minute's end.\n\n", soakSampleEvery)
	b.WriteString("| min |")
	for _, inst := range r.instances {
		fmt.Fprintf(&b, " %s RSS | %s heap (goal) | %s gor. (floor) | %s conns |", inst.name, inst.name, inst.name, inst.name)
	}
	b.WriteString(" db sessions | relations | events acked | seasons closed |")
	for _, name := range soakRowTables {
		fmt.Fprintf(&b, " %s |", name)
	}
	b.WriteString(" events |\n|" + strings.Repeat("---|", 1+4*len(r.instances)+4+len(soakRowTables)+1) + "\n")
	for _, m := range r.minutes {
		fmt.Fprintf(&b, "| %d |", m.Minute)
		for _, p := range m.Procs {
			if p == nil {
				b.WriteString(" down | | | |")
				continue
			}
			fmt.Fprintf(&b, " %.1f | %.1f (%.1f) | %.0f (%.0f) | %.0f / %.0f |", p.RSS/(1<<20), p.HeapInuse/(1<<20), p.HeapGoal/(1<<20),
				p.Goroutines, p.GoroutinesFloor, p.PoolConns, p.Sessions)
		}
		fmt.Fprintf(&b, " %d | %d | %d | %d |", m.Backends, m.Relations, m.Acked, m.Closed)
		for _, name := range soakRowTables {
			fmt.Fprintf(&b, " %d |", m.Rows[name])
		}
		fmt.Fprintf(&b, " %s |\n", strings.Join(r.faults[m.Minute], "; "))
	}
	b.WriteString("\n## Tables at the start and the end\n\n| table | rows at start | rows at end | relations at start | relations at end |\n|---|---|---|---|---|\n")
	for _, name := range tableNames(r.first, r.last) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d |\n", name, r.first[name].Rows, r.last[name].Rows, r.first[name].Relations, r.last[name].Relations)
	}
	r.load.mu.Lock()
	fmt.Fprintf(&b, "\nReads: %d, failed: %v (during the restarts). Events rejected, by code: %v (events of a season that reached it after its close).\n",
		r.load.reads, r.load.readErrors, r.load.rejected)
	r.load.mu.Unlock()
	for _, inst := range r.instances {
		fmt.Fprintf(&b, "\nInstance %s's log, warnings and errors by message: %v\n", inst.name, inst.logWarnings())
	}
	return b.String()
}

// soakPanels are the plot's panels: a title and the figure each shows.
var soakPanels = []struct {
	title string
	value func(*soakProc) float64
}{
	{"heap goal: the collector's target, from the live heap (MiB)", func(p *soakProc) float64 { return p.HeapGoal / (1 << 20) }},
	{"RSS (MiB)", func(p *soakProc) float64 { return p.RSS / (1 << 20) }},
	{"goroutines: fewest of the minute", func(p *soakProc) float64 { return p.GoroutinesFloor }},
	{"database sessions (pg_stat_activity)", func(p *soakProc) float64 { return p.Sessions }},
}

// plot draws every panel as SVG: a line per instance over the minutes, the
// restarts marked.
func (r *soakRun) plot() string {
	const width, height, left, top, gap = 720, 150, 60, 30, 40
	colors := []string{"#1f77b4", "#ff7f0e"}
	var b strings.Builder
	total := top + len(soakPanels)*(height+gap)
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n",
		left+width+120, total)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/><text x="%d" y="18" font-size="14">Soak, %s, minute by minute</text>`+"\n",
		left, r.duration)
	n := len(r.minutes)
	x := func(minute int) float64 { return left + float64(width)*float64(minute-1)/float64(max(1, n-1)) }
	for k, panel := range soakPanels {
		y0 := top + k*(height+gap) + 20
		peak := 0.0
		for _, m := range r.minutes {
			for _, p := range m.Procs {
				if p != nil {
					peak = max(peak, panel.value(p))
				}
			}
		}
		peak = max(1, peak*1.15)
		y := func(v float64) float64 { return float64(y0+height) - float64(height)*v/peak }
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`+"\n", left, y0-6, panel.title)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>`+"\n", left, y0, width, height)
		for _, v := range []float64{0, peak / 2, peak} {
			fmt.Fprintf(&b, `<text x="%d" y="%.0f" text-anchor="end">%.0f</text>`+"\n", left-4, y(v)+4, v)
		}
		for minute := range r.faults {
			fmt.Fprintf(&b, `<line x1="%.0f" x2="%.0f" y1="%d" y2="%d" stroke="#c00" stroke-dasharray="4 3"/>`+"\n",
				x(minute), x(minute), y0, y0+height)
		}
		for i, inst := range r.instances {
			var points []string
			for _, m := range r.minutes {
				if p := m.Procs[i]; p != nil {
					points = append(points, fmt.Sprintf("%.1f,%.1f", x(m.Minute), y(panel.value(p))))
				}
			}
			fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", colors[i%len(colors)], strings.Join(points, " "))
			fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">instance %s</text>`+"\n", left+width+10, y0+20+16*i, colors[i%len(colors)], inst.name)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#c00">restarts</text>`+"\n", left+width+10, y0+20+16*len(r.instances))
		for _, minute := range []int{1, (n + 1) / 2, n} {
			fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="middle">min %d</text>`+"\n", x(minute), y0+height+14, minute)
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}
