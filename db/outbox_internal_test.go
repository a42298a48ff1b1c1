package db

import (
	"context"
	"time"

	"github.com/gamebackend/leaderboard"
)

// DeliverNext is one step of a deliverer, for the tests of what delivery
// finds in the outbox: it claims the next due message, calls send with it
// and records the outcome, due again retryIn(attempts) later after a
// failure. It returns false when no message is due.
func (db *DB) DeliverNext(ctx context.Context, send func(context.Context, leaderboard.Message) error,
	retryIn func(attempts int) time.Duration) (bool, error) {
	msgs, err := db.ClaimMessages(ctx, 1, time.Minute)
	if err != nil || len(msgs) == 0 {
		return false, err
	}
	msg := msgs[0]
	sendErr := send(ctx, msg)
	return true, db.RecordDelivery(ctx, msg, sendErr, retryIn(msg.Attempts+1))
}

// ExplainClaimMessages runs the claim of up to n messages under EXPLAIN
// (ANALYZE, FORMAT JSON) in a transaction it rolls back, and returns the
// plan: what the claim read, and through which indexes.
func (db *DB) ExplainClaimMessages(ctx context.Context, n int) ([]byte, error) {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx)
	var plan []byte
	err = tx.QueryRow(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+claimMessagesSQL, n, time.Minute.Milliseconds()).Scan(&plan)
	return plan, err
}
