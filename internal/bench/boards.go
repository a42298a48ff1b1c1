package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gamebackend/leaderboard/app"
)

// BoardsResult is what the boards suite measured: createBoard raced over
// two instances, and the catalogue's relations as boards and periods grow.
type BoardsResult struct {
	// Creates are the runs of createBoard for CreateBoards new boards each,
	// Repeat times; each creation is then repeated identically.
	Creates []CreateBoardRun
	// Catalogue is the run that created the catalogue's boards, over HTTP
	// like the others, and the rows and relations around it.
	Catalogue Catalogue
	// Scores are the storms of closes, the writes spread over boards and
	// the small boards' reads (targets 1 to 3); nil when not run.
	Scores *BoardScores
}

// CreateBoardRun is one run of createBoard: Boards distinct boards by
// Stats.Clients callers spread over two instances, then the same requests
// again.
type CreateBoardRun struct {
	Boards int
	// Created counts the answers created: true; Rows the boards rows with
	// the run's ids afterwards. Both must be Boards.
	Created, Rows int
	Stats         RunStats
	// Again is the identical requests repeated; Existing counts their
	// answers created: false, which must be all of them.
	Again    RunStats
	Existing int
}

// Catalogue counts relations in pg_class before any board is created (main
// exists from the start) and after Boards boards with PeriodsPerBoard closed DAY periods each.
type Catalogue struct {
	Boards, PeriodsPerBoard int
	// Create is the creation of the catalogue's boards over HTTP.
	Create RunStats
	// Periods is how long the periods' rows took to insert with SQL.
	Periods time.Duration
	// Relations in pg_class before the suite's first board and after the
	// catalogue's periods.
	RelationsBefore, RelationsAfter int
	// Rows of boards and periods afterwards, and the tables' sizes with
	// their indexes and TOAST.
	BoardRows, PeriodRows   int
	BoardBytes, PeriodBytes int64
	Measured                bool
}

// Delta is how many relations the catalogue gained.
func (c Catalogue) Delta() int { return c.RelationsAfter - c.RelationsBefore }

// Each calls op once for each of n items, with clients workers that take
// the next item as soon as they are done: a fixed amount of work, unlike
// Load's fixed time. Every call counts; Elapsed is the wall time of all of
// them. It stops early when ctx ends.
func Each(ctx context.Context, n, clients int, op func(ctx context.Context, client, item int) error) RunStats {
	var (
		next       atomic.Int64
		mu         sync.Mutex
		latencies  = make([]time.Duration, 0, n)
		failures   int
		firstError string
		wg         sync.WaitGroup
	)
	start := time.Now()
	for client := range clients {
		wg.Go(func() {
			var own []time.Duration
			failed, first := 0, ""
			for ctx.Err() == nil {
				item := int(next.Add(1)) - 1
				if item >= n {
					break
				}
				began := time.Now()
				if err := op(ctx, client, item); err != nil {
					failed++
					if first == "" {
						first = err.Error()
					}
					continue
				}
				own = append(own, time.Since(began))
			}
			mu.Lock()
			defer mu.Unlock()
			latencies = append(latencies, own...)
			failures += failed
			if firstError == "" {
				firstError = first
			}
		})
	}
	wg.Wait()
	return eachStats(latencies, clients, failures, firstError, time.Since(start))
}

// eachStats summarizes the latencies of successful calls (sorted in place).
func eachStats(latencies []time.Duration, clients, failures int, firstError string, elapsed time.Duration) RunStats {
	slices.Sort(latencies)
	s := RunStats{Clients: clients, Ops: len(latencies), AllOps: len(latencies), Errors: failures, FirstError: firstError,
		Elapsed: elapsed, P50: Percentile(latencies, 50), P99: Percentile(latencies, 99)}
	if len(latencies) > 0 {
		s.Max = latencies[len(latencies)-1]
	}
	return s
}

// boardID names item i of a set of boards: prefix, then i zero-padded so
// that the ids sort in creation order. Ids are 1..64 of [a-z0-9_.-].
func boardID(prefix string, i int) string {
	return fmt.Sprintf("%s%06d", prefix, i)
}

// boardPrefix is the prefix of one set of a run's boards, unique to the
// run (started) and the set (kind, such as "c1" or "cat"); it holds no
// LIKE wildcard and leaves room for boardID's number.
func boardPrefix(started time.Time, kind string) string {
	return "bench-" + strconv.FormatInt(started.UnixMilli(), 36) + "-" + kind + "."
}

// createBoardMutation is a game server's createBoard: a daily board in its
// own zone with a fixed start, so that a repeat is the identical request.
const createBoardMutation = `mutation($id: ID!, $startsAt: Time!) { createBoard(id: $id, name: "Bench daily",
	reset: DAY, order: ASC, minScore: 1, maxScore: 600000, tiebreak: SUBSCORE_DESC, timeZone: "Europe/Berlin",
	closeGrace: 60, startsAt: $startsAt) { created board { id } } }`

// createBoard sends createBoardMutation for id and returns its created.
func createBoard(ctx context.Context, gql *GraphQL, token, id string, startsAt time.Time) (bool, error) {
	var data struct {
		CreateBoard struct {
			Created bool `json:"created"`
			Board   struct {
				ID string `json:"id"`
			} `json:"board"`
		} `json:"createBoard"`
	}
	vars := map[string]any{"id": id, "startsAt": startsAt.UTC().Format(time.RFC3339)}
	if err := gql.Do(ctx, token, createBoardMutation, vars, &data); err != nil {
		return false, fmt.Errorf("createBoard %s: %w", id, err)
	}
	if got := data.CreateBoard.Board.ID; got != id {
		return false, fmt.Errorf("createBoard %s answered board %q", id, got)
	}
	return data.CreateBoard.Created, nil
}

// createBoards creates n boards named by prefix, client i of clients on
// instance i mod len(instances), and counts the answers that say created
// and those that say it existed.
func createBoards(ctx context.Context, instances []*GraphQL, token, prefix string, n, clients int, startsAt time.Time) (stats RunStats, created, existed int) {
	var yes, no atomic.Int64
	stats = Each(ctx, n, clients, func(ctx context.Context, client, item int) error {
		ok, err := createBoard(ctx, instances[client%len(instances)], token, boardID(prefix, item), startsAt)
		switch {
		case err != nil:
			return err
		case ok:
			yes.Add(1)
		default:
			no.Add(1)
		}
		return nil
	})
	return stats, int(yes.Load()), int(no.Load())
}

// boards runs the boards suite on a second instance beside the first:
// createBoard, the catalogue, then the boards' scores.
func (r *runner) boards(ctx context.Context) (err error) {
	relationsBefore, err := r.relations(ctx)
	if err != nil {
		return err
	}
	took := r.step("start a second instance of the service on the same database")
	second, err := r.startInstance(ctx)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, second.Close()) }()
	took()
	other := NewGraphQL(second.Server.URL(), 2*r.cfg.BoardClients)
	defer other.Close()
	instances := []*GraphQL{r.gql, other}
	result := &BoardsResult{}
	r.report.Boards = result
	startsAt := r.report.Started.UTC().Truncate(24 * time.Hour)

	for i := range r.cfg.Repeat {
		run, err := r.createBoardRun(ctx, instances, boardPrefix(r.report.Started, "c"+strconv.Itoa(i+1)), startsAt)
		result.Creates = append(result.Creates, run)
		if err != nil {
			return err
		}
	}
	if err := r.catalogue(ctx, &result.Catalogue, instances, startsAt, relationsBefore); err != nil {
		return err
	}
	return r.boardScores(ctx, result)
}

// catalogue creates the catalogue's boards over HTTP, gives each its
// closed DAY periods and counts the relations they added.
func (r *runner) catalogue(ctx context.Context, c *Catalogue, instances []*GraphQL, startsAt time.Time, relationsBefore int) (err error) {
	c.Boards, c.PeriodsPerBoard, c.RelationsBefore = r.cfg.CatalogueBoards, r.cfg.CataloguePeriods, relationsBefore
	prefix := boardPrefix(r.report.Started, "cat")
	took := r.step(fmt.Sprintf("createBoard %s boards for the catalogue (%d callers, two instances)",
		thousands(float64(c.Boards)), r.cfg.BoardClients))
	var created int
	c.Create, created, _ = createBoards(ctx, instances, r.adminToken, prefix, c.Boards, r.cfg.BoardClients, startsAt)
	if err := ctx.Err(); err != nil {
		return err
	}
	took()
	if c.Create.Errors > 0 || created != c.Boards {
		r.fail("createBoard for the catalogue: %d of %d created, %d errors, first: %s", created, c.Boards, c.Create.Errors, c.Create.FirstError)
	}
	took = r.step(fmt.Sprintf("insert %d closed DAY periods for each catalogue board (SQL)", c.PeriodsPerBoard))
	start := time.Now()
	if err := insertClosedDays(ctx, r, prefix, c.PeriodsPerBoard); err != nil {
		return err
	}
	c.Periods = time.Since(start)
	took()
	if c.RelationsAfter, err = r.relations(ctx); err != nil {
		return err
	}
	const sizes = `SELECT (SELECT count(*) FROM boards), (SELECT count(*) FROM periods),
		pg_total_relation_size('boards'), pg_total_relation_size('periods')`
	if err := r.pool.QueryRow(ctx, sizes).Scan(&c.BoardRows, &c.PeriodRows, &c.BoardBytes, &c.PeriodBytes); err != nil {
		return fmt.Errorf("count boards and periods: %w", err)
	}
	c.Measured = true
	r.log.Info("catalogue", "relations_before", c.RelationsBefore, "relations_after", c.RelationsAfter,
		"boards", c.BoardRows, "periods", c.PeriodRows)
	if c.Delta() > TargetCatalogueDelta {
		r.fail("the catalogue grew by %d relations with %d boards and %d periods", c.Delta(), c.BoardRows, c.PeriodRows)
	}
	return nil
}

// createBoardRun measures one run of createBoard and its repeat.
func (r *runner) createBoardRun(ctx context.Context, instances []*GraphQL, prefix string, startsAt time.Time) (CreateBoardRun, error) {
	run := CreateBoardRun{Boards: r.cfg.CreateBoards}
	var existedFirst, created int
	run.Stats, run.Created, existedFirst = createBoards(ctx, instances, r.adminToken, prefix, run.Boards, r.cfg.BoardClients, startsAt)
	if err := ctx.Err(); err != nil {
		return run, err
	}
	run.Again, created, run.Existing = createBoards(ctx, instances, r.adminToken, prefix, run.Boards, r.cfg.BoardClients, startsAt)
	if err := ctx.Err(); err != nil {
		return run, err
	}
	const q = `SELECT count(*) FROM boards WHERE starts_with(id, $1)`
	if err := r.pool.QueryRow(ctx, q, prefix).Scan(&run.Rows); err != nil {
		return run, fmt.Errorf("count the run's boards: %w", err)
	}
	s, again := run.Stats, run.Again
	r.log.Info("measured createBoard", "boards", run.Boards, "created", run.Created, "rows", run.Rows,
		"rate", fmt.Sprintf("%.0f/s", s.Throughput()), "p50", s.P50, "p99", s.P99, "max", s.Max,
		"again_existing", run.Existing, "again_p50", again.P50, "again_p99", again.P99, "errors", s.Errors+again.Errors)
	if n := s.Errors + again.Errors; n > 0 {
		first := s.FirstError
		if first == "" {
			first = again.FirstError
		}
		r.fail("createBoard: %d errors, first: %s", n, first)
	}
	if run.Created != run.Boards || existedFirst != 0 || run.Rows != run.Boards || run.Existing != run.Boards || created != 0 {
		r.fail("createBoard of %d new boards: %d answered created, %d not, %d rows; repeated: %d answered created: false, %d created",
			run.Boards, run.Created, existedFirst, run.Rows, run.Existing, created)
	}
	return run, nil
}

// insertClosedDays gives each board with the prefix perBoard CLOSED DAY
// periods, the days before today in the board's zone, as their closes
// would leave them. SQL writes the rows those closes would write: the
// catalogue measures the relations the boards and periods cost, not their
// events.
func insertClosedDays(ctx context.Context, r *runner, prefix string, perBoard int) error {
	const q = `INSERT INTO periods (board_id, key, status, starts_at, ends_at, closed_at, participants, digest)
		SELECT b.id, to_char(d.day, 'YYYY-MM-DD'), 'CLOSED',
			d.day::timestamp AT TIME ZONE b.time_zone, (d.day + 1)::timestamp AT TIME ZONE b.time_zone,
			((d.day + 1)::timestamp AT TIME ZONE b.time_zone) + make_interval(secs => b.close_grace_seconds),
			100, encode(sha256(convert_to(b.id || d.day::text, 'UTF8')), 'hex')
		FROM boards b
		CROSS JOIN LATERAL (SELECT (current_date - g)::date AS day FROM generate_series(1, $2) AS g) d
		WHERE starts_with(b.id, $1)`
	if _, err := r.pool.Exec(ctx, q, prefix, perBoard); err != nil {
		return fmt.Errorf("insert the catalogue's periods: %w", err)
	}
	return nil
}

// relations counts the relations in pg_class: tables, indexes, TOAST,
// sequences, views, partitions.
func (r *runner) relations(ctx context.Context) (int, error) {
	var n int
	if err := r.pool.QueryRow(ctx, `SELECT count(*) FROM pg_class`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count relations: %w", err)
	}
	return n, nil
}

// startInstance starts a second instance of the service, configured as the
// first, on its own free port of 127.0.0.1.
func (r *runner) startInstance(ctx context.Context) (*app.Main, error) {
	config := r.service.Config
	config.ListenAddr = "127.0.0.1:0"
	m := &app.Main{Config: config, Logger: r.cfg.ServiceLogger}
	if err := m.Run(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("start a second instance: %w", err), m.Close())
	}
	r.log.Info("second instance running", "url", m.Server.URL())
	return m, nil
}
