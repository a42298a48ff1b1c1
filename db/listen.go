package db

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// listenCheck is how long a listener waits for an announcement before it
// asks its server whether it still answers; a variable for tests.
var listenCheck = 10 * time.Second

// listenPingTimeout bounds that question.
const listenPingTimeout = 5 * time.Second

// listen runs LISTEN channel on a connection of its own and calls fn with
// the payload of each notification until ctx ends or the connection fails,
// and returns why. A server that dies without closing the connection (its
// host lost, frozen, or cut off by the network) sends no error and no
// notification: a listener that only waited would wait for ever on it, and
// never follow a failover to a new primary. So after each listenCheck of
// silence the listener pings its server, and gives up on a server that does
// not answer within listenPingTimeout.
func (db *DB) listen(ctx context.Context, channel string, fn func(payload string)) error {
	return db.listenReady(ctx, []string{channel}, nil, func(_, payload string) { fn(payload) })
}

// listenReady is listen on every one of channels, on one connection, that
// calls fn with each notification's channel and payload and ready (unless
// nil) once LISTEN is in place: what was announced before is lost, what is
// announced after is heard.
func (db *DB) listenReady(ctx context.Context, channels []string, ready func(), fn func(channel, payload string)) error {
	conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return err
	}
	defer func() {
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		conn.Close(closeCtx)
	}()
	for _, channel := range channels {
		if _, err := conn.Exec(ctx, `LISTEN `+channel); err != nil {
			return err
		}
	}
	if ready != nil {
		ready()
	}
	for {
		waitCtx, cancel := context.WithTimeout(ctx, listenCheck)
		n, err := conn.WaitForNotification(waitCtx)
		cancel()
		switch {
		case err == nil:
			fn(n.Channel, n.Payload)
		case ctx.Err() != nil || !pgconn.Timeout(err) || conn.IsClosed():
			return err
		default:
			// A timed-out wait leaves the connection usable.
			pingCtx, cancel := context.WithTimeout(ctx, listenPingTimeout)
			err := conn.Ping(pingCtx)
			cancel()
			if err != nil {
				return err
			}
		}
	}
}
