package bench

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is everything one benchmark run measured.
type Report struct {
	Started, Finished     time.Time
	Command               string
	Revision              string // the source measured
	Players               int
	Warmup, Duration      time.Duration
	Repeat                int
	Machine               Machine
	LoadBefore, LoadAfter string // load averages at the start and the end
	Database              string // which PostgreSQL
	Settings              []Setting
	ClosedMonth           string
	OpenMonth             string
	// ClosedFrom says where the service served the closed month's reads.
	ClosedFrom   string
	Setup        []Step
	Measurements []Measurement
	Close        CloseResult
	// AfterClose are the runs of reads right after a close.
	AfterClose []AfterCloseRun
	// Events submitted and acknowledged, and rows stored for them.
	Applied, Unchanged, Stored int64
	// The benchmark process's resident memory after the reads, and at its peak.
	RSS, PeakRSS uint64
	// PostgresCPU is true when the PostgreSQL server's CPU time was measured
	// (it runs on this machine, started by the benchmark).
	PostgresCPU bool
	// The Redis server's used_memory and used_memory_rss once loaded.
	RedisUsed, RedisRSS uint64
	// NoMonths is true when the run seeded and measured no month: only
	// suites that need none (big-boards, boards, rewards) ran.
	NoMonths bool
	// BigBoards is what the big-boards suite measured, a kind of board
	// each; nil when it did not run.
	BigBoards []*BigBoard
	// Boards is what the boards suite measured; nil when it did not run.
	Boards *BoardsResult
	// Rewards is what the rewards suite measured; nil when it did not run.
	Rewards *RewardsResult
	// Groups and Leagues are what the opt-in groups and leagues suites
	// measured; nil when they did not run.
	Groups  *GroupsResult
	Leagues *LeaguesResult
	// Erasure is what the opt-in erasure suite measured; nil when it did
	// not run.
	Erasure *ErasureResult
	// Failures says what went wrong: failed operations, lost events.
	Failures []string
}

// Step is one timed step of the setup.
type Step struct {
	Name string
	Took time.Duration
}

// Find returns the measurement of system and case at clients, or nil.
func (r *Report) Find(system, kase string, clients int) *Measurement {
	for i, m := range r.Measurements {
		if m.System == system && m.Case == kase && m.Clients == clients {
			return &r.Measurements[i]
		}
	}
	return nil
}

// clientLevels returns the numbers of clients system was measured at for
// kase, in the order measured.
func (r *Report) clientLevels(system, kase string) []int {
	var levels []int
	for _, m := range r.Measurements {
		if m.System == system && m.Case == kase {
			levels = append(levels, m.Clients)
		}
	}
	return levels
}

// WriteMarkdown writes the report as docs/PERFORMANCE.md has it.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	p("# Performance")
	p("")
	p("Written by `make bench` (cmd/leaderboard-bench) on %s; run it again for a new report.", r.Started.UTC().Format("2006-01-02 15:04 MST"))
	if r.Repeat > 1 {
		p("Every figure is the median of %d runs, with the lowest and highest run in brackets.", r.Repeat)
	} else {
		p("Every figure is from a single run (`--repeat 1`); the brackets repeat it.")
	}
	p("")
	p("## Run")
	p("")
	p("- Command: `%s`", r.Command)
	p("- Source: %s", orUnknown(r.Revision))
	if r.NoMonths {
		p("- Months: none seeded (only suites that need none ran); %d run(s) per figure; %s in all.", r.Repeat, r.Finished.Sub(r.Started).Round(time.Second))
	} else {
		p("- Players: %s in each of two months, seeded with the demo data's tie-heavy distribution: %s (closed) and %s (open, live ranks).",
			thousands(float64(r.Players)), r.ClosedMonth, r.OpenMonth)
		p("- Each run: %s warm-up, then %s measured; %d run(s) per figure; %s in all.", r.Warmup, r.Duration, r.Repeat, r.Finished.Sub(r.Started).Round(time.Second))
	}
	p("- Load average (1, 5, 15 min): %s at the start, %s at the end. The machine is shared with other test runs, so the figures are noisy.", r.LoadBefore, r.LoadAfter)
	p("")
	r.writeMachine(p)
	r.writeTargets(p)
	if !r.NoMonths {
		r.writeReads(p)
		r.writeRedis(p)
		r.writeSubmit(p)
		r.writeCPU(p)
		r.writeClose(p)
		r.writeAfterClose(p)
	}
	r.writeBigBoards(p)
	r.writeBoards(p)
	r.writeRewards(p)
	r.writeGroups(p)
	r.writeLeagues(p)
	r.writeErasure(p)
	if !r.NoMonths {
		r.writeMemory(p)
	}
	r.writeSetup(p)
	if !r.NoMonths {
		r.writeMethod(p)
	}
	if len(r.Failures) > 0 {
		p("## Failures")
		p("")
		for _, f := range r.Failures {
			p("- %s", f)
		}
		p("")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type printer func(format string, args ...any)

func (r *Report) writeMachine(p printer) {
	p("## Machine")
	p("")
	p("| | |")
	p("| --- | --- |")
	p("| CPU | %s |", orUnknown(r.Machine.CPUModel))
	p("| Cores | %d |", r.Machine.Cores)
	p("| Memory | %s |", bytesText(r.Machine.RAM))
	p("| Kernel | %s |", orUnknown(r.Machine.Kernel))
	p("| Go | %s |", r.Machine.GoVersion)
	p("| PostgreSQL | %s, %s |", orUnknown(r.Machine.PostgreSQL), r.Database)
	if !r.NoMonths { // Redis is measured against the months
		p("| Redis | %s (Debian's redis-server, on 127.0.0.1, no persistence) |", orUnknown(r.Machine.Redis))
	}
	p("")
	if len(r.Settings) > 0 {
		p("PostgreSQL settings, as the server reports them:")
		p("")
		p("| Setting | Value |")
		p("| --- | --- |")
		for _, s := range r.Settings {
			p("| %s | %s |", s.Name, s.Value)
		}
		p("")
	}
}

func (r *Report) writeTargets(p printer) {
	p("## Performance targets")
	p("")
	if r.Players != 10_000_000 && !r.NoMonths {
		p("The targets are set for 10M players; this run has %s (run with `--players 10000000` for the real test).", thousands(float64(r.Players)))
		p("")
	}
	p("| Target | Measured | Verdict |")
	p("| --- | --- | --- |")
	for _, v := range r.Targets() {
		p("| %s | %s | %s |", v.Target, v.Measured, v.Verdict)
	}
	p("")
}

func (r *Report) writeReads(p printer) {
	p("## Reads: a standing with its ±10 neighbours")
	p("")
	p("`standing(month, playerId) { rank score total final player { name } neighbours(above: 10, below: 10) { rank score player { name } } }`")
	p("over HTTP, each answer checked (no errors, 21 consecutive ranks or fewer at the table's ends, scores in order, every name present).")
	p("\"DB only\" calls the service's `db.Standing` in the same process, without HTTP or GraphQL: the database's share.")
	if r.ClosedFrom != "" {
		p("Over HTTP the closed month was served from %s.", r.ClosedFrom)
	}
	p("")
	p("| Case | System | Clients | Requests/s | p50 ms | p99 ms | Errors |")
	p("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
	for _, m := range r.Measurements {
		if m.Case == CaseSubmit {
			continue
		}
		p("| %s | %s | %d | %s | %s | %s | %d |", m.Case, m.System, m.Clients, rateText(m.Rate()), msText(m.P50()), msText(m.P99()), m.Errors())
	}
	p("")
}

func (r *Report) writeRedis(p printer) {
	p("## This service against the Redis design")
	p("")
	p("The closed month's final ranks, loaded into a Redis sorted set (and the names into a hash), read per request with")
	p("ZREVRANK + ZCARD (one pipeline), ZREVRANGE rank-10..rank+10 WITHSCORES, and HMGET of the 21 names: three round trips.")
	p("The Redis client is a Go client calling Redis directly, with no HTTP or GraphQL in between; the service is measured over HTTP.")
	p("Service / Redis is the ratio of requests per second: below 1, the service serves fewer.")
	p("")
	p("| Clients | Service req/s | Redis req/s | Service / Redis | Service p50 ms | Redis p50 ms | Service p99 ms | Redis p99 ms |")
	p("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, clients := range r.clientLevels(SystemRedis, CaseClosed) {
		service, redis := r.Find(SystemHTTP, CaseClosed, clients), r.Find(SystemRedis, CaseClosed, clients)
		if service == nil || redis == nil {
			continue
		}
		p("| %d | %s | %s | %s | %s | %s | %s | %s |", clients,
			thousands(service.Rate().Median), thousands(redis.Rate().Median), ratioText(service.Rate().Median, redis.Rate().Median),
			fixed(service.P50().Median), fixed(redis.P50().Median), fixed(service.P99().Median), fixed(redis.P99().Median))
	}
	p("")
	for _, clients := range r.clientLevels(SystemDB, CaseClosed) {
		dbOnly, redis := r.Find(SystemDB, CaseClosed, clients), r.Find(SystemRedis, CaseClosed, clients)
		if dbOnly == nil || redis == nil {
			continue
		}
		p("Without HTTP on either side, at %d clients: the service's database read alone (`db.Standing`, no names) %s req/s, p50 %s ms, p99 %s ms;",
			clients, thousands(dbOnly.Rate().Median), fixed(dbOnly.P50().Median), fixed(dbOnly.P99().Median))
		p("Redis %s req/s, p50 %s ms, p99 %s ms: DB only / Redis = %s in throughput.",
			thousands(redis.Rate().Median), fixed(redis.P50().Median), fixed(redis.P99().Median), ratioText(dbOnly.Rate().Median, redis.Rate().Median))
		p("")
	}
}

func (r *Report) writeSubmit(p printer) {
	p("## Writes: submitScores")
	p("")
	p("Batches of 100 events on the open month over HTTP with the game-server token: 40%% ADD 1..10, 30%% BEST 0..3000 and 20%% SET 0..3000 on random seeded players, 10%% first events of new players. Every result is checked to be APPLIED or UNCHANGED, in order.")
	p("")
	p("| Clients | Events/s | Batch p50 ms | Batch p99 ms | Errors |")
	p("| ---: | ---: | ---: | ---: | ---: |")
	for _, m := range r.Measurements {
		if m.Case == CaseSubmit {
			p("| %d | %s | %s | %s | %d |", m.Clients, rateText(m.Rate()), msText(m.P50()), msText(m.P99()), m.Errors())
		}
	}
	p("")
	lost := "nothing lost"
	if r.Stored != r.Applied+r.Unchanged {
		lost = "MISMATCH"
	}
	p("Acknowledged: %s events (%s APPLIED, %s UNCHANGED); rows in board_score_events for them afterwards: %s: %s.",
		thousands(float64(r.Applied+r.Unchanged)), thousands(float64(r.Applied)), thousands(float64(r.Unchanged)), thousands(float64(r.Stored)), lost)
	if s := r.setting("synchronous_commit"); s != "" {
		p("synchronous_commit is %s: an acknowledged event has been flushed to the WAL on disk.", s)
	}
	p("")
}

func (r *Report) writeCPU(p printer) {
	p("## Where the time goes")
	p("")
	p("CPU time per request (per event for submitScores), in milliseconds, over each whole run: this process (the service")
	p("and the load generator or Redis client driving it), PostgreSQL (the postmaster and all its backends) and Redis,")
	p("each where it serves the request (\"–\" where it does not).")
	p("With %d cores there are %s ms of CPU a second, so a request that costs C ms in all cannot be served more than %s/C times a second:",
		r.Machine.Cores, thousands(float64(r.Machine.Cores*1000)), thousands(float64(r.Machine.Cores*1000)))
	p("the ceiling column; other programs on the machine take their share too.")
	p("")
	p("| Case | System | Clients | This process | PostgreSQL | Redis | Ceiling /s |")
	p("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
	for _, m := range r.Measurements {
		process, postgres, redis := m.CPUPerUnit()
		pgText, redisText := "–", "–"
		total := process.Median
		if m.System == SystemRedis {
			redisText, total = cpuText(redis.Median), total+redis.Median
		} else if r.PostgresCPU {
			pgText, total = cpuText(postgres.Median), total+postgres.Median
		} else {
			pgText = "n/a"
		}
		ceiling := "n/a"
		if total > 0 {
			ceiling = thousands(float64(r.Machine.Cores*1000) / total)
		}
		p("| %s | %s | %d | %s | %s | %s | %s |", m.Case, m.System, m.Clients, cpuText(process.Median), pgText, redisText, ceiling)
	}
	p("")
}

func (r *Report) writeClose(p printer) {
	c := r.Close
	p("## closeMonth")
	p("")
	p("Closing %s with %s players through the `closeMonth` mutation (admin token): %s wall time.", r.ClosedMonth, thousands(float64(r.Players)), c.Wall.Round(time.Millisecond))
	switch {
	case c.Polled && c.AnswerError != "":
		p("The mutation's answer was lost (%s); the time is when polling `month` first saw the month CLOSED.", c.AnswerError)
	case c.Polled:
		p("The mutation answered CLOSING once its wait (LEADERBOARD_CLOSE_WAIT) was over; the time is when polling `month` first saw the month CLOSED.")
	}
	s := c.Readers
	p("Meanwhile %d client(s) read standings of the closing month over HTTP: %d reads, p50 %s ms, p99 %s ms, slowest %s ms, %d errors.",
		s.Clients, s.Ops, fixed(milliseconds(s.P50)), fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max)), s.Errors)
	if s.FirstError != "" {
		p("First error: `%s`", s.FirstError)
	}
	p("The database wrote %s MiB of write-ahead log meanwhile (`pg_current_wal_lsn()` before and after).", thousands(float64(c.WALBytes>>20)))
	p("")
}

func (r *Report) writeMemory(p printer) {
	p("## Memory")
	p("")
	p("The server runs inside the benchmark's process (app.Main, as the end-to-end tests start it), so its resident memory is the")
	p("process's, read from /proc/self/status after the reads: VmRSS %s, peak VmHWM %s. That also holds the load generator and its",
		bytesText(r.RSS), bytesText(r.PeakRSS))
	p("latency samples, so the server alone uses less. PostgreSQL's own memory (shared_buffers and its backends) is not in it.")
	if r.RedisUsed > 0 {
		p("Redis, holding the %s-member sorted set and the hash of names: used_memory %s, RSS %s.",
			thousands(float64(r.Players)), bytesText(r.RedisUsed), bytesText(r.RedisRSS))
	}
	p("")
}

func (r *Report) writeSetup(p printer) {
	p("## Setup")
	p("")
	p("| Step | Time |")
	p("| --- | ---: |")
	for _, s := range r.Setup {
		p("| %s | %s |", s.Name, s.Took.Round(time.Millisecond))
	}
	p("")
}

func (r *Report) writeMethod(p printer) {
	p("## How it was measured")
	p("")
	p("- One process, one machine: the benchmark starts a PostgreSQL of its own (or uses BENCH_DATABASE_URL), the real")
	p("  program through app.Main on 127.0.0.1 with a free port, and a redis-server of its own; all share the same cores.")
	p("- Load: a closed loop of N clients, each sending its next request as soon as the previous answer is in, over")
	p("  keep-alive connections (Go net/http). Only requests that start and end inside the measured window count.")
	p("  Latency percentiles are nearest-rank over every request of a run.")
	p("- Players are drawn uniformly from all seeded players (across the table), or from 100 players pinned to the top,")
	p("  the middle and the bottom of the open month, or from 1,000 of the players on score 100, the biggest tie group.")
	p("- Redis packs a score and its reach time into one exact double: score·2^32 + (2^32 − 1 − seconds since the month's")
	p("  start), below 2^46, so exact (a double holds every integer below 2^53) and ordered like (score DESC, reached_at ASC).")
	p("  Players tied on both are ordered by member (player id) in Redis, by arrival (seq) in the service.")
	p("- After seeding, a checkpoint flushes the seed, which a month's slow filling would have flushed as it went, so that")
	p("  it is not flushed during the close measured next. After closing, the database is vacuumed and analyzed, as")
	p("  autovacuum would have done in a month, and a checkpoint is taken, so that neither lands in a measurement.")
	p("  Before submitScores is measured, it runs unmeasured")
	p("  for a few seconds and the tables it writes are analyzed: the seed writes no board_score_events, and statements prepared")
	p("  while that table was nearly empty would keep a sequential-scan plan until autoanalyze, which a service in")
	p("  production has long been through.")
	p("- The service runs with its production configuration (the environment's settings, else the defaults). After the")
	p("  close, the benchmark reads the closed month once and, when the service keeps closed months in memory, waits until")
	p("  it has loaded it, so the closed month is measured warm; \"DB only\" still reads PostgreSQL.")
	p("- Submissions come after all reads, so the reads see the seeded months as they were; Redis is measured last.")
	p("")
}

func (r *Report) setting(name string) string {
	for _, s := range r.Settings {
		if s.Name == name {
			return s.Value
		}
	}
	return ""
}

// WriteTable prints the measurements as a plain text table.
func (r *Report) WriteTable(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tsystem\tclients\trate\tp50 ms\tp99 ms\terrors\t")
	for _, m := range r.Measurements {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s %s\t%s\t%s\t%d\t\n", m.Case, m.System, m.Clients,
			thousands(m.Rate().Median), m.Unit, fixed(m.P50().Median), fixed(m.P99().Median), m.Errors())
	}
	if !r.NoMonths {
		fmt.Fprintf(tw, "closeMonth (%s players)\t\t\t%s\t\t\t%d\t\n", thousands(float64(r.Players)), r.Close.Wall.Round(time.Millisecond), r.Close.Readers.Errors)
	}
	for _, b := range r.BigBoards {
		for _, m := range []*Measurement{b.OpenOne, b.Open, b.Closed} {
			if m != nil && len(m.Runs) > 0 {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s %s\t%s\t%s\t%d\t\n", m.Case, m.System, m.Clients,
					thousands(m.Rate().Median), m.Unit, fixed(m.P50().Median), fixed(m.P99().Median), m.Errors())
			}
		}
		for i, run := range b.Closes {
			s := run.Reads
			fmt.Fprintf(tw, "%s, closePeriod %d, then reads\tHTTP\t%d\t%s\t%s\t%s\t%d\t\n", b.Kind.Name, i+1, s.Clients,
				run.Close.Round(time.Millisecond), fixed(milliseconds(s.P50)), fixed(milliseconds(s.P99)), s.Errors+run.During.Errors)
		}
	}
	var extra []*Measurement
	if g := r.Groups; g != nil {
		for _, c := range g.Cases {
			extra = append(extra, c.M)
		}
	}
	if l := r.Leagues; l != nil {
		extra = append(extra, l.Writes, l.PlainWrites, l.Reads)
	}
	if e := r.Erasure; e != nil {
		extra = append(extra, e.Baseline)
	}
	for _, m := range extra {
		if m != nil && len(m.Runs) > 0 {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s %s\t%s\t%s\t%d\t\n", m.Case, m.System, m.Clients,
				thousands(m.Rate().Median), m.Unit, fixed(m.P50().Median), fixed(m.P99().Median), m.Errors())
		}
	}
	if e := r.Erasure; e != nil {
		for i, run := range e.Runs {
			s := run.Reads
			fmt.Fprintf(tw, "erasePlayer %d (%d closed + %d open periods), reads meanwhile\tHTTP\t%d\t%s\t%s\t%s\t%d\t\n", i+1,
				e.ClosedPeriods, e.OpenBoards, s.Clients, run.Wall.Round(time.Millisecond), fixed(milliseconds(s.P50)),
				fixed(milliseconds(s.P99)), s.Errors)
		}
	}
	if b := r.Boards; b != nil {
		for i, run := range b.Creates {
			fmt.Fprintf(tw, "createBoard run %d (%d new)\tHTTP\t%d\t%s /s\t%s\t%s\t%d\t\n", i+1, run.Boards, run.Stats.Clients,
				thousands(run.Stats.Throughput()), fixed(milliseconds(run.Stats.P50)), fixed(milliseconds(run.Stats.P99)), run.Stats.Errors)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "target\tmeasured\tverdict")
	for _, v := range r.Targets() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Target, v.Measured, v.Verdict)
	}
	return tw.Flush()
}

// thousands formats a number rounded to a whole, with thousands separators.
func thousands(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fixed formats milliseconds with two decimals below 10 and one above;
// "n/a" for NaN, a latency of no operation.
func fixed(ms float64) string {
	if math.IsNaN(ms) {
		return "n/a"
	}
	if ms < 10 {
		return fmt.Sprintf("%.2f", ms)
	}
	return fmt.Sprintf("%.1f", ms)
}

func rateText(s Spread) string {
	return fmt.Sprintf("%s (%s–%s)", thousands(s.Median), thousands(s.Min), thousands(s.Max))
}

func msText(s Spread) string {
	if math.IsNaN(s.Median) {
		return "n/a (none completed)"
	}
	return fmt.Sprintf("%s (%s–%s)", fixed(s.Median), fixed(s.Min), fixed(s.Max))
}

// cpuText formats a CPU time per unit in milliseconds.
func cpuText(ms float64) string { return fmt.Sprintf("%.3f", ms) }

func ratioText(a, b float64) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// bytesText formats a size in MiB below a GiB, in GiB above.
func bytesText(n uint64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func (r *Report) writeAfterClose(p printer) {
	if len(r.AfterClose) == 0 {
		return
	}
	clients := r.AfterClose[0].Reads.Clients
	p("## Right after a close")
	p("")
	p("Each run seeds a month of its own with %s players and closes it through `closeMonth` while %d clients read standings",
		thousands(float64(r.Players)), clients)
	p("of players they drew before the close, over HTTP. Every read that starts within %s of closeMonth's answer counts,",
		AfterCloseWindow)
	p("however long it takes: when every player comes to see their final rank. Before each run the service's in-memory snapshot")
	p("drops the months closed earlier, so the new month fits its budget. \"In memory after\" is when the service held the month")
	p("in its snapshot, from closeMonth's answer; until then its reads go to PostgreSQL.")
	p("")
	p("| Run | Month | closeMonth | Reads | Reads/s | p50 ms | p99 ms | Slowest ms | Errors | In memory after |")
	p("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	var rates, p50s, p99s, maxes []float64
	for i, run := range r.AfterClose {
		s := run.Reads
		loaded := "not within the window"
		if run.Loaded > 0 {
			loaded = run.Loaded.Round(100 * time.Millisecond).String()
		}
		p("| %d | %s | %s | %d | %s | %s | %s | %s | %d | %s |", i+1, run.Month, run.Close.Round(100*time.Millisecond),
			s.Ops, thousands(s.Throughput()), fixed(milliseconds(s.P50)), fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max)),
			s.Errors+run.During.Errors, loaded)
		rates = append(rates, s.Throughput())
		p50s = append(p50s, milliseconds(s.P50))
		p99s = append(p99s, milliseconds(s.P99))
		maxes = append(maxes, milliseconds(s.Max))
	}
	p("")
	p("Median of the runs (range): %s reads/s, p50 %s ms, p99 %s ms, slowest %s ms.",
		rateText(SpreadOf(rates)), msText(SpreadOf(p50s)), msText(SpreadOf(p99s)), msText(SpreadOf(maxes)))
	var during []string
	for i, run := range r.AfterClose {
		s := run.During
		during = append(during, fmt.Sprintf("run %d: %d reads, p99 %s ms, slowest %s ms", i+1, s.Ops,
			fixed(milliseconds(s.P99)), fixed(milliseconds(s.Max))))
	}
	p("")
	p("The same clients' reads while the month closed (those that started before closeMonth answered): %s.",
		strings.Join(during, "; "))
	p("")
	p("Why the first seconds were slow (diagnosed at 1M players, commit 04d271e): the close attaches the month's final_ranks")
	p("partition without column statistics. The old read joined final_ranks with itself on the rank window; planned without")
	p("statistics (`month = $1` estimated at 5,000 of 1,000,000 rows) it sorted the whole partition for every request:")
	p("2.1 s and 11,000 buffers per read under EXPLAIN (ANALYZE, BUFFERS), custom and generic plans alike, with the pool's")
	p("4 connections all busy on it, no lock waited for, and the snapshot's load queued for a connection behind them. The")
	p("read now takes the player's rank as a scalar subquery, then one primary-key range with a LIMIT: an index range scan")
	p("with or without statistics (0.17 ms, 93 buffers). Until the month is in memory its reads still go to PostgreSQL,")
	p("which 64 clients keep CPU-bound on this machine: to read at warm speed from the first request, a month must be in")
	p("memory when it turns CLOSED, built from the close's own output and handed to memory as the close commits.")
	p("")
}
