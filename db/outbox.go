package db

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// The settlement outbox: a close or correction writes its message in its own
// transaction, so a message exists exactly when its change committed. The
// settlement package delivers them through ClaimMessages and RecordDelivery.

// messageTop is how many of the top players a message lists.
const messageTop = 100

// The types of messages.
const (
	messageClosed    = "month.closed"
	messageCorrected = "month.corrected"
)

// monthMessage is the JSON body of a message, stored and sent byte for byte.
type monthMessage struct {
	ID           string          `json:"id"`
	Type         string          `json:"type"`
	Month        string          `json:"month"`
	Board        string          `json:"board,omitempty"` // empty on main's bodies (periodMessageOf)
	Period       string          `json:"period,omitempty"`
	ClosedAt     time.Time       `json:"closedAt"`
	Participants int64           `json:"participants"`
	Digest       string          `json:"digest"`
	Top          []messageEntry  `json:"top"`
	Correction   *messageCorrect `json:"correction,omitempty"`
	// Only when a correction changed claims: a month without claims keeps
	// the body its month.corrected always had.
	ChangedClaims []changedClaim `json:"changedClaims,omitempty"`
	// Only in the close of a MONTH board with cohorts (periodleagues.go).
	Cohorts *int          `json:"cohorts,omitempty"`
	Leagues []leagueMoves `json:"leagues,omitempty"`
}

// messageEntry is one of a message's top players.
type messageEntry struct {
	Rank     int     `json:"rank"`
	PlayerID string  `json:"playerId"`
	Name     *string `json:"name"`
	Score    int     `json:"score"`
}

// messageCorrect is the correction a month.corrected message announces.
type messageCorrect struct {
	ID       string    `json:"id"`
	PlayerID string    `json:"playerId"`
	Before   *int      `json:"before"`
	After    *int      `json:"after"`
	Reason   string    `json:"reason"`
	At       time.Time `json:"at"`
	// Erasure is set on the correction of an erasure (erasePlayer), whose
	// playerId is then empty.
	Erasure *string `json:"erasure,omitempty"`
	// The claims it changed, which the message lists beside it.
	changedClaims []changedClaim
}

// messageCorrectOf is how a message announces correction c.
func messageCorrectOf(c *leaderboard.Correction) *messageCorrect {
	return &messageCorrect{ID: c.ID, PlayerID: c.PlayerID, Before: c.Before, After: c.After, Reason: c.Reason, At: c.At,
		Erasure: c.Erasure}
}

// outboxChannel is the NOTIFY channel on which a committed transaction that
// recorded messages announces them (a trigger on outbox, migration 18).
const outboxChannel = "leaderboard_outbox"

// claimMessagesSQL leases up to $1 due messages for $2 milliseconds: each
// the oldest undelivered message of its period (main's months are periods),
// so that the messages of one period go out one at a time and in order,
// and none that another claim holds. A lease moves the
// message's next attempt to the lease's end: no other claim takes it
// meanwhile, and if its deliverer is lost it is due again then.
//
// Its plan depends on no statistics (migration 18): the due messages are a
// range of outbox_due_idx, read in order until $1 are found; the NOT
// EXISTS is one probe of the pending messages of the candidate's period in
// outbox_period_pending_idx (migration 28). OFFSET 0 keeps it a
// probe per candidate: a join would let the planner read every pending
// message at once.
const claimMessagesSQL = `WITH due AS (
		SELECT o.id FROM outbox o
		WHERE o.next_attempt_at <= clock_timestamp()
		AND NOT EXISTS (SELECT 1 FROM outbox p
			WHERE p.period_id = o.period_id AND p.delivered_at IS NULL AND (p.created_at, p.id) < (o.created_at, o.id) OFFSET 0)
		ORDER BY o.next_attempt_at LIMIT $1
		FOR UPDATE OF o SKIP LOCKED)
	UPDATE outbox o SET next_attempt_at = clock_timestamp() + $2::bigint * interval '1 millisecond'
	FROM due WHERE o.id = due.id
	RETURNING o.id, o.type, o.board_id, (SELECT k.key FROM periods k WHERE k.board_id = o.board_id AND k.id = o.period_id),
		o.body, o.attempts, o.next_attempt_at`

// ClaimMessages leases up to n due messages for lease and returns them,
// oldest due first: at most one of each period, and that one only when
// every older message of its period is delivered. Until its
// lease ends no other claim takes a message; then, its outcome unrecorded
// (its deliverer lost), it is due again. Its LeasedUntil says when.
func (db *DB) ClaimMessages(ctx context.Context, n int, lease time.Duration) ([]leaderboard.Message, error) {
	rows, _ := db.pool.Query(ctx, claimMessagesSQL, n, lease.Milliseconds())
	msgs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (leaderboard.Message, error) {
		var (
			msg  leaderboard.Message
			body string
		)
		err := row.Scan(&msg.ID, &msg.Type, &msg.Board, &msg.Period, &body, &msg.Attempts, &msg.LeasedUntil)
		msg.Body = []byte(body)
		return msg, err
	})
	if err != nil {
		return nil, errorf("claim settlement messages: %w", err)
	}
	return msgs, nil
}

// RecordDelivery records the outcome of an attempt at msg, which
// ClaimMessages returned: delivered when sendErr is nil, whatever became of
// the lease, since the webhook has it; otherwise the attempt failed with
// sendErr and the message is due again retryIn from now, unless its lease
// ended and another claim took it, whose outcome then stands.
func (db *DB) RecordDelivery(ctx context.Context, msg leaderboard.Message, sendErr error, retryIn time.Duration) error {
	const delivered = `UPDATE outbox SET attempts = attempts + 1, delivered_at = clock_timestamp(), last_error = NULL,
			next_attempt_at = NULL
		WHERE id = $1 AND delivered_at IS NULL`
	const failed = `UPDATE outbox SET attempts = attempts + 1, last_error = $3,
			next_attempt_at = clock_timestamp() + $4::bigint * interval '1 millisecond'
		WHERE id = $1 AND delivered_at IS NULL AND next_attempt_at = $2`
	var err error
	if sendErr == nil {
		_, err = db.pool.Exec(ctx, delivered, msg.ID)
	} else {
		_, err = db.pool.Exec(ctx, failed, msg.ID, msg.LeasedUntil, truncate(sendErr.Error(), 500), retryIn.Milliseconds())
	}
	if err != nil {
		return errorf("record the delivery of settlement message %s: %w", msg.ID, err)
	}
	return nil
}

// NextMessageIn returns how long, by the database's clock, until the
// earliest undelivered message that is not yet due is due (a retry's
// backoff or a lease's end); false when no message waits for a time to come.
func (db *DB) NextMessageIn(ctx context.Context) (time.Duration, bool, error) {
	const q = `SELECT ceil(EXTRACT(EPOCH FROM min(next_attempt_at) - clock_timestamp()) * 1000)::bigint
		FROM outbox WHERE next_attempt_at > clock_timestamp()`
	var ms *int64
	if err := db.pool.QueryRow(ctx, q).Scan(&ms); err != nil {
		return 0, false, errorf("find the next settlement attempt: %w", err)
	}
	if ms == nil {
		return 0, false, nil
	}
	return time.Duration(max(*ms, 0)) * time.Millisecond, true, nil
}

// ListenOutbox calls fn once it listens, then each time a transaction that
// recorded settlement messages commits, on any instance, until ctx ends or
// the connection fails or its server stops answering (a lost primary); it
// then returns why. Messages recorded while no one listens are found by the
// next ClaimMessages.
func (db *DB) ListenOutbox(ctx context.Context, fn func()) error {
	err := db.listenReady(ctx, []string{outboxChannel}, fn, func(string, string) { fn() })
	return errorf("listen for settlement messages: %w", err)
}

// truncate returns s cut to at most n bytes, on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
