package db

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"

	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gamebackend/leaderboard"
)

// Rewards: a claim (migration 12) marks a final standing as rewarded, once.
//
// A claim is one short transaction. It takes its period's claims lock
// shared (an advisory lock, migration 16) and reads the period's row again. A correction of the period, which takes that lock
// exclusive, runs wholly before or after it, so that a claim holds the
// final standing as it stands when the claim commits and the correction
// sees every claim it changes; retention, which takes it exclusive too,
// deletes the claims committed before it with the period, and a claim that
// comes after finds no period and answers GONE. The claims' primary key
// decides between claims of the same standing: INSERT ... ON CONFLICT DO
// NOTHING waits for a concurrent insert of the same key to commit, then
// inserts nothing, and the claim reads the winner.
//
// A claim of any board runs that transaction inside the
// server, as the function claim_board_rewards (migrations 14 to 16;
// migration 13's claim_board_reward did it a claim at a time): six
// statements a claim from the client made it a round trip each. Its lock is
// an advisory lock rather than the period's row, and the claims have no
// foreign key to periods, because share locks of one row by two
// transactions (two writers, two instances) make it a MultiXact, rewritten
// with a page and a WAL record at every claim transaction; shared advisory
// locks live in the lock table only (docs/design.md, "Claims of a period").
//
// And the claims that arrive together share a
// transaction, as submissions do (submitqueue.go): a call joins the
// claims' queue, and a writer sends every claim waiting to
// claim_board_rewards, with the rows of the boards it has not read before
// (knownBoards), in one round trip.
// One commit, one flush to the WAL, acknowledges them all, and the
// function runs its statements once a period, not once a claim. It keeps
// the order of a claim alone (the period's claims lock, then the final
// ranks read with a new snapshot, the insert, the read-back), so a merged
// claim holds what a claim alone holds. The claims of a transaction run in
// the order of their key (board, period, player), the same in every
// transaction of every instance: one that waits for another's insert of the
// same key never holds a key that one waits for, so claims cannot deadlock
// each other. Two calls of the same key in one transaction are decided as
// two transactions would decide them: the first inserts, the second reads
// the first's row. When the database refuses the transaction (a period
// CLOSED without final ranks, a lock waited for past lock_timeout, a
// deadlock with retention), nothing was written, and each claim is tried
// again alone, so that none fails another.

// periodClaimsLockClass is the first key of a period's claims lock, an
// advisory lock whose second key is the period's id: claim_board_rewards
// (migration 16) takes it shared, a correction of the period and its
// retention take it exclusive (lockPeriodClaims).
const periodClaimsLockClass = 0x6c627263 // "lbrc"

// lockPeriodClaims waits for the claims of period id in flight to commit,
// and holds off new ones, until tx ends.
func lockPeriodClaims(ctx context.Context, tx pgx.Tx, id int32) error {
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, periodClaimsLockClass, id)
	return err
}

// ClaimReward claims playerID's final standing in period key of board for
// claimID, as leaderboard.RewardService promises.
func (db *DB) ClaimReward(ctx context.Context, board, key, playerID, claimID string) (*leaderboard.Claim, error) {
	if err := leaderboard.CheckBoardID(board); err != nil {
		return nil, err
	}
	if err := leaderboard.CheckPlayerID(playerID); err != nil {
		return nil, err
	}
	if err := leaderboard.CheckClaimID(claimID); err != nil {
		return nil, err
	}
	return db.claimBoardReward(ctx, board, key, playerID, claimID)
}

// gone is the answer to a claim of a board that is not there: the key of a
// period cannot be checked against its reset, and any key a period may have
// is GONE.
func gone(key string) (*leaderboard.Claim, error) {
	if leaderboard.CheckSeasonKey(key) != nil {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT,
			"period must be 1..%d of A-Z, a-z, 0-9, '_', '.' and '-'", leaderboard.MaxSeasonKeyLen)
	}
	return &leaderboard.Claim{Status: leaderboard.ClaimGone}, nil
}

// maxMergedClaims is the most claims one transaction takes.
const maxMergedClaims = 256

// claimCall is a claimReward call, waiting in
// the claims' queue for its transaction.
type claimCall struct {
	board, key, playerID, claimID string
}

func (*claimCall) size() int { return 1 }

// defaultClaimWriters is Limits.ClaimWriters' default: with one writer, 8
// clients claimed 4,136 (4,056-4,216) claims/s against 3,268 (3,247-3,387)
// with two, PostgreSQL spending 0.12 ms a claim instead of 0.21
// (docs/PERFORMANCE.md, rewards, round seven).
const defaultClaimWriters = 1

// newClaimQueue is the queue of claimReward calls of every board, written by writers transactions at once (Limits.ClaimWriters).
func (db *DB) newClaimQueue(writers int) *mergeQueue[*claimCall, *leaderboard.Claim] {
	return newMergeQueue(writers, maxMergedClaims, "claim rewards", db.writeClaims)
}

// claimBoardRewardsSQL claims $1..$4 (boards, period keys, players, claim
// ids, in the order of their key) at $5, with claim_board_rewards
// (migration 16): a row for each claim whose period has a row, with its
// ordinal in the arrays, from 1. A row without a claim has no rank, score,
// participants or reached_at.
const claimBoardRewardsSQL = `SELECT i, status, starts_at, claim_id, claimed_at, COALESCE(rank, 0), COALESCE(score, 0),
		subscore, tier, COALESCE(participants, 0), reached_at, player_name
	FROM claim_board_rewards($1, $2, $3, $4, $5)`

// claimBoardReward is ClaimReward on any board: its call
// waits in the claims' queue and is claimed with the calls written with it.
func (db *DB) claimBoardReward(ctx context.Context, board, key, playerID, claimID string) (*leaderboard.Claim, error) {
	c, err := db.claims.submit(ctx, &claimCall{board: board, key: key, playerID: playerID, claimID: claimID})
	if err != nil {
		return nil, errorf("claim the reward of %q in period %s of %s: %w", playerID, key, board, err)
	}
	return c, nil
}

// writeClaims claims a group of calls in one transaction and answers each;
// calls whose caller has gone are answered without a write. A refusal by
// the database is tried again call by call, so that no claim fails
// another.
func (db *DB) writeClaims(group []*queuedCall[*claimCall, *leaderboard.Claim]) {
	defer answerOnPanic(group)
	live, calls := liveCalls(group, "claim rewards")
	if len(live) == 0 {
		return
	}
	ctx, cancel := whileAnyWaits(live)
	defer cancel()
	answers, err := db.claimBoardRewards(ctx, calls)
	var refused *pgconn.PgError
	if err != nil && len(live) > 1 && errors.As(err, &refused) {
		for _, s := range live {
			alone, err := db.claimBoardRewards(s.ctx, []*claimCall{s.batch})
			if err != nil {
				s.finish(nil, err)
				continue
			}
			s.finish(alone[0].claim, alone[0].err)
		}
		return
	}
	for i, s := range live {
		if err != nil {
			s.finish(nil, err)
			continue
		}
		s.finish(answers[i].claim, answers[i].err)
	}
}

// claimAnswer is the answer to one claim of a transaction: a refusal of
// its input (a malformed period key of a board not there, or one its board
// cannot have) fails only its own call.
type claimAnswer struct {
	claim *leaderboard.Claim
	err   error
}

// claimedRow is a row of claimBoardRewardsSQL.
type claimedRow struct {
	found    bool // the period has a row
	status   string
	startsAt *time.Time
	stored   storedClaim
}

// claimBoardRewards claims calls in one transaction, one round trip:
// claimBoardRewardsSQL, and the rows of the boards the claim writer has not
// read before (claimBoards). It answers each call, in the order of calls,
// or fails as a whole when the database refuses the transaction; then
// nothing was written.
func (db *DB) claimBoardRewards(ctx context.Context, calls []*claimCall) ([]claimAnswer, error) {
	sorted := slices.Clone(calls)
	slices.SortStableFunc(sorted, func(x, y *claimCall) int {
		return cmp.Or(cmp.Compare(x.board, y.board), cmp.Compare(x.key, y.key), cmp.Compare(x.playerID, y.playerID))
	})
	n := len(sorted)
	boardIDs, keys, players, claimIDs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	for i, c := range sorted {
		boardIDs[i], keys[i], players[i], claimIDs[i] = c.board, c.key, c.playerID, c.claimID
	}
	boards := map[string]*leaderboard.Board{}
	var unread []string
	for _, id := range slices.Compact(slices.Clone(boardIDs)) {
		if b := db.claimBoards.get(id); b != nil {
			boards[id] = b
		} else {
			unread = append(unread, id)
		}
	}
	rows := make([]claimedRow, n)
	batch := &pgx.Batch{}
	if len(unread) > 0 {
		batch.Queue(boardsByIDSQL, unread).Query(db.scanBoardsInto(boards))
	}
	batch.Queue(claimBoardRewardsSQL, boardIDs, keys, players, claimIDs, db.now()).Query(func(r pgx.Rows) error {
		for r.Next() {
			var (
				i       int
				row     = claimedRow{found: true}
				reached *time.Time
				s       = &row.stored
			)
			err := r.Scan(&i, &row.status, &row.startsAt, &s.claimID, &s.claimedAt, &s.rank, &s.score, &s.subscore,
				&s.tier, &s.participants, &reached, &s.name)
			if err != nil {
				return err
			}
			if i < 1 || i > n {
				return errorf("claim %d rewards: an answer for claim %d", n, i)
			}
			if reached != nil {
				s.reachedAt = *reached
			}
			rows[i-1] = row
		}
		return r.Err()
	})
	if err := db.pool.SendBatch(ctx, batch).Close(); err != nil {
		return nil, errorf("claim %d rewards: %w", n, err)
	}
	for _, id := range unread {
		if b := boards[id]; b != nil {
			db.claimBoards.put(b)
		}
	}
	// A claim of a period without a row is answered by its board's end,
	// which EndBoard may have brought forward since the board was kept:
	// those boards are read again.
	var ended []string
	for i, c := range sorted {
		if !rows[i].found && boards[c.board] != nil && !slices.Contains(unread, c.board) && !slices.Contains(ended, c.board) {
			ended = append(ended, c.board)
		}
	}
	if len(ended) > 0 {
		r, err := db.pool.Query(ctx, boardsByIDSQL, ended)
		if err != nil {
			return nil, errorf("claim %d rewards: read their boards: %w", n, err)
		}
		if err := db.scanBoardsInto(boards)(r); err != nil {
			return nil, errorf("claim %d rewards: read their boards: %w", n, err)
		}
	}
	answers := make(map[*claimCall]claimAnswer, n)
	for i, c := range sorted {
		claim, err := db.claimOfRow(boards[c.board], c, rows[i])
		answers[c] = claimAnswer{claim, err}
	}
	out := make([]claimAnswer, n)
	for i, c := range calls {
		out[i] = answers[c]
	}
	return out, nil
}

// maxKnownBoards bounds knownBoards: past it, it starts afresh.
const maxKnownBoards = 100_000

// knownBoards keeps the boards the claim writer has read. All that the
// answer to a claim of a period with a row takes from its board (its id,
// reset and time zone) never changes, and a board is never deleted, so a
// board read once answers every later claim of its periods; its end, which
// EndBoard can bring forward, is read again where an answer needs it. It is
// safe for concurrent use; its zero value is empty.
type knownBoards struct {
	mu     sync.Mutex
	boards map[string]*leaderboard.Board
}

// get returns the board of id, or nil when it is not known.
func (k *knownBoards) get(id string) *leaderboard.Board {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.boards[id]
}

// put keeps b, unless its time zone is not loaded: an operator may set
// one that loads (ZoneError), and the next read must see it.
func (k *knownBoards) put(b *leaderboard.Board) {
	if b.Location == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.boards == nil || len(k.boards) >= maxKnownBoards {
		k.boards = map[string]*leaderboard.Board{}
	}
	k.boards[b.ID] = b
}

// claimOfRow is the answer to call c of board b (nil when it is not there)
// whose claim_board_rewards answered row. The claim ran before the key was
// checked against the board's reset; a key the board cannot have names no
// period's row, so that claim found no period and changed nothing.
func (db *DB) claimOfRow(b *leaderboard.Board, c *claimCall, row claimedRow) (*leaderboard.Claim, error) {
	if b == nil {
		return gone(c.key)
	}
	span, err := b.PeriodSpan(c.key)
	switch {
	case err != nil:
		return nil, err
	case !row.found:
		return &leaderboard.Claim{Status: db.missingPeriodStatus(b, span)}, nil
	case row.status != string(leaderboard.PeriodClosed):
		return &leaderboard.Claim{Status: leaderboard.ClaimNotFinal}, nil
	case row.stored.claimID == nil:
		return &leaderboard.Claim{Status: leaderboard.ClaimNoStanding}, nil
	}
	return row.stored.claim(b, c.key, b.MonthOfPeriod(c.key, *row.startsAt), c.playerID, c.claimID), nil
}

// storedClaim is a claims row, with the name of its player.
type storedClaim struct {
	claimID      *string
	claimedAt    *time.Time
	rank, score  int
	subscore     *int
	tier         *string
	participants int
	reachedAt    time.Time
	name         *string
}

// claim is c as seen by claimID: CLAIMED when it won, ALREADY_CLAIMED when
// another did.
func (c storedClaim) claim(b *leaderboard.Board, key string, month leaderboard.Month, playerID, claimID string) *leaderboard.Claim {
	s := leaderboard.Standing{Board: b.ID, Period: key, Final: true, Month: month, Total: c.participants, Tier: c.tier,
		ClaimedAt: c.claimedAt}
	s.Rank, s.Score, s.Subscore, s.ReachedAt = c.rank, c.score, c.subscore, c.reachedAt
	s.Player.ID, s.Player.Name = playerID, c.name
	status := leaderboard.ClaimClaimed
	if *c.claimID != claimID {
		status = leaderboard.ClaimAlreadyClaimed
	}
	return &leaderboard.Claim{Status: status, ClaimID: c.claimID, ClaimedAt: c.claimedAt, Standing: &s}
}

// missingPeriodStatus is the answer to a claim of a period of b with span
// that has no row: NOT_FINAL while it has not ended (a NONE board's period
// without an end never does), GONE once it has (no event opened it, or
// retention dropped it) and for a season b does not have.
func (db *DB) missingPeriodStatus(b *leaderboard.Board, span leaderboard.Span) leaderboard.ClaimStatus {
	end, grace := span.End, b.CloseGrace
	switch {
	case b.Reset == leaderboard.ResetSeason, b.EndsAt != nil && !span.Start.Before(*b.EndsAt):
		return leaderboard.ClaimGone
	case end == nil || db.now().Before(end.Add(grace)):
		return leaderboard.ClaimNotFinal
	}
	return leaderboard.ClaimGone
}

// ClaimedAt returns when playerID's standing in period key of board was
// claimed, nil when it was not.
func (db *DB) ClaimedAt(ctx context.Context, board, key, playerID string) (*time.Time, error) {
	const q = `SELECT claimed_at FROM claims WHERE board_id = $1 AND period_key = $2 AND player_id = $3`
	var at time.Time
	err := db.pool.QueryRow(ctx, q, board, key, playerID).Scan(&at)
	switch {
	case noRows(err):
		return nil, nil
	case err != nil:
		return nil, errorf("read the claim of %q in period %s of %s: %w", playerID, key, board, err)
	}
	return &at, nil
}

// ownBucketSQL is ownBucket as an SQL literal.
const ownBucketSQL = `DATE '0001-01-01'`

// unclaimedWalkSQL reads up to $2 of player $1's final standings in CLOSED
// periods of any board that no claim holds, those that ended
// last first, among the $3 CLOSED periods of every board that ended last.
// It walks periods_closed_ended_idx (migration 13) and probes each period
// for the player's final rank and for a claim, and stops at the page: for
// a player who played the latest periods, a page of fifty is about fifty
// probes whatever their number of periods. A period's rank is the player
// index of the one partition of its month's final_bucket, or, for a period
// whose final ranks have a partition of their own, which has no such index
// (migration 29), the player's scores row by its primary key and their rank
// (own_final_ranks); the condition on the bucket only, in each branch,
// runs one of them. The LIMIT 1 keeps the probe a parameterized one, which
// the planner would otherwise turn into a hash join over all the player's
// periods. When it answers a full page, that page is exact: the periods
// after the $3 come after each of them in the order. When it does not,
// unclaimedBoardSQL answers.
const unclaimedWalkSQL = `SELECT m.board_id, m.key, m.starts_at, m.ended, m.participants,
		f.rank, f.score, f.subscore, f.reached_at, f.metadata, f.cohort_rank, f.cohort_size
	FROM (SELECT p.id, p.final_bucket, p.board_id, p.key, p.starts_at, COALESCE(p.ends_at, p.closed_at) AS ended,
			p.participants
		FROM periods p WHERE p.status = 'CLOSED'
		ORDER BY ended DESC, p.board_id, p.key
		LIMIT $3) m
	CROSS JOIN LATERAL (SELECT f.rank, f.score, f.subscore, f.reached_at, f.metadata, f.cohort_rank, f.cohort_size
		FROM board_final_ranks f
		WHERE m.final_bucket <> ` + ownBucketSQL + ` AND f.bucket = m.final_bucket AND f.period_id = m.id
			AND f.player_id = $1
		UNION ALL
		SELECT f.rank, f.score, f.subscore, f.reached_at, f.metadata, f.cohort_rank, f.cohort_size
		FROM own_final_ranks(m.id, ARRAY[$1::text]) f
		WHERE m.final_bucket = ` + ownBucketSQL + `
		LIMIT 1) f
	WHERE NOT EXISTS (SELECT 1 FROM claims c WHERE c.board_id = m.board_id AND c.period_key = m.key AND c.player_id = $1)
	ORDER BY m.ended DESC, m.board_id, m.key
	LIMIT $2`

// unclaimedWalkPeriods is how many of the periods that ended last, per
// standing asked for, unclaimedWalkSQL walks before it gives up on a page
// to unclaimedBoardSQL: a player who has not played the latest periods
// costs that many probes more than unclaimedBoardSQL alone.
const unclaimedWalkPeriods = 10

// unclaimedBoardSQL is unclaimedWalkSQL for a player whose page lies beyond
// the periods that walk reads: one range of the player index of each
// month's partition, and a probe of each period whose final ranks have a
// partition of their own (few: only large periods have one) for the player's scores row and their rank
// (own_final_ranks), then a probe of periods by id and one of claims by key
// per standing, and a sort of them all.
const unclaimedBoardSQL = `SELECT p.board_id, p.key, p.starts_at, COALESCE(p.ends_at, p.closed_at) AS ended,
		p.participants, r.rank, r.score, r.subscore, r.reached_at, r.metadata, r.cohort_rank, r.cohort_size
	FROM (SELECT r.* FROM board_final_ranks r WHERE r.player_id = $1 AND r.bucket <> ` + ownBucketSQL + `
		UNION ALL
		SELECT r.* FROM periods o CROSS JOIN LATERAL own_final_ranks(o.id, ARRAY[$1::text]) r
		WHERE o.final_bucket = ` + ownBucketSQL + `) r
	JOIN periods p ON p.id = r.period_id AND p.final_bucket = r.bucket
	WHERE p.status = 'CLOSED'
		AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.board_id = p.board_id AND c.period_key = p.key AND c.player_id = $1)
	ORDER BY ended DESC, p.board_id, p.key
	LIMIT $2`

// unclaimed is one of a player's unclaimed final standings and when its
// period ended.
type unclaimed struct {
	standing leaderboard.Standing
	ended    time.Time
	startsAt time.Time // a board's period's start, for its Month
	// place is the standing's place in its cohort, read with it, on a
	// board with cohorts.
	place cohortPlace
}

// UnclaimedRewards returns up to first of playerID's final standings in the
// CLOSED periods of every board, main's months included, that no claim
// holds, those whose period ended last first, each with its tier and no
// neighbours. EBADINPUT for a malformed player id.
func (db *DB) UnclaimedRewards(ctx context.Context, playerID string, first int) ([]leaderboard.Standing, error) {
	if err := leaderboard.CheckPlayerID(playerID); err != nil {
		return nil, err
	}
	if first <= 0 {
		return []leaderboard.Standing{}, nil
	}
	// The boards' standings, main's months and the player's name: one
	// round trip.
	var (
		found []unclaimed
		name  *string
	)
	reads := &pgx.Batch{}
	reads.Queue(unclaimedWalkSQL, playerID, first, unclaimedWalkPeriods*first).Query(func(rows pgx.Rows) error {
		var err error
		found, err = pgx.CollectRows(rows, scanUnclaimedOfBoard(playerID))
		return err
	})
	const readName = `SELECT name FROM players WHERE id = $1`
	reads.Queue(readName, playerID).QueryRow(func(row pgx.Row) error {
		if err := row.Scan(&name); !noRows(err) {
			return err
		}
		return nil
	})
	if err := db.pool.SendBatch(ctx, reads).Close(); err != nil {
		return nil, errorf("read the unclaimed rewards of %q: %w", playerID, err)
	}
	if len(found) < first {
		rows, err := db.pool.Query(ctx, unclaimedBoardSQL, playerID, first)
		if err == nil {
			found, err = pgx.CollectRows(rows, scanUnclaimedOfBoard(playerID))
		}
		if err != nil {
			return nil, errorf("read the unclaimed rewards of %q: %w", playerID, err)
		}
	}
	slices.SortStableFunc(found, func(x, y unclaimed) int {
		return cmp.Or(y.ended.Compare(x.ended), cmp.Compare(x.standing.Board, y.standing.Board),
			cmp.Compare(x.standing.Period, y.standing.Period))
	})
	found = found[:min(first, len(found))]
	standings := make([]leaderboard.Standing, len(found))
	boards := map[string]*leaderboard.Board{}
	for i, u := range found {
		s := u.standing
		b, ok := boards[s.Board]
		if !ok {
			var err error
			if b, err = db.Board(ctx, s.Board); err != nil {
				return nil, err
			}
			boards[s.Board] = b
		}
		if b != nil {
			s.Tier = b.TierOf(s.Rank, s.Total)
			if b.HasCohorts() {
				s.Tier = tierOfPlace(b, u.place)
			}
			s.Month = b.MonthOfPeriod(s.Period, u.startsAt)
			s.Player.Name = name
		}
		standings[i] = s
	}
	return slices.DeleteFunc(standings, func(s leaderboard.Standing) bool { return s.Board == "" }), nil
}

// scanUnclaimedOfBoard scans a row of unclaimedWalkSQL or unclaimedBoardSQL
// for playerID.
func scanUnclaimedOfBoard(playerID string) pgx.RowToFunc[unclaimed] {
	return func(row pgx.CollectableRow) (unclaimed, error) {
		var (
			u           unclaimed
			metadata    []byte
			place, size *int32
		)
		s := &u.standing
		err := row.Scan(&s.Board, &s.Period, &u.startsAt, &u.ended, &s.Total, &s.Rank, &s.Score, &s.Subscore,
			&s.ReachedAt, &metadata, &place, &size)
		if place != nil && size != nil {
			u.place = cohortPlace{rank: *place, size: *size}
		}
		s.Player.ID, s.Final = playerID, true
		if metadata != nil {
			s.Metadata = json.RawMessage(metadata)
		}
		return u, err
	}
}
