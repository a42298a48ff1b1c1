#!/bin/sh
# Entrypoint of the pg_auto_failover image (built by build.sh in this folder):
# runs pg_autoctl with the container's arguments, such as
#   create monitor --hostname monitor --auth trust --no-ssl --run
#   create postgres --name node1 --monitor postgres://autoctl_node@monitor/pg_auto_failover ... --run
# `create ... --run` creates the node on the first start and runs the
# existing one on later starts.
#
# `create ... --run` is done as `create ...` then `run`: pg_autoctl stops the
# new PostgreSQL in between, and that shutdown checkpoint writes out the
# buffers that initdb and CREATE DATABASE dirtied. Otherwise the standby's
# pg_basebackup waits for a spread checkpoint of them on the primary, paced
# to about one buffer every 100 ms (seen: 94 s).
#
# PGAF_EXTRA_CONF: postgresql.conf lines for this node's PostgreSQL, such as
# the monitor's pgautofailover.* timings, written to $PGDATA/leaderboard.conf
# (included from postgresql.conf) between create and run, at every start.
#
# PGAF_EXTRA_HBA: pg_hba.conf lines appended once, between create and run.
# pg_autoctl writes its nodes' rules with IP addresses where reverse DNS does
# not give back the node's name (Docker's gives the container's name), so a
# node recreated with a new address would be refused; rules for `samenet`
# outlive that.
set -eu

# pg_autoctl refuses to start while its pid file names a live process. After
# docker kill and docker start the file is still in /tmp and names pid 1,
# which is this very process again: the runtime files of the previous run are
# removed first (one pg_autoctl per container, so none of them is live).
rm -rf "${XDG_RUNTIME_DIR:-/tmp}/pg_autoctl"

if [ "$#" -eq 0 ]; then
	set -- --help
fi
if [ "$1" != create ]; then
	exec pg_autoctl "$@"
fi

run=false
for arg; do
	shift
	if [ "$arg" = --run ]; then
		run=true
	else
		set -- "$@" "$arg"
	fi
done
pg_autoctl "$@"
printf '# from PGAF_EXTRA_CONF, rewritten at every start\n%s\n' "${PGAF_EXTRA_CONF:-}" >"$PGDATA/leaderboard.conf"
if ! grep -qx "include_if_exists = 'leaderboard.conf'" "$PGDATA/postgresql.conf"; then
	printf "\ninclude_if_exists = 'leaderboard.conf'\n" >>"$PGDATA/postgresql.conf"
fi
if [ -n "${PGAF_EXTRA_HBA:-}" ] && ! grep -q '^# from PGAF_EXTRA_HBA' "$PGDATA/pg_hba.conf"; then
	printf '\n# from PGAF_EXTRA_HBA\n%s\n' "$PGAF_EXTRA_HBA" >>"$PGDATA/pg_hba.conf"
fi
if "$run"; then
	exec pg_autoctl run
fi
