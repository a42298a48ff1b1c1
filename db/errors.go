package db

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gamebackend/leaderboard"
)

// errUnavailable is what a client is told when the database did not answer
// in time or could not be reached.
var errUnavailable = leaderboard.Errorf(leaderboard.EUNAVAILABLE,
	"the leaderboard's database is unavailable or overloaded right now: retry later")

// errorf is fmt.Errorf, with format ending in ": %w", through
// interpretError: how db reports a failure with its context.
func errorf(format string, args ...any) error {
	return interpretError(fmt.Errorf(format, args...))
}

// interpretError turns a driver error into the domain's: a timeout, a
// cancelled statement, a lost or refused connection becomes UNAVAILABLE,
// text the database cannot store BAD_USER_INPUT; the driver error stays in
// the chain for the log. Domain errors and anything else pass unchanged
// (the latter is INTERNAL to clients).
func interpretError(err error) error {
	if err == nil || leaderboard.ErrorCode(err) != leaderboard.EINTERNAL {
		return err
	}
	var (
		pgErr  *pgconn.PgError
		netErr net.Error
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), pgconn.Timeout(err),
		// The connection broke: the server crashed, restarted or was cut off.
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), pgconn.SafeToRetry(err):
		return errors.Join(errUnavailable, err)
	case errors.As(err, &pgErr):
		switch {
		case pgerrcode.IsConnectionException(pgErr.Code), pgerrcode.IsOperatorIntervention(pgErr.Code),
			pgErr.Code == pgerrcode.LockNotAvailable, pgErr.Code == pgerrcode.TooManyConnections,
			pgErr.Code == pgerrcode.IdleInTransactionSessionTimeout:
			return errors.Join(errUnavailable, err)
		case pgErr.Code == pgerrcode.CharacterNotInRepertoire, pgErr.Code == pgerrcode.UntranslatableCharacter,
			pgErr.Code == pgerrcode.InvalidTextRepresentation:
			return errors.Join(leaderboard.Errorf(leaderboard.EBADINPUT, "the input holds text the database cannot store"), err)
		}
	case errors.As(err, &netErr), errors.Is(err, net.ErrClosed):
		return errors.Join(errUnavailable, err)
	}
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return errors.Join(errUnavailable, err)
	}
	return err
}

// isRetryable reports whether err aborted a transaction that may succeed when
// run again from the start: a concurrent transaction wrote the same key first,
// or a deadlock or serialization failure was detected.
func isRetryable(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	switch pgErr.Code {
	case pgerrcode.UniqueViolation, pgerrcode.DeadlockDetected, pgerrcode.SerializationFailure:
		return true
	}
	return false
}

// noRows reports whether err says a query found no row: what each caller
// then answers (nil, NOT_FOUND with its own message) is its own to say.
func noRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }

// Reachable connects to the database at dsn once and pings it. It returns
// nil when the database answers; an UNAVAILABLE error when it cannot be
// reached or takes no connections yet (down, starting up, in recovery, too
// many connections), which waiting may mend; and any other error (a URL that
// does not parse, a refused password, an unknown database) as it is, which
// waiting will not mend. ctx bounds the try.
func Reachable(ctx context.Context, dsn string) error {
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("parse database url: %w", err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return reachError("connect to the database", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := conn.Ping(ctx); err != nil {
		return reachError("ping the database", err)
	}
	return nil
}

// reachError is interpretError for Reachable, but an error the server sent
// is UNAVAILABLE only when it says the server takes no connections yet:
// interpretError counts every failed connection unavailable, a refused
// password included, which no wait mends.
func reachError(what string, err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && !pgerrcode.IsConnectionException(pgErr.Code) &&
		!pgerrcode.IsOperatorIntervention(pgErr.Code) && pgErr.Code != pgerrcode.TooManyConnections {
		return fmt.Errorf("%s: %w", what, err)
	}
	return errorf(what+": %w", err)
}
