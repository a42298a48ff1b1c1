package db

import "time"

// SetListenCheck sets how long listeners wait in silence before they ping
// their server, and returns a function that restores it.
func SetListenCheck(d time.Duration) (restore func()) {
	was := listenCheck
	listenCheck = d
	return func() { listenCheck = was }
}
