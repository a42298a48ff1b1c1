package db_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/gamebackend/leaderboard"
)

// CloseLockHeld sees a month's close lock while a close holds it, not once
// the close is over, and not the same keys locked in another database of
// the server, which is another lock.
func TestCloseLockHeld_SeesTheCloseLockOfItsOwnDatabaseOnly(t *testing.T) {
	store := mustOpenDB(t)
	ctx := context.Background()
	var during bool
	var checkErr error
	hooks := leaderboard.CloseHooks{Phase: func(m leaderboard.Month, phase leaderboard.ClosePhase, _ int64) {
		if phase == leaderboard.PhaseStopping {
			during, checkErr = store.CloseLockHeld(ctx, m)
		}
	}}
	if _, ran, _ := store.TryCloseMonth(ctx, november, hooks); !ran {
		t.Fatal("the close did not run")
	}
	if checkErr != nil || !during {
		t.Errorf("CloseLockHeld during the close = %v, %v; want true", during, checkErr)
	}
	if held, err := store.CloseLockHeld(ctx, november); err != nil || held {
		t.Errorf("CloseLockHeld after the close = %v, %v; want false", held, err)
	}

	cfg, err := pgx.ParseConfig(pg.URL)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Database = "postgres"
	other, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	const closeLockClass = 0x6c62636c // db's, "lbcl"
	if _, err := other.Exec(ctx, `SELECT pg_advisory_lock($1, $2)`, closeLockClass, november.Year()*100+int(november.Month())); err != nil {
		t.Fatal(err)
	}
	if held, err := store.CloseLockHeld(ctx, november); err != nil || held {
		t.Errorf("CloseLockHeld with the keys locked in the database postgres = %v, %v; want false", held, err)
	}
}
