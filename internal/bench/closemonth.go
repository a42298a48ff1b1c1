package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/gamebackend/leaderboard"
)

// CloseResult is what closing a month measured.
type CloseResult struct {
	Wall time.Duration
	// Polled is true when closeMonth answered before the month was CLOSED
	// (it answers CLOSING once its wait is over) or its answer was lost (a
	// server may give up on a long write), and Wall is when polling first
	// saw the month CLOSED.
	Polled bool
	// AnswerError is why the answer was lost, when it was; "" when
	// closeMonth answered CLOSING.
	AnswerError string
	// Readers measured standing reads of the month, over HTTP, while it
	// closed: the month must stay readable.
	Readers RunStats
	// WALBytes is the write-ahead log the database wrote meanwhile.
	WALBytes int64
}

// closeQuery closes a month with the admin token.
const closeQuery = `mutation Close($month: Month!) { closeMonth(month: $month) { status participants } }`

// CloseMonth closes month m through the service's closeMonth mutation and
// times it, while readers clients read standings of players drawn by pick
// in m. It returns an error when the month did not end up CLOSED with
// players participants.
func CloseMonth(ctx context.Context, c *GraphQL, adminToken string, m leaderboard.Month, players int, pick Picker, readers int) (CloseResult, error) {
	var res CloseResult
	readCtx, stopReading := context.WithCancel(ctx)
	readersDone := make(chan RunStats, 1)
	// The month is OPEN, then CLOSING (read live), then CLOSED (read from
	// its final ranks): the readers accept either. A read in flight when
	// they stop is let finish.
	read := func(client int) Op {
		op := HTTPStanding(c, m, pick, ExpectEither)(0, client)
		return func(ctx context.Context) error { return op(context.WithoutCancel(ctx)) }
	}
	go func() {
		readersDone <- Load{Clients: readers, Duration: 24 * time.Hour}.Run(readCtx, read)
	}()
	// Let the readers get going before the close starts.
	time.Sleep(200 * time.Millisecond)

	target := MonthClosable(c, adminToken, m)
	start := time.Now()
	state, err := target.Close(ctx)
	end := time.Now()
	switch {
	case err != nil && ctx.Err() == nil:
		// The close goes on in the server: wait for it.
		res.Polled, res.AnswerError = true, err.Error()
		end, state, err = awaitClosed(ctx, target, 250*time.Millisecond)
	case err == nil && state.Status != "CLOSED":
		// closeMonth answers CLOSING once its wait is over; the job goes on.
		res.Polled = true
		end, state, err = awaitClosed(ctx, target, 250*time.Millisecond)
	}
	res.Wall = end.Sub(start)
	stopReading()
	res.Readers = <-readersDone
	if err != nil {
		return res, fmt.Errorf("close %s: %w", m, err)
	}
	if state.Status != "CLOSED" || state.Participants != players {
		return res, fmt.Errorf("close %s: status %s with %d participants, want CLOSED with %d",
			m, state.Status, state.Participants, players)
	}
	return res, nil
}
