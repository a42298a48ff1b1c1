// Package settlement tells the studio's reward system about closed and
// corrected months: it delivers the outbox's messages to a webhook, signed
// with HMAC-SHA256, at least once, retrying with capped, jittered
// exponential backoff. Receivers dedupe by the X-Leaderboard-Event-Id header,
// which stays the same on every attempt.
package settlement

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gamebackend/leaderboard"
	"github.com/gamebackend/leaderboard/internal/backoff"
)

// The headers of a delivery.
const (
	HeaderEventID   = "X-Leaderboard-Event-Id"
	HeaderEventType = "X-Leaderboard-Event-Type"
	HeaderSignature = "X-Leaderboard-Signature"
)

// Outbox is where the messages wait.
type Outbox interface {
	// ClaimMessages leases up to n due messages for lease: each the oldest
	// undelivered of its month or period, none that another claim holds.
	ClaimMessages(ctx context.Context, n int, lease time.Duration) ([]leaderboard.Message, error)
	// RecordDelivery records the outcome of an attempt at a claimed
	// message: delivered when sendErr is nil, otherwise failed and due again
	// retryIn from now.
	RecordDelivery(ctx context.Context, msg leaderboard.Message, sendErr error, retryIn time.Duration) error
	// NextMessageIn returns how long until the earliest message not yet
	// due is due; false when none waits.
	NextMessageIn(ctx context.Context) (time.Duration, bool, error)
	// ListenOutbox calls fn once it listens, then whenever messages are
	// recorded, until ctx ends or the connection fails.
	ListenOutbox(ctx context.Context, fn func()) error
}

// Config is where and how messages are delivered.
type Config struct {
	URL    string // the studio's webhook
	Secret []byte // key of the HMAC-SHA256 signature
	// Timeout bounds one attempt (default 10 s).
	Timeout time.Duration
	// Backoff spaces out the attempts of a failing message.
	Backoff Backoff
	// Interval is the longest the outbox goes unlooked at (default 5 s):
	// a deliverer looks when a message is recorded (announced by the
	// database) and when the earliest retry is due, and at least this often
	// in case an announcement was lost.
	Interval time.Duration
	// Concurrency is how many messages are in flight at once (default 16);
	// the messages of one month or period still go one at a time, in order.
	Concurrency int
}

// DefaultConcurrency is the messages in flight at once when
// Config.Concurrency is unset.
const DefaultConcurrency = 16

// Deliverer sends the outbox's messages to the webhook.
type Deliverer struct {
	outbox Outbox
	cfg    Config
	// webhook is cfg.URL without its userinfo and query string: what logs
	// and errors show of it.
	webhook string
	client  *http.Client
	logger  *slog.Logger
	// observe is told the outcome of every attempt: "delivered" or "failed".
	observe func(outcome string)
}

// New returns a Deliverer of outbox's messages; observe (may be nil) is told
// the outcome of each attempt.
func New(outbox Outbox, cfg Config, logger *slog.Logger, observe func(outcome string)) *Deliverer {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 5 * time.Second
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if observe == nil {
		observe = func(string) {}
	}
	// One client for every attempt, keeping a connection to the webhook
	// open for each message in flight: a storm's messages do not each pay
	// a TCP and TLS handshake.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = cfg.Concurrency
	transport.MaxIdleConns = max(transport.MaxIdleConns, cfg.Concurrency)
	client := &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		// A redirect is a failed attempt, never followed: a 307 would send
		// the signed body to whatever host the answer names, and a 302's
		// bodyless GET answered 200 would count as delivered.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Deliverer{outbox: outbox, cfg: cfg, webhook: RedactURL(cfg.URL), client: client, logger: logger, observe: observe}
}

// CheckURL checks that raw is a webhook URL: absolute, http or https, with
// a host. Its errors never repeat raw, which may hold credentials.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return errors.New("not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("not an http or https URL")
	case u.Host == "":
		return errors.New("the URL has no host")
	}
	return nil
}

// RedactURL returns raw as scheme://host, with "/…" for a path: the
// userinfo, query string and path may all carry credentials (a chat
// service's webhook keeps its token in the path), so logs and errors show the
// receiver's host alone. A raw that does not parse is "(invalid URL)".
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(invalid URL)"
	}
	shown := (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
	if u.Path != "" && u.Path != "/" {
		shown += "/…"
	}
	return shown
}

// deliverStatements is what one delivery gives its two statements, the
// claim and the outcome's record, besides the webhook's Timeout: each is
// bounded by the service's statement timeout (10 s by default). A claim's
// lease is Timeout and this: an attempt whose outcome is not recorded by
// then is another deliverer's to make.
const deliverStatements = 20 * time.Second

// stopRecord bounds the record of the attempts a stop cuts short, made
// after Run's context has ended.
const stopRecord = 2 * time.Second

// Run delivers messages until ctx ends, up to Concurrency at once: it
// claims as many due messages as it has room for whenever one is recorded
// (the outbox announces it), an attempt ends or the earliest retry is due,
// and at least every Interval. When ctx ends it cancels the attempts in
// flight, records them failed and due at once, and returns.
func (d *Deliverer) Run(ctx context.Context) {
	wake := make(chan struct{}, 1)
	signal := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	var background sync.WaitGroup
	defer background.Wait()
	background.Go(func() { d.listen(ctx, signal) })
	ended := make(chan struct{}, d.cfg.Concurrency)
	inFlight, failures := 0, 0
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		wait := time.Duration(-1) // none: an attempt's end wakes it
		if free := d.cfg.Concurrency - inFlight; free > 0 {
			msgs, next, err := d.claim(ctx, free)
			for _, msg := range msgs {
				inFlight++
				background.Go(func() {
					d.attempt(ctx, msg)
					ended <- struct{}{}
				})
			}
			switch {
			case err != nil:
				// The database is away: look again soon, less often as it
				// stays away.
				failures++
				wait = min(d.cfg.Interval, time.Second<<min(failures-1, 10))
				if ctx.Err() == nil {
					d.logger.Warn("settlement: read the outbox", "err", err)
				}
			case len(msgs) < free:
				failures = 0
				wait = min(next, d.cfg.Interval)
			default:
				failures = 0
			}
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		if wait >= 0 {
			timer.Reset(wait)
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-ended:
			inFlight--
		case <-timer.C:
		}
	}
}

// claim claims up to n due messages and, when fewer came, finds how long
// until the next is due (Interval or more when none waits).
func (d *Deliverer) claim(ctx context.Context, n int) ([]leaderboard.Message, time.Duration, error) {
	// Bounded: on a primary lost without a reset (its standby promoted) a
	// statement would wait on its connection for ever.
	ctx, cancel := context.WithTimeout(ctx, deliverStatements)
	defer cancel()
	msgs, err := d.outbox.ClaimMessages(ctx, n, d.cfg.Timeout+deliverStatements)
	if err != nil || len(msgs) == n {
		return msgs, 0, err
	}
	next, ok, err := d.outbox.NextMessageIn(ctx)
	if !ok {
		next = d.cfg.Interval
	}
	return msgs, next, err
}

// attempt sends msg and records the outcome. An attempt that ctx's end cut
// short is recorded failed and due at once, so that the next start (or
// another instance) sends it without waiting for its lease to end. The
// record outlives ctx by stopRecord at most: an attempt that ended just as
// the stop came is still recorded.
func (d *Deliverer) attempt(ctx context.Context, msg leaderboard.Message) {
	sendErr := d.send(ctx, msg)
	retryIn := time.Duration(0)
	if sendErr != nil && ctx.Err() == nil {
		retryIn = d.cfg.Backoff.Delay(msg.Attempts + 1)
	}
	recordCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliverStatements)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { time.AfterFunc(stopRecord, cancel) })
	defer stop()
	if err := d.outbox.RecordDelivery(recordCtx, msg, sendErr, retryIn); err != nil {
		d.logger.Warn("settlement: record a delivery attempt; the message is sent again when its lease ends",
			"id", msg.ID, "err", err)
	}
}

// listen calls wake whenever the outbox announces messages, until ctx
// ends, listening again a second after a failure.
func (d *Deliverer) listen(ctx context.Context, wake func()) {
	for ctx.Err() == nil {
		err := d.outbox.ListenOutbox(ctx, wake)
		if ctx.Err() != nil {
			return
		}
		d.logger.Warn("settlement: lost the outbox's announcements; listening again (meanwhile the outbox is looked at every interval)",
			"err", err)
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// send POSTs one message; any answer but a 2xx is an error, a
// *leaderboard.DeliveryError.
func (d *Deliverer) send(ctx context.Context, msg leaderboard.Message) error {
	err := d.post(ctx, msg)
	log := d.logger.With("id", msg.ID, "type", msg.Type, "board", msg.Board, "period", msg.Period, "attempt", msg.Attempts+1)
	if err != nil {
		d.observe("failed")
		log.Warn("settlement: delivery failed; retrying later", "webhook", d.webhook, "err", err)
		return err
	}
	d.observe("delivered")
	log.Info("settlement: delivered")
	return nil
}

// post makes one attempt at msg.
func (d *Deliverer) post(ctx context.Context, msg leaderboard.Message) *leaderboard.DeliveryError {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.cfg.URL, bytes.NewReader(msg.Body))
	if err != nil {
		return &leaderboard.DeliveryError{Kind: leaderboard.FailureOther, Detail: "the webhook URL " + d.webhook + " is not valid"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "leaderboard-settlement")
	req.Header.Set(HeaderEventID, msg.ID)
	req.Header.Set(HeaderEventType, msg.Type)
	req.Header.Set(HeaderSignature, Sign(d.cfg.Secret, msg.Body))
	resp, err := d.client.Do(req)
	if err != nil {
		return &leaderboard.DeliveryError{Kind: failureKind(err), Detail: d.describe(err)}
	}
	// Drain a little so the connection can be reused; the body is not needed.
	io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	resp.Body.Close()
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode <= 399:
		to := "without a Location"
		if location := resp.Header.Get("Location"); location != "" {
			to = "to " + RedactURL(location)
		}
		return &leaderboard.DeliveryError{Kind: leaderboard.FailureRedirect(resp.StatusCode),
			Detail: fmt.Sprintf("webhook %s answered %s %s; redirects are not followed", d.webhook, resp.Status, to)}
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return &leaderboard.DeliveryError{Kind: leaderboard.FailureHTTP(resp.StatusCode),
			Detail: fmt.Sprintf("webhook %s answered %s", d.webhook, resp.Status)}
	}
	return nil
}

// describe returns a failed request's error with the webhook URL in its
// redacted form. The client quotes the URL (with the password masked, the
// user name and query string not); whatever of the credentials the inner
// error might still hold is replaced by "REDACTED".
func (d *Deliverer) describe(err error) string {
	if uerr, ok := errors.AsType[*url.Error](err); ok {
		err = &url.Error{Op: uerr.Op, URL: d.webhook, Err: uerr.Err}
	}
	text := err.Error()
	u, perr := url.Parse(d.cfg.URL)
	if perr != nil {
		return text
	}
	password, _ := u.User.Password()
	for _, secret := range []string{u.RawQuery, u.User.String(), password, u.Fragment} {
		if secret != "" {
			text = strings.ReplaceAll(text, secret, "REDACTED")
		}
	}
	return text
}

// failureKind names the kind of a failed request's error.
func failureKind(err error) string {
	var (
		timeout   interface{ Timeout() bool }
		dns       *net.DNSError
		verify    *tls.CertificateVerificationError
		unknownCA x509.UnknownAuthorityError
		hostname  x509.HostnameError
		invalid   x509.CertificateInvalidError
		record    tls.RecordHeaderError
		alert     tls.AlertError
	)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &timeout) && timeout.Timeout():
		return leaderboard.FailureTimeout
	case errors.Is(err, context.Canceled):
		return leaderboard.FailureCancelled
	case errors.As(err, &dns):
		return leaderboard.FailureNoHost
	case errors.Is(err, syscall.ECONNREFUSED):
		return leaderboard.FailureRefused
	case errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE):
		return leaderboard.FailureReset
	case errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH):
		return leaderboard.FailureUnreachable
	case errors.As(err, &verify) || errors.As(err, &unknownCA) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &record) || errors.As(err, &alert):
		return leaderboard.FailureTLS
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return leaderboard.FailureClosed
	}
	return leaderboard.FailureOther
}

// Sign returns the X-Leaderboard-Signature of body: "sha256=" and the hex
// HMAC-SHA256 of body with secret.
func Sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify reports whether signature is body's signature with secret, in
// constant time: what a receiver checks before it trusts a message.
func Verify(secret, body []byte, signature string) bool {
	return hmac.Equal([]byte(signature), []byte(Sign(secret, body)))
}

// Backoff is capped exponential backoff with jitter: attempt n waits a
// random time between half and all of min(Max, Base * 2^(n-1)).
type Backoff struct {
	Base time.Duration // default 1 s
	Max  time.Duration // default 10 min
}

// Delay returns how long to wait after the attempts-th failed attempt.
func (b Backoff) Delay(attempts int) time.Duration {
	base, ceiling := b.Base, b.Max
	if base <= 0 {
		base = time.Second
	}
	if ceiling <= 0 {
		ceiling = 10 * time.Minute
	}
	return backoff.Jittered(base, ceiling, attempts)
}
