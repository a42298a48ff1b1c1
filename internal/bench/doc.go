// Package bench is the leaderboard's benchmark: it seeds a closed
// and an open month with the demo data's tie-heavy distribution, starts the
// real program, drives it over HTTP with a closed-loop load generator, runs
// the same reads against a Redis sorted set, races createBoard over two
// instances and counts the catalogue's relations as boards and periods grow
// (the boards suite, which needs no month), seeds, reads and closes a WEEK
// and a DAY board's period of the months' size (the big-boards suite, which
// needs none either), and, when asked for by name, measures groupStandings
// (the groups suite) and a league board's writes, cohorts and close (the
// leagues suite), and renders what it measured in
// the form of docs/PERFORMANCE.md's rounds. cmd/leaderboard-bench runs it (`make bench`); it is
// never part of `make test`, whose share of this package is the unit tests of
// its pure parts.
package bench
