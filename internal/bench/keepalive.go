package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"time"
)

// KeepAliveConn is one game server's keep-alive HTTP/1.1 connection to the
// service's POST /graphql, for one client's requests one after another. It
// writes each request and reads its answer on the caller's goroutine, with
// net/http's response parser. net/http's Transport runs two goroutines a
// connection and hands each request and answer between them; on the two
// cores the service shares with its load, that cost the claims suite a
// sixth to a quarter of the bench process's CPU a claim (docs/PERFORMANCE.md,
// rewards, round seven).
// Game servers run on other machines; the less the load generator spends
// here, the more the figures are the service's.
type KeepAliveConn struct {
	addr, auth string
	conn       net.Conn
	in         *bufio.Reader
	out        []byte
}

// NewKeepAliveConn returns a connection to the service at baseURL that
// sends token as a bearer token; it dials on its first request.
func NewKeepAliveConn(baseURL, token string) (*KeepAliveConn, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme != "http" || u.Host == "" {
		return nil, fmt.Errorf("keep-alive connection: %q is not an http://host:port URL", baseURL)
	}
	return &KeepAliveConn{addr: u.Host, auth: "Bearer " + token}, nil
}

// Post sends body, a GraphQL request as JSON, and returns the answer's
// body; a status other than 200 is an error. A request that fails on a
// connection kept from an earlier one (which the server may have closed
// meanwhile) is sent once more on a new connection, so body must be safe to
// send twice, as a claim with its claimId is. A failed request closes the
// connection, and the next one dials again.
func (c *KeepAliveConn) Post(ctx context.Context, body []byte) ([]byte, error) {
	reused := c.conn != nil
	raw, err := c.post(ctx, body)
	var status statusError
	if err != nil && reused && ctx.Err() == nil && !errors.As(err, &status) {
		c.Close()
		raw, err = c.post(ctx, body)
	}
	if err != nil {
		c.Close()
	}
	return raw, err
}

// statusError is an answer whose status is not 200.
type statusError struct {
	status int
	body   []byte
}

func (e statusError) Error() string { return fmt.Sprintf("status %d: %.200s", e.status, e.body) }

// requestTimeout bounds a request whose context has no deadline.
const requestTimeout = time.Minute

func (c *KeepAliveConn) post(ctx context.Context, body []byte) ([]byte, error) {
	if c.conn == nil {
		var d net.Dialer
		conn, err := d.DialContext(ctx, "tcp", c.addr)
		if err != nil {
			return nil, err
		}
		c.conn, c.in = conn, bufio.NewReader(conn)
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(requestTimeout)
	}
	if err := c.conn.SetDeadline(deadline); err != nil {
		return nil, err
	}
	conn := c.conn
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c.out = fmt.Appendf(c.out[:0], "POST /graphql HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Authorization: %s\r\nContent-Length: %d\r\n\r\n", c.addr, c.auth, len(body))
	c.out = append(c.out, body...)
	if _, err := c.conn.Write(c.out); err != nil {
		return nil, err
	}
	res, err := http.ReadResponse(c.in, nil)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	if res.Close {
		c.Close()
	}
	if res.StatusCode != http.StatusOK {
		return nil, statusError{res.StatusCode, raw}
	}
	return raw, nil
}

// Close closes the connection.
func (c *KeepAliveConn) Close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn, c.in = nil, nil
	}
}
