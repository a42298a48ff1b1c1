package leaderboard

import (
	"errors"
	"fmt"
)

// Error codes carried by Error and exposed to API clients as extensions.code.
const (
	EBADINPUT        = "BAD_USER_INPUT"
	EUNAUTHENTICATED = "UNAUTHENTICATED"
	EFORBIDDEN       = "FORBIDDEN"
	ENOTFOUND        = "NOT_FOUND"
	EMONTHCLOSED     = "MONTH_CLOSED" // the month, or on any board the period, is closed
	ENOTSTARTED      = "NOT_STARTED"  // the board, or its period, has not started
	ERATELIMITED     = "RATE_LIMITED"
	ECONFLICT        = "CONFLICT" // the resource is not in a state that allows it (HTTP 409)
	EINTERNAL        = "INTERNAL"
	EUNAVAILABLE     = "UNAVAILABLE" // the database is unreachable or the service overloaded: retry later
)

// Error is an error a client may see: a stable code and a message written for
// the client. Any other error is reported to clients as INTERNAL.
type Error struct {
	Code    string
	Message string
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("leaderboard error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, "" for nil,
// and EINTERNAL for any other error.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the message of the first *Error in err's chain, "" for
// nil, and a generic message for any other error so that internals never leak.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}
