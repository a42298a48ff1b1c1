package db

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// The settlement outbox: a close or correction writes its message in its own
// transaction, so a message exists exactly when its change committed. The
// settlement package delivers them through DeliverNext.

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
	Board        string          `json:"board,omitempty"` // a MONTH board's but main's
	Period       string          `json:"period,omitempty"`
	ClosedAt     time.Time       `json:"closedAt"`
	Participants int64           `json:"participants"`
	Digest       string          `json:"digest"`
	Top          []messageEntry  `json:"top"`
	Correction   *messageCorrect `json:"correction,omitempty"`
	// Only when a correction changed claims: a month without claims keeps
	// the body its month.corrected always had.
	ChangedClaims []changedClaim `json:"changedClaims,omitempty"`
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
	// The claims it changed, which the message lists beside it.
	changedClaims []changedClaim
}

// insertMessage records msg for month m with a fresh id.
func insertMessage(ctx context.Context, tx pgx.Tx, m leaderboard.Month, msg monthMessage) error {
	id := make([]byte, 16)
	rand.Read(id)
	msg.ID = "evt_" + hex.EncodeToString(id)
	body, err := json.Marshal(msg)
	if err != nil {
		return errorf("encode %s message: %w", msg.Type, err)
	}
	const q = `INSERT INTO outbox (id, type, month, body) VALUES ($1, $2, $3, $4)`
	if _, err := tx.Exec(ctx, q, msg.ID, msg.Type, m.Date(), string(body)); err != nil {
		return errorf("record %s message: %w", msg.Type, err)
	}
	return nil
}

// DeliverNext claims the oldest due message that no other instance holds and
// whose month (or period) has no older message undelivered, calls send with it, and
// records the outcome: delivered when send returns nil, otherwise the error
// and the next attempt, retryIn(attempts) from now. The message stays locked
// while send runs, so one instance at a time delivers it. It returns false
// when no message is due.
func (db *DB) DeliverNext(ctx context.Context, send func(context.Context, leaderboard.Message) error,
	retryIn func(attempts int) time.Duration) (bool, error) {
	// A message has a month (main's) or a period (another board's): each
	// NOT EXISTS finds nothing for the other kind, whose key is null.
	const claim = `SELECT o.id, o.type, o.month, COALESCE(o.board_id, ''),
			COALESCE((SELECT k.key FROM periods k WHERE k.board_id = o.board_id AND k.id = o.period_id), ''),
			o.body, o.attempts
		FROM outbox o
		WHERE o.delivered_at IS NULL AND o.next_attempt_at <= clock_timestamp()
		AND NOT EXISTS (SELECT 1 FROM outbox p
			WHERE p.month = o.month AND p.delivered_at IS NULL AND p.created_at < o.created_at)
		AND NOT EXISTS (SELECT 1 FROM outbox p
			WHERE p.period_id = o.period_id AND p.delivered_at IS NULL AND p.created_at < o.created_at)
		ORDER BY o.created_at LIMIT 1 FOR UPDATE OF o SKIP LOCKED`
	const delivered = `UPDATE outbox SET attempts = attempts + 1, delivered_at = clock_timestamp(), last_error = NULL
		WHERE id = $1`
	const failed = `UPDATE outbox SET attempts = attempts + 1, last_error = $2, next_attempt_at = clock_timestamp() + $3::bigint * interval '1 millisecond'
		WHERE id = $1`
	found := false
	err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
		var (
			msg  leaderboard.Message
			date *time.Time
			body string
		)
		err := tx.QueryRow(ctx, claim).Scan(&msg.ID, &msg.Type, &date, &msg.Board, &msg.Period, &body, &msg.Attempts)
		if noRows(err) {
			return nil
		} else if err != nil {
			return err
		}
		found = true
		if date != nil {
			msg.Month = leaderboard.MonthFromDate(*date)
		}
		msg.Body = []byte(body)
		if sendErr := send(ctx, msg); sendErr != nil {
			wait := retryIn(msg.Attempts + 1)
			_, err = tx.Exec(ctx, failed, msg.ID, truncate(sendErr.Error(), 500), wait.Milliseconds())
			return err
		}
		_, err = tx.Exec(ctx, delivered, msg.ID)
		return err
	})
	if err != nil {
		return found, errorf("deliver settlement message: %w", err)
	}
	return found, nil
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
