// Package db stores the leaderboard in PostgreSQL through pgx: the schema's
// migrations, score submission, the month-end close job and the rank reads.
// It implements the service interfaces of package leaderboard.
package db

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-migrate/migrate/v4"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/migrations"
)

// DB is the leaderboard's PostgreSQL store. It is safe for concurrent use.
type DB struct {
	pool *pgxpool.Pool
	// loc is the event time zone: it decides which month an event falls in.
	loc *time.Location
	// now returns the current time; tests replace it.
	now func() time.Time
	// closeGrace is how long after its end a month still takes events.
	closeGrace time.Duration
	// limits bound the database calls.
	limits Limits
	// readURL is the replica's address; replica the read view over it.
	readURL string
	replica *DB
	// primary is, on the replica's view, the DB it is the view of: reads
	// that must see a write just made go there (LiveRanks).
	primary *DB
	// settlement says whether closes and corrections record messages for
	// the studio's reward system.
	settlement bool
	// finalBuckets holds the buckets whose partition of board_final_ranks
	// is known to exist: it is made once and never dropped while in use.
	finalBuckets *sync.Map
	// closing bounds the reads of CLOSING months (WithClosingReads).
	closing *closingReads
	// boardSubmits merges concurrent submitScores calls into shared
	// transactions, on every board.
	boardSubmits *submitQueue[*boardBatch]
	// claims merges concurrent claimReward calls of every board, and claimBoards keeps the boards their writer has read.
	claims      *mergeQueue[*claimCall, *leaderboard.Claim]
	claimBoards *knownBoards
	// logger hears of boards whose time zone cannot be loaded, each once:
	// zoneWarned holds those it heard of.
	logger     *slog.Logger
	zoneWarned *sync.Map
	// erasureKey keys the erasures' hash of a player's id (WithErasureKey).
	erasureKey []byte
	// closePhase hears each phase of a close start; nil but in tests.
	closePhase closePhases
	// progress hears the phases of each period closed on its own
	// (WithCloseProgress); nil for none.
	progress func(board, key string, phase leaderboard.ClosePhase)
	// handoff is where closes hand the periods they close
	// (HandClosedPeriods).
	handoff *handoffs
}

// Option configures a DB.
type Option func(*DB)

// WithLocation sets the event time zone (default UTC).
func WithLocation(loc *time.Location) Option { return func(db *DB) { db.loc = loc } }

// WithCloseGrace sets how long after its calendar end a month still takes
// events (default 0); then it is due to close.
func WithCloseGrace(d time.Duration) Option { return func(db *DB) { db.closeGrace = d } }

// WithSettlement makes closes and corrections record their messages in the
// outbox, for the settlement deliverer to send (default off: settlement is DISABLED).
func WithSettlement(on bool) Option { return func(db *DB) { db.settlement = on } }

// WithLogger sets the logger (default none).
func WithLogger(l *slog.Logger) Option { return func(db *DB) { db.logger = l } }

// WithClock replaces the clock (default time.Now).
func WithClock(now func() time.Time) Option { return func(db *DB) { db.now = now } }

// WithCloseProgress has every close of a period on its own (a large
// period, or one an admin closes; not the group closes of small ones) tell
// progress as each of its phases starts, for logs and metrics.
func WithCloseProgress(progress func(board, key string, phase leaderboard.ClosePhase)) Option {
	return func(db *DB) { db.progress = progress }
}

// WithClosingReads bounds this instance's database reads of CLOSING months
// to limit at once (0: no bound, the default), so that they leave the
// database's CPU to the close; a read waits at most maxWait for its turn,
// then reads anyway. A replica's reads are never bounded: they do not
// compete with the close.
func WithClosingReads(limit int, maxWait time.Duration) Option {
	return func(db *DB) { db.closing = newClosingReads(limit, maxWait) }
}

// minConns is the smallest pool the service works with: a close holds one
// connection for its whole job and reads names on a second.
const minConns = 2

// Limits bound the database calls of the service. Zero values take the
// defaults.
type Limits struct {
	// MaxConns is the pool's size (default 10, at least 2; pool_max_conns
	// in the URL wins).
	MaxConns int32
	// StatementTimeout ends any statement of a request that runs longer
	// (default 10 s); the close, seeds, corrections and exports lift it for
	// their own transactions.
	StatementTimeout time.Duration
	// LockTimeout ends a wait for a lock (default 3 s).
	LockTimeout time.Duration
	// ConnectTimeout bounds opening a connection (default 5 s).
	ConnectTimeout time.Duration
	// SubmitWriters is how many transactions of submitScores calls the
	// instance runs at once (default 2), for every board; calls that arrive
	// meanwhile wait and are written together.
	SubmitWriters int
	// SubmitMergeEvents is the most events one such transaction takes
	// (default 1000, MaxBatch); a call is never split.
	SubmitMergeEvents int
	// ClaimWriters is how many transactions of claimReward calls the
	// instance runs at once (default 1); claims that
	// arrive meanwhile wait and are written together. A claim is a few
	// rows: one writer makes bigger groups, which share more of
	// claim_board_rewards' statements and of the commit's flush.
	ClaimWriters int
	// RetentionBatch is the most rows of a dropped period of a board that
	// retention deletes in one transaction (default 10,000); the period's
	// rows go batch after batch, each under StatementTimeout.
	RetentionBatch int
	// ErasureWorkers is how many periods of any board an erasure erases
	// at once, each in a transaction of its own (default
	// 2): a period's erasure waits on round trips and its commit's flush
	// more than on the database's CPU.
	ErasureWorkers int
	// OwnPartitionPlayers is the fewest players of a period, closed on its
	// own, whose final ranks get a partition of their own, indexed after
	// its rows, instead of joining its month's (default 100,000; migration
	// 27). Each such period adds a relation until retention drops it.
	OwnPartitionPlayers int
}

// WithLimits sets the bounds of database calls.
func WithLimits(l Limits) Option { return func(db *DB) { db.limits = l } }

// Open connects to the database at dsn (a URL or key=value string). It does
// not migrate; call Migrate first.
func Open(ctx context.Context, dsn string, opts ...Option) (*DB, error) {
	db := &DB{loc: time.UTC, now: time.Now, finalBuckets: &sync.Map{},
		claimBoards: &knownBoards{}, closing: newClosingReads(0, 0),
		logger: slog.New(slog.DiscardHandler), zoneWarned: &sync.Map{}, handoff: &handoffs{}}
	for _, opt := range opts {
		opt(db)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, errorf("parse database url: %w", err)
	}
	l := db.limits
	if l.SubmitWriters < 0 || l.SubmitMergeEvents < 0 || l.ClaimWriters < 0 || l.RetentionBatch < 0 || l.ErasureWorkers < 0 ||
		l.OwnPartitionPlayers < 0 {
		return nil, errorf("submit writers (%d), events a submit transaction takes (%d), claim writers (%d), rows a retention batch deletes (%d), erasure workers (%d) and the players of a period with a partition of its own (%d) cannot be negative",
			l.SubmitWriters, l.SubmitMergeEvents, l.ClaimWriters, l.RetentionBatch, l.ErasureWorkers, l.OwnPartitionPlayers)
	}
	writers, mergeEvents := cmp.Or(l.SubmitWriters, defaultSubmitWriters), cmp.Or(l.SubmitMergeEvents, defaultSubmitMergeEvents)
	db.boardSubmits = newSubmitQueue(writers, mergeEvents, db.writeBoardSubmissions)
	db.claims = db.newClaimQueue(cmp.Or(l.ClaimWriters, defaultClaimWriters))
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = cmp.Or(l.MaxConns, 10)
	}
	if cfg.MaxConns < minConns {
		return nil, errorf("a pool of %d connections: at least %d are needed, as a close reads the names of its month's players beside its own transaction",
			cfg.MaxConns, minConns)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = cmp.Or(l.ConnectTimeout, 5*time.Second)
	}
	if !strings.Contains(dsn, "pool_ping_timeout") {
		// A connection idle for a second is pinged before it is handed out;
		// one to a server that no longer answers (a primary lost without a
		// reset) is given up after this, and the request takes another,
		// instead of spending its whole deadline on it.
		cfg.PingTimeout = time.Second
	}
	params := cfg.ConnConfig.RuntimeParams
	params["statement_timeout"] = strconv.FormatInt(cmp.Or(l.StatementTimeout, 10*time.Second).Milliseconds(), 10)
	params["lock_timeout"] = strconv.FormatInt(cmp.Or(l.LockTimeout, 3*time.Second).Milliseconds(), 10)
	// A transaction left open by a stalled client must not hold its locks
	// for ever; the longest the service keeps one idle is a webhook call.
	params["idle_in_transaction_session_timeout"] = "60000"
	// An answer says "stored" only once the commit is on disk, whatever the
	// server's default: a crash must not lose an acknowledged event.
	params["synchronous_commit"] = "on"
	// JIT compiles a plan per execution and, on a bad row estimate, turns a
	// sub-millisecond rank window into many milliseconds.
	params["jit"] = "off"
	// A parallel worker takes milliseconds to start: more than a whole rank
	// window costs. Only the close job, which sorts a month, asks for them.
	params["max_parallel_workers_per_gather"] = "0"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, errorf("open database: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, errorf("reach database: %w", err)
	}
	db.pool = pool
	if db.readURL != "" {
		replicaCfg, err := pgxpool.ParseConfig(db.readURL)
		if err != nil {
			pool.Close()
			return nil, errorf("parse DATABASE_READ_URL: %w", err)
		}
		replicaCfg.MaxConns = cfg.MaxConns
		replicaCfg.ConnConfig.ConnectTimeout = cfg.ConnConfig.ConnectTimeout
		for k, v := range params {
			replicaCfg.ConnConfig.RuntimeParams[k] = v
		}
		replicaPool, err := pgxpool.NewWithConfig(ctx, replicaCfg)
		if err != nil {
			pool.Close()
			return nil, errorf("open the read replica: %w", err)
		}
		view := *db
		view.pool, view.replica, view.readURL, view.closing = replicaPool, nil, "", newClosingReads(0, 0)
		view.primary = db
		db.replica = &view
	}
	return db, nil
}

// longJob lifts the statement and lock timeouts of requests for the rest of
// tx: for the close, seeds, corrections, exports and retention, whose
// statements take as long as a month is large.
func longJob(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `SET LOCAL lock_timeout = '1min'`)
	return err
}

// Close closes every connection, the replica's too, waiting at most
// closeWait for a database that does not answer.
func (db *DB) Close() {
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		db.pool.Close()
		if db.replica != nil {
			db.replica.pool.Close()
		}
	}()
	select {
	case <-closed:
	case <-time.After(closeWait):
	}
}

// closeWait bounds Close. pgx closes a connection whose query was cancelled
// after a cancel request to the server with a fixed 15 s deadline, and the
// pool's Close waits for it: a frozen database would hold a stop that long.
// Past closeWait those connections end in the background.
const closeWait = 3 * time.Second

// WithReadURL adds a streaming replica at dsn for reads that may lag the
// primary a little: Reader returns a view of it.
func WithReadURL(dsn string) Option { return func(db *DB) { db.readURL = dsn } }

// Reader returns the DB to serve reads that may lag the primary (standings,
// pages, months, player names) from: the replica's view when WithReadURL
// was given, otherwise db itself. Reads that must see a write just made (the
// rank of a submitted score, a correction, a close) stay on db.
func (db *DB) Reader() *DB {
	if db.replica != nil {
		return db.replica
	}
	return db
}

// Ping checks that the database answers: on a connection of its own, as a
// pool whose connections are all busy is not an unreachable database, and
// at the same time through the pool; either answering is enough. A new
// connection tries the hosts of a multi-host DATABASE_URL in their order, so
// while the first one hangs (a primary lost without a reset, its standby
// promoted) it spends the whole connect timeout there, longer than a
// readiness probe waits; the pool's connections, made in the background,
// reach the new primary meanwhile and answer for it.
func (db *DB) Ping(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	answers := make(chan error, 2)
	go func() { answers <- db.pingAlone(ctx) }()
	go func() { answers <- db.pool.Ping(ctx) }()
	first := <-answers
	if first == nil {
		return nil
	}
	if second := <-answers; second == nil {
		return nil
	}
	return errorf("reach database: %w", first)
}

// pingAlone pings the database on a new connection.
func (db *DB) pingAlone(ctx context.Context) error {
	conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return conn.Ping(ctx)
}

// MigrateDirection says which way Migrate moves the schema.
type MigrateDirection int

// The directions of Migrate.
const (
	MigrateUp      MigrateDirection = iota // apply every pending migration
	MigrateDownOne                         // revert the newest applied migration
	MigrateDownAll                         // revert every migration
)

// Migrate moves the schema of the database at dsn in the given direction and
// returns the version it ends at. Being at the target already is success.
func Migrate(dsn string, dir MigrateDirection) (version uint, dirty bool, err error) {
	m, closeAll, err := newMigrate(dsn)
	if err != nil {
		return 0, false, err
	}
	defer closeAll()
	switch dir {
	case MigrateUp:
		err = m.Up()
	case MigrateDownOne:
		err = m.Steps(-1)
	case MigrateDownAll:
		err = m.Down()
	}
	if err != nil && !errors.Is(err, migrate.ErrNoChange) && !errors.Is(err, migrate.ErrNilVersion) {
		return 0, false, errorf("migrate: %w", err)
	}
	return schemaVersion(m)
}

// SchemaVersion returns the version the database at dsn is migrated to (0 for
// none) and whether a migration failed halfway.
func SchemaVersion(dsn string) (version uint, dirty bool, err error) {
	m, closeAll, err := newMigrate(dsn)
	if err != nil {
		return 0, false, err
	}
	defer closeAll()
	return schemaVersion(m)
}

func schemaVersion(m *migrate.Migrate) (uint, bool, error) {
	version, dirty, err := m.Version()
	if errors.Is(err, migrate.ErrNilVersion) {
		return 0, false, nil
	}
	return version, dirty, err
}

func newMigrate(dsn string) (*migrate.Migrate, func(), error) {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, nil, errorf("parse database url: %w", err)
	}
	sqlDB := stdlib.OpenDB(*cfg)
	driver, err := migratepgx.WithInstance(sqlDB, &migratepgx.Config{})
	if err != nil {
		sqlDB.Close()
		return nil, nil, errorf("migrate: %w", err)
	}
	src, err := iofs.New(migrations.FS, ".")
	if err != nil {
		sqlDB.Close()
		return nil, nil, errorf("migrate: %w", err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", driver)
	if err != nil {
		sqlDB.Close()
		return nil, nil, errorf("migrate: %w", err)
	}
	return m, func() { m.Close() }, nil
}

// readTx runs fn in a read-only REPEATABLE READ transaction, so that every
// query in fn sees one snapshot.
func (db *DB) readTx(ctx context.Context, fn func(pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, db.pool, pgx.TxOptions{
		IsoLevel:   pgx.RepeatableRead,
		AccessMode: pgx.ReadOnly,
	}, fn)
}

// PoolStats is a moment's view of the connection pool.
type PoolStats struct {
	Max, Total, Acquired, Idle int32
	// Acquires counts every connection handed out; AcquireWait is the time
	// they waited in all; Empty the acquires that had to wait.
	Acquires, Empty int64
	AcquireWait     time.Duration
}

// PoolStats returns the pool's counters, for metrics.
func (db *DB) PoolStats() PoolStats {
	s := db.pool.Stat()
	return PoolStats{Max: s.MaxConns(), Total: s.TotalConns(), Acquired: s.AcquiredConns(), Idle: s.IdleConns(),
		Acquires: s.AcquireCount(), Empty: s.EmptyAcquireCount(), AcquireWait: s.AcquireDuration()}
}
