package db

import (
	"errors"

	"github.com/jackc/pgerrcode"
	"github.com/jackc/pgx/v5/pgconn"
)

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
