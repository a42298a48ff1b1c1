package db

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gamebackend/leaderboard"
)

func TestInterpretError_MapsDriverErrorsToDomainCodes(t *testing.T) {
	pgErr := func(code string) error { return fmt.Errorf("read: %w", &pgconn.PgError{Code: code}) }
	for _, c := range []struct {
		name string
		err  error
		code string
	}{
		{"Deadline", fmt.Errorf("read: %w", context.DeadlineExceeded), leaderboard.EUNAVAILABLE},
		{"Cancelled", context.Canceled, leaderboard.EUNAVAILABLE},
		{"BrokenConnection", fmt.Errorf("write scores: %w", io.ErrUnexpectedEOF), leaderboard.EUNAVAILABLE},
		{"StatementTimeout", pgErr(pgerrcode.QueryCanceled), leaderboard.EUNAVAILABLE},
		{"LockTimeout", pgErr(pgerrcode.LockNotAvailable), leaderboard.EUNAVAILABLE},
		{"ServerShutdown", pgErr(pgerrcode.AdminShutdown), leaderboard.EUNAVAILABLE},
		{"Recovering", pgErr(pgerrcode.CannotConnectNow), leaderboard.EUNAVAILABLE},
		{"TooManyConnections", pgErr(pgerrcode.TooManyConnections), leaderboard.EUNAVAILABLE},
		{"ConnectionLost", pgErr(pgerrcode.ConnectionFailure), leaderboard.EUNAVAILABLE},
		{"BadText", pgErr(pgerrcode.CharacterNotInRepertoire), leaderboard.EBADINPUT},
		{"Domain", leaderboard.Errorf(leaderboard.ENOTFOUND, "no month"), leaderboard.ENOTFOUND},
		{"UniqueViolation", pgErr(pgerrcode.UniqueViolation), leaderboard.EINTERNAL},
		{"Other", errors.New("boom"), leaderboard.EINTERNAL},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := interpretError(c.err)
			if code := leaderboard.ErrorCode(got); code != c.code {
				t.Errorf("code %s, want %s", code, c.code)
			}
			if !errors.Is(got, c.err) {
				t.Error("the driver error left the chain")
			}
		})
	}
	if interpretError(nil) != nil {
		t.Error("nil became an error")
	}
}

func TestIsRetryableAndNoRows(t *testing.T) {
	for code, want := range map[string]bool{pgerrcode.UniqueViolation: true, pgerrcode.DeadlockDetected: true,
		pgerrcode.SerializationFailure: true, pgerrcode.CheckViolation: false} {
		if got := isRetryable(fmt.Errorf("x: %w", &pgconn.PgError{Code: code})); got != want {
			t.Errorf("%s: retryable %t", code, got)
		}
	}
	if !noRows(fmt.Errorf("read: %w", pgx.ErrNoRows)) || noRows(errors.New("other")) {
		t.Error("noRows")
	}
}
