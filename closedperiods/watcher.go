package closedperiods

import (
	"context"
	"sync"
)

// Watcher keeps an instance's memory of closed periods true to the
// database, on every board: told of a period's final ranks version, by
// announcement (Changed) or by the scheduler's check of the versions
// (Check), it calls onChange for a period whose version changed, which has
// the period read afresh, and with version 0 for a period no longer CLOSED
// (dropped). What onChange does with a version already in memory is
// nothing: the first check of a period held reports it, once.
type Watcher struct {
	mu       sync.Mutex
	seen     map[periodKey]int
	onChange func(board, key string, version int)
}

// VersionSource tells the versions of closed periods.
type VersionSource interface {
	// ClosedPeriodVersions calls fn with the ranks version of each of the
	// periods, boards[i]'s keys[i], that is CLOSED.
	ClosedPeriodVersions(ctx context.Context, boards, keys []string, fn func(board, key string, version int)) error
}

// NewWatcher returns a watcher that calls onChange for each period whose
// final ranks changed.
func NewWatcher(onChange func(board, key string, version int)) *Watcher {
	return &Watcher{seen: map[periodKey]int{}, onChange: onChange}
}

// Changed tells the watcher period key of board's final ranks are at
// version.
// A version lower than one already told, but 0, is ignored: versions only
// grow, and a check that read the database before a correction's
// announcement arrived must not have the newer table dropped for an older.
func (w *Watcher) Changed(board, key string, version int) {
	p := periodKey{board, key}
	w.mu.Lock()
	known, ok := w.seen[p]
	if ok && version != 0 && version < known {
		w.mu.Unlock()
		return
	}
	w.seen[p] = version
	w.mu.Unlock()
	if !ok || known != version {
		w.onChange(board, key, version)
	}
}

// Record notes period key of board's version without a change: what this
// instance holds of it is already of that version.
func (w *Watcher) Record(board, key string, version int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen[periodKey{board, key}] = version
}

// Check reads from source the versions of every period the watcher knows
// and of the periods boards[i]'s keys[i] (those this instance holds in
// memory), and reports each change as Changed does; a period asked for
// that is no longer CLOSED is reported with version 0 and forgotten.
func (w *Watcher) Check(ctx context.Context, source VersionSource, boards, keys []string) error {
	asked := map[periodKey]bool{}
	for i := range boards {
		asked[periodKey{boards[i], keys[i]}] = true
	}
	w.mu.Lock()
	for p := range w.seen {
		if !asked[p] {
			asked[p] = true
			boards, keys = append(boards, p.board), append(keys, p.key)
		}
	}
	w.mu.Unlock()
	if len(asked) == 0 {
		return nil
	}
	current, err := closedVersions(ctx, source, boards, keys)
	if err != nil {
		return err
	}
	for p := range asked {
		if version, closed := current[p]; closed {
			w.Changed(p.board, p.key, version)
			continue
		}
		w.mu.Lock()
		delete(w.seen, p)
		w.mu.Unlock()
		w.onChange(p.board, p.key, 0)
	}
	return nil
}

// closedVersions returns the ranks versions source has of the periods
// boards[i]'s keys[i] that are CLOSED; the others are missing from it.
func closedVersions(ctx context.Context, source VersionSource, boards, keys []string) (map[periodKey]int, error) {
	versions := map[periodKey]int{}
	err := source.ClosedPeriodVersions(ctx, boards, keys, func(board, key string, version int) {
		versions[periodKey{board, key}] = version
	})
	return versions, err
}
