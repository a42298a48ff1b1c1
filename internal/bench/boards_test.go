package bench

import (
	"bytes"
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEach_CallsEveryItemOnce(t *testing.T) {
	const n, clients = 100, 7
	var (
		mu    sync.Mutex
		calls = make([]int, n)
		seen  = map[int]bool{}
	)
	stats := Each(t.Context(), n, clients, func(_ context.Context, client, item int) error {
		mu.Lock()
		calls[item]++
		seen[client] = true
		mu.Unlock()
		time.Sleep(100 * time.Microsecond)
		if item%10 == 0 {
			return errors.New("every tenth fails")
		}
		return nil
	})
	for item, c := range calls {
		if c != 1 {
			t.Errorf("item %d called %d times, want once", item, c)
		}
	}
	if len(seen) != clients {
		t.Errorf("%d clients called, want %d", len(seen), clients)
	}
	if stats.Clients != clients || stats.Ops != 90 || stats.Errors != 10 || stats.FirstError != "every tenth fails" {
		t.Errorf("stats %+v: want %d clients, 90 ops, 10 errors", stats, clients)
	}
	if stats.P50 < 100*time.Microsecond || stats.P99 < stats.P50 || stats.Max < stats.P99 || stats.Elapsed < stats.Max {
		t.Errorf("p50 %v, p99 %v, max %v, elapsed %v: want 0.1ms <= p50 <= p99 <= max <= elapsed", stats.P50, stats.P99, stats.Max, stats.Elapsed)
	}
	if got, want := stats.Throughput(), 90/stats.Elapsed.Seconds(); got != want {
		t.Errorf("throughput %v, want %v", got, want)
	}
}

func TestEach_StopsWhenContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	stats := Each(ctx, 1_000_000, 2, func(context.Context, int, int) error {
		cancel()
		return nil
	})
	if stats.Ops > 2 {
		t.Errorf("%d ops after the context ended, want at most one per client", stats.Ops)
	}
}

func TestBoardID_ValidOrderedAndUnique(t *testing.T) {
	valid := regexp.MustCompile(`^[a-z0-9_.-]{1,64}$`)
	started := time.Date(2026, 11, 25, 8, 39, 0, 0, time.UTC)
	var ids []string
	for _, kind := range []string{"c1", "c2", "cat"} {
		for _, i := range []int{0, 9, 10, 999_999} {
			id := boardID(boardPrefix(started, kind), i)
			if !valid.MatchString(id) {
				t.Errorf("board id %q is not a valid id", id)
			}
			ids = append(ids, id)
		}
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids %v do not sort in creation order", ids)
	}
	if len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("ids %v repeat", ids)
	}
	if strings.ContainsAny(boardPrefix(started, "cat"), "%_") {
		t.Errorf("prefix %q holds a LIKE wildcard", boardPrefix(started, "cat"))
	}
}

// boardsReport is a boards-only report with runs that meet every target.
func boardsReport() *Report {
	ms := time.Millisecond
	run := func(p99 time.Duration) CreateBoardRun {
		return CreateBoardRun{Boards: 1000, Created: 1000, Rows: 1000, Existing: 1000,
			Stats: RunStats{Clients: 16, Ops: 1000, Elapsed: 2 * time.Second, P50: 5 * ms, P99: p99, Max: p99 + ms},
			Again: RunStats{Clients: 16, Ops: 1000, Elapsed: time.Second, P50: 3 * ms, P99: 9 * ms, Max: 10 * ms}}
	}
	return &Report{
		Started: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC), Finished: time.Date(2026, 11, 25, 9, 2, 0, 0, time.UTC),
		Command: "go run ./cmd/leaderboard-bench --suites boards", Repeat: 3, NoMonths: true,
		Machine: Machine{CPUModel: "Test CPU", Cores: 2, RAM: 24 << 30, GoVersion: "go1.26", PostgreSQL: "15.9"},
		Boards: &BoardsResult{
			Creates: []CreateBoardRun{run(20 * ms), run(30 * ms), run(40 * ms)},
			Catalogue: Catalogue{Boards: 10_000, PeriodsPerBoard: 30, Measured: true,
				Create:          RunStats{Clients: 16, Ops: 10_000, Elapsed: 20 * time.Second, P50: 5 * ms, P99: 25 * ms, Max: 60 * ms},
				Periods:         4 * time.Second,
				RelationsBefore: 120, RelationsAfter: 120, BoardRows: 13_001, PeriodRows: 300_000, BoardBytes: 4 << 20, PeriodBytes: 60 << 20},
		},
	}
}

// targetStartingWith returns the report's verdict whose target starts with
// prefix; the zero Verdict when there is none.
func targetStartingWith(r *Report, prefix string) Verdict {
	for _, v := range r.Targets() {
		if strings.HasPrefix(v.Target, prefix) {
			return v
		}
	}
	return Verdict{}
}

func TestBoardTargets(t *testing.T) {
	const create, repeat, catalogue = "createBoard, 1,000 boards by 16 callers on two instances",
		"createBoard repeated identically", "Catalogue: relations in pg_class after 10,000 boards × 30"
	r := boardsReport()
	if n := len(r.Targets()); n != 3 {
		t.Fatalf("%d targets: want the three boards targets alone in a boards-only run", n)
	}
	for _, prefix := range []string{create, repeat, catalogue} {
		if v := targetStartingWith(r, prefix); v.Verdict != "met" {
			t.Errorf("%s: %+v, want met", prefix, v)
		}
	}
	if m := targetStartingWith(r, create).Measured; !strings.Contains(m, "p99 30.0 ms") {
		t.Errorf("createBoard measured %q, want the median p99 30.0 ms", m)
	}
	if m := targetStartingWith(r, catalogue).Measured; m != "+0 (120 before, 120 after)" {
		t.Errorf("catalogue measured %q", m)
	}

	for name, spoil := range map[string]struct {
		prefix string
		change func(*BoardsResult)
	}{
		"p99 over": {create, func(b *BoardsResult) {
			b.Creates[1].Stats.P99, b.Creates[2].Stats.P99 = 51*time.Millisecond, 60*time.Millisecond
		}},
		"created twice":         {create, func(b *BoardsResult) { b.Creates[2].Created = 1001 }},
		"a row missing":         {create, func(b *BoardsResult) { b.Creates[0].Rows = 999 }},
		"repeat created":        {repeat, func(b *BoardsResult) { b.Creates[1].Existing = 999 }},
		"catalogue over +100":   {catalogue, func(b *BoardsResult) { b.Catalogue.RelationsAfter = 221 }},
		"catalogue not counted": {catalogue, func(b *BoardsResult) { b.Catalogue.Measured = false }},
	} {
		r := boardsReport()
		spoil.change(r.Boards)
		if v := targetStartingWith(r, spoil.prefix); v.Verdict == "met" || v.Target == "" {
			t.Errorf("%s: %+v, want a verdict other than met", name, v)
		}
	}
}

func TestBoardTargets_OnlyWhenTheSuiteRan(t *testing.T) {
	for _, v := range sampleReport().Targets() {
		if strings.Contains(v.Target, "createBoard") || strings.Contains(v.Target, "Catalogue") {
			t.Errorf("target %q in a run without the boards suite", v.Target)
		}
	}
}

func TestWriteMarkdown_BoardsOnly(t *testing.T) {
	var b bytes.Buffer
	if err := boardsReport().WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	for _, want := range []string{
		"## Boards: createBoard and the catalogue",
		"| 2 | 1000 | 1000 | 1000 | 500 | 5.00 | 30.0 | 31.0 | 1000 | 3.00 | 9.00 | 0 |",
		"Median of the runs (range): 500 (500–500) boards/s, p50 5.00 (5.00–5.00) ms, p99 30.0 (20.0–40.0) ms",
		"| 120 | 120 | +0 | 13,001 | 300,000 | 4 MiB | 60 MiB |",
		"Months: none seeded",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("report lacks %q:\n%s", want, doc)
		}
	}
	for _, unwanted := range []string{"## Reads", "## closeMonth", "## Memory", "Closed month ±10", "| Redis |"} {
		if strings.Contains(doc, unwanted) {
			t.Errorf("a boards-only report has %q", unwanted)
		}
	}
	var table bytes.Buffer
	if err := boardsReport().WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(table.String(), "closeMonth") || !strings.Contains(table.String(), "createBoard run 3") {
		t.Errorf("table:\n%s", table.String())
	}
}

// boardScoresResult is a storm, writes and small reads that meet every
// target at its stated size.
func boardScoresResult() *BoardScores {
	ms := time.Millisecond
	storm := func(seen time.Duration, p99 time.Duration) StormRun {
		return StormRun{Boards: 10_000, Players: 100, Closed: 10_000, Messages: 10_000, FinalRanks: 1_000_000, AllSeen: seen,
			AllDelivered: seen + 5*time.Second, During: RunStats{Clients: 8, Ops: 1000, Elapsed: seen, P50: 2 * ms, P99: p99, Max: p99 + ms}}
	}
	reads := func(kase string, rate int) *Measurement {
		m := &Measurement{System: SystemHTTP, Case: kase, Clients: 64, PerOp: 1, Unit: "req/s"}
		for range 3 {
			m.Runs = append(m.Runs, RunStats{Clients: 64, Ops: rate, Elapsed: time.Second, P50: ms, P99: 5 * ms})
		}
		return m
	}
	writes := &Measurement{System: SystemHTTP, Case: CaseBoardWrites, Clients: 8, PerOp: 100, Unit: "events/s"}
	for range 3 {
		writes.Runs = append(writes.Runs, RunStats{Clients: 8, Ops: 210, Elapsed: time.Second, P50: 30 * ms, P99: 60 * ms})
	}
	return &BoardScores{BigBoardPlayers: 10_000_000, Lead: 15 * time.Second, SchedulerInterval: time.Second, PeriodCloses: 4,
		Storms:      []StormRun{storm(20*time.Second, 40*ms), storm(25*time.Second, 45*ms), storm(40*time.Second, 60*ms)},
		WriteBoards: 10_000, Writes: writes, Acknowledged: 63_000, Stored: 63_000,
		SmallPlayers: 100, Open: reads(CaseSmallOpen, 3000), Closed: reads(CaseSmallClosed, 16_000)}
}

func TestBoardTargets_Scores(t *testing.T) {
	const storm, reads, writes, open, closed = "Midnight storm: 10,000 DAY boards of 100 players", "Midnight storm: ±10 reads",
		"Writes spread over boards", "Small board: ±10 on a 100-player board, 64 clients, open", "Small board: ±10 on a 100-player board, 64 clients, closed"
	const delivery = "Midnight storm: every period.closed delivered"
	r := boardsReport()
	r.Boards.Scores = boardScoresResult()
	if n := len(r.Targets()); n != 9 {
		t.Fatalf("%d targets, want the boards' nine", n)
	}
	for _, prefix := range []string{storm, reads, writes, open, closed, delivery} {
		if v := targetStartingWith(r, prefix); v.Verdict != "met" {
			t.Errorf("%s: %+v, want met", prefix, v)
		}
	}
	if m := targetStartingWith(r, storm).Measured; !strings.HasPrefix(m, "all CLOSED 25.0 s (20.0–40.0) after closesAt") {
		t.Errorf("storm measured %q, want the median of the runs", m)
	}

	for name, spoil := range map[string]struct {
		prefix string
		change func(*BoardScores)
	}{
		"storm over 30 s":     {storm, func(s *BoardScores) { s.Storms[0].AllSeen = 31 * time.Second; s.Storms[1].AllSeen = 45 * time.Second }},
		"a period not closed": {storm, func(s *BoardScores) { s.Storms[2].Closed = 9_999 }},
		"a message missing":   {storm, func(s *BoardScores) { s.Storms[1].Messages = 9_999 }},
		"storm timed out":     {storm, func(s *BoardScores) { s.Storms[0].TimedOut = true }},
		"storm not run":       {storm, func(s *BoardScores) { s.Storms = nil }},
		"delivery over 60 s": {delivery, func(s *BoardScores) {
			s.Storms[0].AllDelivered, s.Storms[1].AllDelivered = 61*time.Second, 90*time.Second
		}},
		"delivery timed out": {delivery, func(s *BoardScores) { s.Storms[2].DeliveryTimedOut = true }},
		"reads slow": {reads, func(s *BoardScores) {
			s.Storms[0].During.P99, s.Storms[1].During.P99 = 51*time.Millisecond, 70*time.Millisecond
		}},
		"writes slow":          {writes, func(s *BoardScores) { s.Writes.Runs[0].Ops, s.Writes.Runs[1].Ops = 150, 190 }},
		"an event lost":        {writes, func(s *BoardScores) { s.Stored-- }},
		"open reads slow":      {open, func(s *BoardScores) { s.Open.Runs[0].Ops, s.Open.Runs[1].Ops = 2000, 2600 }},
		"closed reads slow":    {closed, func(s *BoardScores) { s.Closed.Runs[0].Ops, s.Closed.Runs[1].Ops = 2000, 2600 }},
		"closed reads not run": {closed, func(s *BoardScores) { s.Closed = nil }},
	} {
		r := boardsReport()
		r.Boards.Scores = boardScoresResult()
		spoil.change(r.Boards.Scores)
		if v := targetStartingWith(r, spoil.prefix); v.Verdict == "met" || v.Target == "" {
			t.Errorf("%s: %+v, want a verdict other than met", name, v)
		}
	}

	r = boardsReport()
	r.Boards.Scores = boardScoresResult()
	r.Boards.Scores.BigBoardPlayers = 1_000_000
	if m := targetStartingWith(r, storm).Measured; !strings.Contains(m, "beside 1,000,000 players; 10M not measured") {
		t.Errorf("storm at 1M measured %q, want it to say 10M was not measured", m)
	}
	var doc bytes.Buffer
	if err := r.WriteMarkdown(&doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Boards: the midnight storm", "all CLOSED 25.0 s (20.0–40.0) after closesAt", "63,000 acknowledged, 63,000 stored",
		"all delivered 30.0 s (25.0–45.0) after closesAt",
		"| ±10, 100-player board, closed period | 64 | 16,000 (16,000–16,000) |"} {
		if !strings.Contains(doc.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, doc.String())
		}
	}
}
