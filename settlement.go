package leaderboard

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// SettlementStatus says whether a closed month's messages reached the
// studio's reward system.
type SettlementStatus string

// The states of a settlement.
const (
	SettlementDisabled  SettlementStatus = "DISABLED"  // no webhook is configured
	SettlementPending   SettlementStatus = "PENDING"   // a message waits to be delivered
	SettlementDelivered SettlementStatus = "DELIVERED" // every message was answered with a 2xx
)

// Settlement is the delivery of a closed month's newest message
// (month.closed, or month.corrected after a correction).
type Settlement struct {
	Status      SettlementStatus
	Attempts    int
	DeliveredAt *time.Time
	LastError   *string
}

// Message is a settlement message to the studio's reward system, as stored:
// its body is sent and signed byte for byte.
type Message struct {
	ID   string // stable across attempts: the receiver dedupes by it
	Type string // month.closed, month.corrected, period.closed or period.corrected
	// Board and Period name the period the message is of: main's month
	// "2026-11" is period 2026-11 of board main.
	Board, Period string
	Body          []byte
	Attempts      int // attempts made before this one
	// LeasedUntil is when the claim of this attempt ends, by the
	// database's clock: until then no other deliverer takes the message.
	LeasedUntil time.Time
}

// DeliveryError is why an attempt to deliver a settlement message failed,
// told twice: Kind for anyone, Detail for the admin role. What it prints
// (Kind, ": ", Detail) is what a settlement's LastError records.
type DeliveryError struct {
	// Kind names the kind of failure in words that carry nothing of the
	// webhook's address, its credentials or the network inside: one of the
	// Failure constants, "HTTP " and the status of an answer that is not a
	// 2xx, or "redirect " and the status of a 3xx.
	Kind string
	// Detail is the whole story, with the webhook URL's userinfo and query
	// string already removed.
	Detail string
}

// The kinds of delivery failure that carry no status code.
const (
	FailureTimeout     = "timeout"
	FailureRefused     = "connection refused"
	FailureReset       = "connection reset"
	FailureClosed      = "connection closed"
	FailureUnreachable = "host unreachable"
	FailureNoHost      = "host not found"
	FailureTLS         = "TLS error"
	FailureCancelled   = "cancelled"
	FailureOther       = "delivery failed"
)

// FailureHTTP is the kind of an answer with status, neither a 2xx nor a 3xx.
func FailureHTTP(status int) string { return "HTTP " + strconv.Itoa(status) }

// FailureRedirect is the kind of a 3xx answer: deliveries follow no redirect,
// since the signed body must reach the configured receiver and no other.
func FailureRedirect(status int) string {
	return "redirect " + strconv.Itoa(status) + " not followed"
}

// Error returns Kind and Detail: the form LastError records.
func (e *DeliveryError) Error() string { return e.Kind + ": " + e.Detail }

// FailureKind returns the kind of failure s.LastError records, nil when it
// records none. A LastError that does not begin with a known kind (one
// recorded before kinds were, which may hold the webhook URL) reads as
// FailureOther: what anyone may see is decided here, not by what was stored.
func (s Settlement) FailureKind() *string {
	if s.LastError == nil {
		return nil
	}
	kind, _, _ := strings.Cut(*s.LastError, ": ")
	if !knownFailure(kind) {
		kind = FailureOther
	}
	return &kind
}

// knownFailure reports whether kind is one that DeliveryError.Kind may hold.
func knownFailure(kind string) bool {
	switch kind {
	case FailureTimeout, FailureRefused, FailureReset, FailureClosed, FailureUnreachable,
		FailureNoHost, FailureTLS, FailureCancelled, FailureOther:
		return true
	}
	if status, ok := strings.CutPrefix(kind, "HTTP "); ok {
		return isStatus(status)
	}
	if rest, ok := strings.CutPrefix(kind, "redirect "); ok {
		status, ok := strings.CutSuffix(rest, " not followed")
		return ok && isStatus(status)
	}
	return false
}

// isStatus reports whether s is a three-digit HTTP status code.
func isStatus(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && len(s) == 3 && n >= 100 && n <= 599
}

// urlInText matches an http(s) URL inside an error's text, up to a quote,
// a space or the end.
var urlInText = regexp.MustCompile(`https?://[^\s"']+`)

// AdminDetail returns s.LastError as the admin role reads it: whole, but
// with every URL in it shown as scheme://host alone, since a receiver's
// path or query may hold its token. The detail of new attempts is stored so
// already; one recorded by an older release may still hold the whole URL.
func (s Settlement) AdminDetail() *string {
	if s.LastError == nil {
		return nil
	}
	redacted := urlInText.ReplaceAllStringFunc(*s.LastError, func(raw string) string {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return "(URL)"
		}
		shown := (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
		if strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
			shown += "/…"
		}
		return shown
	})
	return &redacted
}
