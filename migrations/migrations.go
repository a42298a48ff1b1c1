// Package migrations embeds the SQL migrations of the leaderboard schema, applied
// in order by golang-migrate (see db.Migrate).
package migrations

import "embed"

// FS holds the NNNNNN_name.up.sql and .down.sql files.
//
//go:embed *.sql
var FS embed.FS
