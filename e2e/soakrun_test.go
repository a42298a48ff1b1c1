package e2e_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard/internal/pgtest"
)

// soakRun is the soak's clock, its measurements and its findings.
type soakRun struct {
	t         *testing.T
	database  *pgtest.Postgres
	instances []*soakInstance
	seasons   soakSeasons
	load      *soakLoad
	start     time.Time
	duration  time.Duration

	samples []soakSample
	minutes []soakMinute
	faults  map[int][]string // minute → what was done to the system in it
	first   map[string]soakTable
	last    map[string]soakTable
	// checked holds the seasons whose close and totals were checked.
	checked map[string]bool
	// restartedIn is the minute each restarted instance was restarted in.
	restartedIn map[string]int
	// closesChecked counts the seasons checked closed.
	closesChecked int
	problems      []string
	verdicts      []soakVerdict
}

// soakProc is one process's figures: from its /metrics, and its sessions in
// pg_stat_activity. A minute's figures are the medians of its samples, but
// for the goroutines' floor, the fewest of any sample: those that exist with
// no request in flight, what a leak raises. The heap goal
// (go_memstats_next_gc_bytes) is what the collector set at its last cycle
// from the heap it found live (with GOGC=100, twice it plus the stacks): it
// follows the live heap, free of the sawtooth of the heap allocated.
type soakProc struct {
	RSS, HeapInuse, HeapGoal, Goroutines, PoolConns, Sessions float64
	GoroutinesFloor                                           float64
}

// soakSample is one sampling of every instance; a nil entry: the instance
// did not answer.
type soakSample struct {
	at    time.Time
	procs []*soakProc
}

// soakMinute is a minute's figures of each process and the database's
// state at its end.
type soakMinute struct {
	Minute    int
	Procs     []*soakProc
	Backends  int // every session of the database, the test's own included
	Relations int
	Rows      map[string]int64
	Acked     int
	Closed    int // seasons checked closed so far
}

// soakTable is a table's rows and its relations (partitions, indexes, TOAST).
type soakTable struct {
	Rows      int64
	Relations int
}

// soakVerdict is one check of the end and its outcome.
type soakVerdict struct {
	Name, Detail string
	OK           bool
}

// loop samples every soakSampleEvery until the duration is over, closes
// each minute's record, restarts the database at 40 % and instance b at 60 %.
func (r *soakRun) loop() {
	restartDatabase := r.start.Add(r.duration * 4 / 10)
	restartInstance := r.start.Add(r.duration * 6 / 10)
	tick := time.NewTicker(soakSampleEvery)
	defer tick.Stop()
	for minute := 1; minute <= int(r.duration/time.Minute); {
		now := <-tick.C
		switch {
		case !restartDatabase.IsZero() && now.After(restartDatabase):
			restartDatabase = time.Time{}
			r.restartDatabase()
		case !restartInstance.IsZero() && now.After(restartInstance):
			restartInstance = time.Time{}
			r.restartInstance(r.instances[1])
		}
		r.sample()
		if time.Since(r.start) >= time.Duration(minute)*time.Minute {
			r.closeMinute(minute)
			minute++
		}
	}
}

// measureStart records the tables before the load starts.
func (r *soakRun) measureStart() {
	r.faults, r.restartedIn, r.checked = map[int][]string{}, map[string]int{}, map[string]bool{}
	if conn := r.conn(); conn != nil {
		r.first = r.tables(conn)
		conn.Close(context.Background())
	}
}

// minuteOf is the minute (from 1) that at falls in.
func (r *soakRun) minuteOf(at time.Time) int { return int(at.Sub(r.start)/time.Minute) + 1 }

// restartDatabase stops the database's container (a fast shutdown) and
// starts it again.
func (r *soakRun) restartDatabase() {
	began := time.Now()
	r.database.Stop(r.t)
	r.database.Resume(r.t)
	r.fault(began, fmt.Sprintf("PostgreSQL restarted (docker stop + start: %.1f s)", time.Since(began).Seconds()))
}

// restartInstance stops inst with SIGTERM and starts it again.
func (r *soakRun) restartInstance(inst *soakInstance) {
	began := time.Now()
	inst.stop(r.t)
	stopped := time.Since(began)
	inst.start(r.t)
	r.restartedIn[inst.name] = r.minuteOf(began)
	r.fault(began, fmt.Sprintf("instance %s restarted (SIGTERM: stopped in %.1f s; ready again after %.1f s)",
		inst.name, stopped.Seconds(), time.Since(began).Seconds()))
}

func (r *soakRun) fault(at time.Time, what string) {
	r.t.Logf("%s: %s", at.Sub(r.start).Truncate(time.Second), what)
	r.faults[r.minuteOf(at)] = append(r.faults[r.minuteOf(at)], what)
}

// conn opens a session of the test's own, waiting out a database that is
// coming back; it is nil when none opens in 30 s.
func (r *soakRun) conn() *pgx.Conn {
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		conn, err := pgx.Connect(ctx, r.database.URL+"&application_name=soak-monitor")
		cancel()
		if err == nil {
			return conn
		}
		if time.Now().After(deadline) {
			r.t.Errorf("connect to the database: %v", err)
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// sample scrapes every instance's /metrics and counts its sessions.
func (r *soakRun) sample() {
	s := soakSample{at: time.Now(), procs: make([]*soakProc, len(r.instances))}
	for i, inst := range r.instances {
		s.procs[i] = inst.scrape()
	}
	r.samples = append(r.samples, s)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, r.database.URL+"&application_name=soak-monitor")
	if err != nil {
		return // the database is restarting
	}
	defer conn.Close(context.Background())
	if sessions, err := sessions(ctx, conn); err == nil {
		for i, inst := range r.instances {
			if s.procs[i] != nil {
				s.procs[i].Sessions = float64(sessions["soak-"+inst.name])
			}
		}
	}
	r.checkClosedSeasons(conn)
}

// checkClosedSeasons checks each season that stopped taking events once it
// is closed and settled and no call for it is unanswered: before retention
// drops it, about a minute after its close. A season still not there
// soakRetryFor after its close is checked as it is, and fails.
func (r *soakRun) checkClosedSeasons(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := 0; r.seasons.closesAt(i).Before(time.Now()); i++ {
		key := r.seasons.key(i)
		if r.checked[key] || r.load.unanswered(key) > 0 {
			continue
		}
		var settled bool
		err := conn.QueryRow(ctx, `SELECT p.status = 'CLOSED' AND EXISTS (SELECT FROM outbox o
			WHERE o.board_id = p.board_id AND o.period_id = p.id AND o.delivered_at IS NOT NULL)
			FROM periods p WHERE p.board_id = $1 AND p.key = $2`, soakBoard, key).Scan(&settled)
		if err == nil && settled || time.Since(r.seasons.closesAt(i)) > soakRetryFor {
			r.checkSeason(conn, i, true)
		}
	}
}

// sessions counts the database's sessions by application_name.
func sessions(ctx context.Context, conn *pgx.Conn) (map[string]int, error) {
	rows, _ := conn.Query(ctx, `SELECT application_name, count(*) FROM pg_stat_activity
		WHERE datname = current_database() GROUP BY application_name`)
	out := map[string]int{}
	var (
		name string
		n    int
	)
	_, err := pgx.ForEachRow(rows, []any{&name, &n}, func() error { out[name] = n; return nil })
	return out, err
}

// scrape reads the process's figures from its /metrics; nil when it does not
// answer.
func (i *soakInstance) scrape() *soakProc {
	status, body, err := i.srv.getStatus("/metrics")
	if err != nil || status != 200 {
		return nil
	}
	values := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if ok && !strings.HasPrefix(name, "#") {
			if v, err := strconv.ParseFloat(value, 64); err == nil {
				values[name] = v
			}
		}
	}
	return &soakProc{RSS: values["process_resident_memory_bytes"], HeapGoal: values["go_memstats_next_gc_bytes"],
		HeapInuse: values["go_memstats_heap_inuse_bytes"], Goroutines: values["go_goroutines"],
		PoolConns: values["leaderboard_db_pool_acquired_connections"] + values["leaderboard_db_pool_idle_connections"]}
}

// closeMinute records minute's figures and the database's state, and
// creates the seasons ahead.
func (r *soakRun) closeMinute(minute int) {
	m := soakMinute{Minute: minute, Procs: make([]*soakProc, len(r.instances)), Acked: r.load.counts()}
	for i := range r.instances {
		m.Procs[i] = r.median(minute, i)
	}
	r.seasons.ensure(r.t, r.instances, time.Now())
	if conn := r.conn(); conn != nil {
		tables := r.tables(conn)
		m.Rows = map[string]int64{}
		for name, table := range tables {
			m.Rows[name] = table.Rows
		}
		r.last = tables
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()),
			(SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			 WHERE n.nspname NOT IN ('pg_catalog', 'information_schema'))`).Scan(&m.Backends, &m.Relations)
		cancel()
		m.Closed = r.closedSeasons(conn)
		conn.Close(context.Background())
	}
	r.minutes = append(r.minutes, m)
	r.t.Log(r.minuteRow(m))
}

// closedSeasons counts the seasons closed so far: those CLOSED and those
// retention dropped since.
func (r *soakRun) closedSeasons(conn *pgx.Conn) int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rows, _ := conn.Query(ctx, `SELECT key, status FROM periods WHERE board_id = $1`, soakBoard)
	status := map[string]string{}
	var key, st string
	if _, err := pgx.ForEachRow(rows, []any{&key, &st}, func() error { status[key] = st; return nil }); err != nil {
		return 0
	}
	closed, kept := 0, false
	for i := 0; i <= r.seasons.index(time.Now()); i++ {
		st, ok := status[r.seasons.key(i)]
		kept = kept || ok
		if st == "CLOSED" || !ok && !kept {
			closed++
		}
	}
	return closed
}

// median is instance i's figures over minute's samples (medians and
// floors); nil when the instance answered none.
func (r *soakRun) median(minute, i int) *soakProc {
	var procs []*soakProc
	for _, s := range r.samples {
		if r.minuteOf(s.at) == minute && s.procs[i] != nil {
			procs = append(procs, s.procs[i])
		}
	}
	if len(procs) == 0 {
		return nil
	}
	sorted := func(f func(*soakProc) float64) []float64 {
		v := make([]float64, len(procs))
		for j, p := range procs {
			v[j] = f(p)
		}
		sort.Float64s(v)
		return v
	}
	of := func(f func(*soakProc) float64) float64 { return medianOf(sorted(f)) }
	return &soakProc{RSS: of(func(p *soakProc) float64 { return p.RSS }),
		HeapInuse:       of(func(p *soakProc) float64 { return p.HeapInuse }),
		Goroutines:      of(func(p *soakProc) float64 { return p.Goroutines }),
		PoolConns:       of(func(p *soakProc) float64 { return p.PoolConns }),
		Sessions:        of(func(p *soakProc) float64 { return p.Sessions }),
		HeapGoal:        of(func(p *soakProc) float64 { return p.HeapGoal }),
		GoroutinesFloor: sorted(func(p *soakProc) float64 { return p.Goroutines })[0]}
}

// tables returns every table of the service (partitioned ones as one) with
// its rows and relations.
func (r *soakRun) tables(conn *pgx.Conn) map[string]soakTable {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rows, _ := conn.Query(ctx, `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition`)
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		r.t.Logf("list the tables: %v", err)
		return nil
	}
	out := map[string]soakTable{}
	for _, name := range names {
		var t soakTable
		// pg_partition_tree lists nothing for a table without partitions.
		err := conn.QueryRow(ctx, `WITH t AS (SELECT $1::regclass AS relid UNION SELECT relid FROM pg_partition_tree($1::regclass))
			SELECT (SELECT count(*) FROM t)
				+ (SELECT count(*) FROM pg_index WHERE indrelid IN (SELECT relid FROM t))
				+ (SELECT 2 * count(*) FROM pg_class WHERE oid IN (SELECT relid FROM t) AND reltoastrelid <> 0)`,
			pgx.Identifier{name}.Sanitize()).Scan(&t.Relations)
		if err == nil {
			err = conn.QueryRow(ctx, `SELECT count(*) FROM `+pgx.Identifier{name}.Sanitize()).Scan(&t.Rows)
		}
		if err != nil {
			r.t.Logf("table %s: %v", name, err)
			continue
		}
		out[name] = t
	}
	return out
}

// problem records a failed check, shown in the report and failing the test.
func (r *soakRun) problem(format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, args...))
}

// checkSeason checks season i: each acknowledged event stored once and each
// total their sum; when closed is set, also that it is CLOSED, ranked with
// the digest of its scores, and its one message delivered.
func (r *soakRun) checkSeason(conn *pgx.Conn, i int, closed bool) {
	key := r.seasons.key(i)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var (
		id, participants int
		status, digest   string
		bucket           *time.Time
	)
	err := conn.QueryRow(ctx, `SELECT id, status, coalesce(participants, 0), coalesce(digest, ''), final_bucket
		FROM periods WHERE board_id = $1 AND key = $2`, soakBoard, key).Scan(&id, &status, &participants, &digest, &bucket)
	if err != nil {
		r.problem("season %s: %v (dropped before it was checked?)", key, err)
		r.checked[key] = true
		return
	}
	rows, _ := conn.Query(ctx, `SELECT player_id, score FROM board_scores WHERE period_id = $1
		ORDER BY sort_score, sort_subscore, reached_at, seq`, id)
	scores, oracle := collectScores(rows)
	rows, _ = conn.Query(ctx, `SELECT event_id, player_id, value FROM board_score_events WHERE board_id = $1 AND period_id = $2`,
		soakBoard, id)
	r.compare("season "+key, scores, rows, r.load.snapshot(soakPeriod{soakBoard, key}))
	if !closed {
		return
	}
	r.checked[key] = true
	r.closesChecked++
	var ranks, messages, delivered int
	if status == "CLOSED" && bucket != nil {
		err = conn.QueryRow(ctx, `SELECT (SELECT count(*) FROM board_final_ranks WHERE bucket = $1 AND period_id = $2),
			(SELECT count(*) FROM outbox WHERE board_id = $3 AND period_id = $2 AND type = 'period.closed'),
			(SELECT count(*) FROM outbox WHERE board_id = $3 AND period_id = $2 AND delivered_at IS NOT NULL)`,
			bucket, id, soakBoard).Scan(&ranks, &messages, &delivered)
	}
	switch {
	case err != nil:
		r.problem("season %s: %v", key, err)
	case status != "CLOSED":
		r.problem("season %s is %s %s after it stopped taking events", key, status, time.Since(r.seasons.closesAt(i)).Truncate(time.Second))
	case participants != len(scores) || ranks != participants || digest != oracle:
		r.problem("season %s closed with %d participants, %d final ranks, digest %s; its scores: %d players, digest %s",
			key, participants, ranks, digest, len(scores), oracle)
	case messages != 1 || delivered != 1:
		r.problem("season %s: %d period.closed messages, %d delivered; want 1 and 1", key, messages, delivered)
	}
}

// collectScores reads player_id, score rows in rank order: the totals and
// the digest of the standings ("rank,playerId,score\n" a rank).
func collectScores(rows pgx.Rows) (map[string]int, string) {
	scores := map[string]int{}
	h := sha256.New()
	var (
		player string
		score  int
	)
	pgx.ForEachRow(rows, []any{&player, &score}, func() error {
		scores[player] = score
		fmt.Fprintf(h, "%d,%s,%d\n", len(scores), player, score)
		return nil
	})
	return scores, hex.EncodeToString(h.Sum(nil))
}

// compare checks a period's stored totals and events (event_id, player_id,
// value rows) against its acknowledged events: every acknowledged event is
// stored, with its player and value; none is stored that was not
// acknowledged (unless a call was never answered); every total is the sum.
func (r *soakRun) compare(what string, scores map[string]int, events pgx.Rows, acked map[string]soakEvent) {
	var (
		id, player string
		value      int
		extra      int
	)
	stored := 0
	_, err := pgx.ForEachRow(events, []any{&id, &player, &value}, func() error {
		e, ok := acked[id]
		if !ok {
			extra++
			return nil
		}
		stored++
		if e.player != player || e.value != value {
			r.problem("%s: event %s stored as %s +%d, acknowledged as %s +%d", what, id, player, value, e.player, e.value)
		}
		return nil
	})
	if err != nil {
		r.problem("%s: read its events: %v", what, err)
		return
	}
	if stored != len(acked) {
		r.problem("%s: %d acknowledged events, %d of them stored", what, len(acked), stored)
	}
	if extra > 0 && r.load.unresolved == 0 {
		r.problem("%s: %d events stored that no answer acknowledged", what, extra)
	}
	sums := map[string]int{}
	for _, e := range acked {
		sums[e.player] += e.value
	}
	if !maps.Equal(sums, scores) {
		wrong := 0
		for p, want := range sums {
			if scores[p] != want {
				wrong++
			}
		}
		r.problem("%s: %d of %d players' totals differ from their acknowledged sums (%d stored totals)",
			what, wrong, len(sums), len(scores))
	}
}

// finish waits for every season that ended to be closed and settled, checks
// the seasons and main's months not checked yet, the messages received and
// the flatness of every figure.
func (r *soakRun) finish(receiver *webhookReceiver) {
	conn := r.conn()
	if conn == nil {
		return
	}
	defer conn.Close(context.Background())
	ended := r.seasons.index(time.Now()) - 1
	time.Sleep(time.Until(r.seasons.closesAt(ended).Add(time.Second)))
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(500 * time.Millisecond) {
		var pending int
		err := conn.QueryRow(context.Background(), `SELECT count(*) FROM periods p WHERE board_id = $1 AND key <= $2
			AND (status <> 'CLOSED' OR EXISTS (SELECT FROM outbox o WHERE o.board_id = p.board_id AND o.period_id = p.id
				AND delivered_at IS NULL))`, soakBoard, r.seasons.key(ended)).Scan(&pending)
		if err == nil && pending == 0 || time.Now().After(deadline) {
			break
		}
	}
	for i := 0; i <= ended+1; i++ {
		if !r.checked[r.seasons.key(i)] {
			r.checkSeason(conn, i, i <= ended)
		}
	}
	r.checkMain(conn)
	r.checkDeliveries(receiver, ended)
	r.judge()
}

// checkMain checks main's months that took events.
func (r *soakRun) checkMain(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r.load.mu.Lock()
	var months []string
	for p := range r.load.acked {
		if p.board == "main" {
			months = append(months, p.key)
		}
	}
	r.load.mu.Unlock()
	for _, month := range months {
		rows, _ := conn.Query(ctx, `SELECT s.player_id, s.score FROM board_scores s
			JOIN periods p ON p.id = s.period_id AND p.board_id = 'main' AND p.key = $1`, month)
		scores, _ := collectScores(rows)
		rows, _ = conn.Query(ctx, `SELECT e.event_id, e.player_id, e.value FROM board_score_events e
			JOIN periods p ON p.id = e.period_id AND p.board_id = 'main' AND p.key = $1 WHERE e.board_id = 'main'`, month)
		r.compare("main's month "+month, scores, rows, r.load.snapshot(soakPeriod{"main", month}))
	}
}

// checkDeliveries checks that the receiver got each closed season's message
// once, and no other.
func (r *soakRun) checkDeliveries(receiver *webhookReceiver, ended int) {
	deliveries, ids := map[string]int{}, map[string]map[string]bool{}
	for _, d := range receiver.received() {
		var body struct{ Type, Board, Period string }
		if err := json.Unmarshal(d.body, &body); err != nil || body.Type != "period.closed" || body.Board != soakBoard {
			r.problem("a message that is no season's close: %s %s", d.eventType, d.body)
			continue
		}
		deliveries[body.Period]++
		if ids[body.Period] == nil {
			ids[body.Period] = map[string]bool{}
		}
		ids[body.Period][d.id] = true
	}
	for i := 0; i <= ended; i++ {
		key := r.seasons.key(i)
		if deliveries[key] != 1 || len(ids[key]) != 1 {
			r.problem("season %s: %d deliveries of %d messages; want 1 of 1", key, deliveries[key], len(ids[key]))
		}
		delete(deliveries, key)
	}
	for key, n := range deliveries {
		r.problem("season %s, not ended, was delivered %d times", key, n)
	}
}

// judge compares each process's first third of minutes with its last
// third: live heap and goroutines within 10 %; and the relations after the
// first close with those at the end.
func (r *soakRun) judge() {
	first, last := r.minutes[0], r.minutes[len(r.minutes)-1]
	for i, inst := range r.instances {
		// Minute 1 is the warm-up: the first season closes at its end, and
		// with it what a process holds once it did every kind of work (a
		// closed season in memory, more pooled connections). A restarted
		// instance is a new process: its minutes start with the first whole
		// one after the restart.
		from := 2
		if m, ok := r.restartedIn[inst.name]; ok {
			from = min(m+1, last.Minute)
		}
		third := max(1, (last.Minute-from+1)/3)
		early, late := r.thirds(i, from, from+third-1), r.thirds(i, last.Minute-third+1, last.Minute)
		if early == nil || late == nil {
			r.verdict(false, "instance "+inst.name, "no figures for its first or last minutes")
			continue
		}
		span := fmt.Sprintf("minutes %d–%d, %d–%d", from, from+third-1, last.Minute-third+1, last.Minute)
		// The heap goal of a heap this small moves between two levels
		// (about 4.7 and 6 MiB) from one minute to the next: thirds of
		// fewer than 3 minutes are shown, not judged.
		heap := "instance " + inst.name + ": heap goal"
		if third < 3 {
			heap += " (not judged: thirds of fewer than 3 minutes)"
		}
		r.within(heap, span, early.HeapGoal/(1<<20), late.HeapGoal/(1<<20), " MiB", 0)
		if third < 3 {
			r.verdicts[len(r.verdicts)-1].OK = true
		}
		// The settlement's keep-alive connection to the webhook (two
		// goroutines) lives 90 s after each delivery, and the instances
		// take turns: two goroutines more or less are no trend.
		r.within("instance "+inst.name+": goroutines (floor)", span, early.GoroutinesFloor, late.GoroutinesFloor, "", 2)
	}
	// The first close makes the month's partition of board_final_ranks;
	// after it, closed seasons make no relation.
	second := r.minutes[1]
	r.verdict(last.Relations <= second.Relations, "relations bounded",
		fmt.Sprintf("%d at the end of minute 1, %d of minute 2, %d of minute %d, with %d seasons closed by then",
			first.Relations, second.Relations, last.Relations, last.Minute, last.Closed))
	r.load.mu.Lock()
	r.verdict(len(r.problems) == 0 && len(r.load.unexpected) == 0 && r.load.unresolved == 0, "acknowledged = stored, closes settled once",
		fmt.Sprintf("%d events acknowledged (%d as DUPLICATE of a lost answer), %d sent again after a failure, %d never answered; %d seasons closed and checked; %d problems, %d unexpected answers",
			r.load.ackedCount, r.load.duplicates, r.load.resent, r.load.unresolved, r.closesChecked, len(r.problems), len(r.load.unexpected)))
	r.load.mu.Unlock()
}

// thirds returns instance i's heap goal and goroutines' floor over minutes
// from..to: the median of each minute's; nil when it has none.
func (r *soakRun) thirds(i, from, to int) *soakProc {
	var heaps, goroutines []float64
	for _, m := range r.minutes[from-1 : to] {
		if p := m.Procs[i]; p != nil {
			heaps, goroutines = append(heaps, p.HeapGoal), append(goroutines, p.GoroutinesFloor)
		}
	}
	if len(heaps) == 0 {
		return nil
	}
	return &soakProc{HeapGoal: medianOf(heaps), GoroutinesFloor: medianOf(goroutines)}
}

// medianOf returns the median of v, which it sorts.
func medianOf(v []float64) float64 {
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}

// within records whether late is within 10 % of early (or within slack).
func (r *soakRun) within(name, span string, early, late float64, unit string, slack float64) {
	ratio := late / early
	ok := ratio >= 0.9 && ratio <= 1.1 || math.Abs(late-early) <= slack
	r.verdict(ok, name, fmt.Sprintf("%.1f%s, then %.1f%s (medians over %s): %+.1f %%",
		early, unit, late, unit, span, 100*(ratio-1)))
}

func (r *soakRun) verdict(ok bool, name, detail string) {
	r.verdicts = append(r.verdicts, soakVerdict{Name: name, Detail: detail, OK: ok})
}

// soakRowTables are the tables whose rows the per-minute table shows.
var soakRowTables = []string{"board_score_events", "board_scores", "board_final_ranks", "periods", "outbox"}

// minuteRow is minute m as a line of the log.
func (r *soakRun) minuteRow(m soakMinute) string {
	var b strings.Builder
	fmt.Fprintf(&b, "minute %2d:", m.Minute)
	for i, inst := range r.instances {
		if p := m.Procs[i]; p != nil {
			fmt.Fprintf(&b, " %s: RSS %.1f MiB, heap %.1f (goal %.1f) MiB, %.0f (floor %.0f) goroutines, %.0f/%.0f conns;", inst.name,
				p.RSS/(1<<20), p.HeapInuse/(1<<20), p.HeapGoal/(1<<20), p.Goroutines, p.GoroutinesFloor, p.PoolConns, p.Sessions)
		} else {
			fmt.Fprintf(&b, " %s: down;", inst.name)
		}
	}
	fmt.Fprintf(&b, " db: %d sessions %d relations; %d events acked, %d seasons closed; rows", m.Backends, m.Relations, m.Acked, m.Closed)
	for _, name := range soakRowTables {
		fmt.Fprintf(&b, " %s %d", name, m.Rows[name])
	}
	if f := r.faults[m.Minute]; len(f) > 0 {
		fmt.Fprintf(&b, "; %s", strings.Join(f, "; "))
	}
	return b.String()
}

// tableNames are the tables of first and last, sorted.
func tableNames(first, last map[string]soakTable) []string {
	names := slices.Collect(maps.Keys(first))
	for name := range last {
		if _, ok := first[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
