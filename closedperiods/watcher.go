package closedperiods

import (
	"sync"

	"github.com/gamebackend/leaderboard"
)

// Watcher keeps an instance's memory of closed months true to the database:
// told of each month's final ranks version, by announcement (Changed) or by
// the scheduler's check of every version (Check), it calls onChange for a
// month whose version changed, which has the month read afresh.
//
// The first Check only records the versions: at start, nothing of those
// months is in memory yet, and the preload of closed months loads them.
type Watcher struct {
	mu       sync.Mutex
	seen     map[leaderboard.Month]int
	primed   bool
	onChange func(leaderboard.Month)
}

// NewWatcher returns a watcher that calls onChange for each month whose
// final ranks changed.
func NewWatcher(onChange func(leaderboard.Month)) *Watcher {
	return &Watcher{seen: map[leaderboard.Month]int{}, onChange: onChange}
}

// Changed tells the watcher month m's final ranks are at version.
func (w *Watcher) Changed(m leaderboard.Month, version int) {
	w.mu.Lock()
	known, ok := w.seen[m]
	w.seen[m] = version
	w.mu.Unlock()
	if !ok || known != version {
		w.onChange(m)
	}
}

// Check tells the watcher every closed month's version, as read from the
// database.
func (w *Watcher) Check(versions map[leaderboard.Month]int) {
	w.mu.Lock()
	primed := w.primed
	w.primed = true
	w.mu.Unlock()
	for m, version := range versions {
		if primed {
			w.Changed(m, version)
		} else {
			w.Record(m, version)
		}
	}
}

// Record notes month m's version without a change: what this instance holds
// of m is already of that version.
func (w *Watcher) Record(m leaderboard.Month, version int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen[m] = version
}
