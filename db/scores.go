package db

import (
	"context"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// maxAttempts bounds how often withRetries runs a batch again after
// losing a race with a concurrent batch (same new player, same event id, deadlock).
const maxAttempts = 10

// errContention is the answer when a batch lost its race every time: the
// client retries it later, and its events apply once.
var errContention = leaderboard.Errorf(leaderboard.EUNAVAILABLE,
	"too many concurrent submissions for the same players: retry the call")

// retryPause returns a random pause before attempt n+1 of a batch that lost
// a race, growing with n: racing batches drift apart instead of colliding
// again in step.
func retryPause(n int) time.Duration {
	return time.Duration(1+rand.IntN(1<<min(n, 6))) * time.Millisecond
}

// SubmitScores applies events in the order given and returns one result per
// event, on every board, main included (boardsubmit.go). Every result is
// decided in Go from rows locked up front, then written with a few
// set-based statements, in one transaction that may hold other calls'
// events too (see submitqueue.go), so each event is applied atomically on
// its own and nothing is acknowledged before it is committed. EBADINPUT when
// there are more than MaxBatch events.
func (db *DB) SubmitScores(ctx context.Context, events []leaderboard.ScoreEvent) ([]leaderboard.ScoreResult, error) {
	if len(events) > leaderboard.MaxBatch {
		return nil, leaderboard.Errorf(leaderboard.EBADINPUT,
			"a call takes at most %d events, got %d", leaderboard.MaxBatch, len(events))
	}
	return db.submitBoardScores(ctx, events, db.now())
}

// withRetries runs apply until it succeeds: again after open made what its
// error said was missing (open reports whether the error was of that kind),
// and again, after a growing random pause, after a lost race with a
// concurrent transaction, at most maxAttempts times.
func withRetries(ctx context.Context, apply func() ([]leaderboard.ScoreResult, error),
	open func(error) (bool, error)) ([]leaderboard.ScoreResult, error) {
	for attempt := 1; ; attempt++ {
		results, err := apply()
		if err == nil {
			return results, nil
		}
		// Nothing was written; open what is missing and apply again.
		if opened, openErr := open(err); openErr != nil {
			return nil, openErr
		} else if opened {
			continue
		}
		switch {
		case !isRetryable(err):
			return nil, errorf("submit scores: %w", err)
		case attempt >= maxAttempts:
			return nil, errors.Join(errContention, err)
		}
		select {
		case <-ctx.Done():
			return nil, errorf("submit scores: %w", ctx.Err())
		case <-time.After(retryPause(attempt)):
		}
	}
}

// queueSeqs queues the reservation of n sequence numbers, in ascending order:
// as many as rows the batch may change. Numbers it does not use leave gaps,
// which only order ties.
func queueSeqs(reads *pgx.Batch, n int) *[]int64 {
	const q = `SELECT nextval('score_seq') FROM generate_series(1, $1) ORDER BY 1`
	seqs := new([]int64)
	reads.Queue(q, n).Query(func(rows pgx.Rows) error {
		var err error
		if *seqs, err = pgx.CollectRows(rows, pgx.RowTo[int64]); err != nil {
			return errorf("reserve sequence numbers: %w", err)
		}
		return nil
	})
	return seqs
}

// keepLatestName records e's player in names with the name e carried, unless
// an earlier event of the batch named them and e names no one.
func keepLatestName(names map[string]*string, e leaderboard.ScoreEvent) {
	if e.PlayerName != nil || names[e.PlayerID] == nil {
		names[e.PlayerID] = e.PlayerName
	}
}

// queueNames upserts the players of names with their names, in id order so
// that concurrent batches lock alike.
func queueNames(writes *pgx.Batch, names map[string]*string) {
	if len(names) == 0 {
		return
	}
	ids := slices.Sorted(maps.Keys(names))
	values := make([]*string, len(ids))
	for i, id := range ids {
		values[i] = names[id]
	}
	writes.Queue(upsertPlayers, ids, values)
}

// upsertPlayers stores players $1 with names $2, in id order; a nil name
// leaves the stored one.
const upsertPlayers = `INSERT INTO players (id, name)
	SELECT id, name FROM unnest($1::text[], $2::text[]) AS p(id, name) ORDER BY id
	ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, updated_at = now()
	WHERE EXCLUDED.name IS NOT NULL AND players.name IS DISTINCT FROM EXCLUDED.name`
