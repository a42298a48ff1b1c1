#!/bin/sh
# Entrypoint of the leaderboard-postgres image (built by build.sh in this folder).
#
# Follows the contract of the official postgres image (docker-library/postgres):
#   POSTGRES_USER      superuser name (default: postgres)
#   POSTGRES_PASSWORD  its password (or POSTGRES_PASSWORD_FILE); empty = trust auth
#   POSTGRES_DB        database to create (default: $POSTGRES_USER)
#   PGDATA             cluster directory (default: /var/lib/postgresql/data)
#   POSTGRES_INITDB_ARGS, POSTGRES_HOST_AUTH_METHOD  as in the official image
#   /docker-entrypoint-initdb.d/*.sh|*.sql|*.sql.gz  run once after initdb
#
# Arguments are extra postgres arguments; a leading "postgres" is dropped, so
# both `postgres -c fsync=off` (what testcontainers passes) and `-c fsync=off`
# work. Any other first argument is exec'd as a command (e.g. `sh`).
#
# On first start the temporary socket-only server and the final server each log
# "database system is ready to accept connections" once, i.e. twice in total,
# which is what testcontainers' postgres module waits for.
set -eu

if [ "$#" -eq 0 ]; then
	set -- postgres
elif [ "${1#-}" != "$1" ]; then
	set -- postgres "$@"
fi
if [ "$1" != postgres ]; then
	exec "$@"
fi
shift

: "${PGDATA:=/var/lib/postgresql/data}"
export PGDATA

# Started as root (docker run --user root, or a root-owned volume): fix
# ownership of the directories postgres writes to, then re-exec as postgres.
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$PGDATA" /var/run/postgresql
	chown postgres:postgres "$PGDATA" /var/run/postgresql
	chmod 700 "$PGDATA"
	HOME=/var/lib/postgresql
	export HOME
	# shellcheck disable=SC2016 # expanded by the inner shell
	exec su -p -s /bin/sh postgres -c 'exec "$0" postgres "$@"' "$0" "$@"
fi

if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
	if [ -n "${POSTGRES_PASSWORD:-}" ]; then
		echo "error: both POSTGRES_PASSWORD and POSTGRES_PASSWORD_FILE are set" >&2
		exit 1
	fi
	POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE")
fi
: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_PASSWORD:=}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
export POSTGRES_USER POSTGRES_PASSWORD POSTGRES_DB
if [ -n "$POSTGRES_PASSWORD" ]; then
	initdb_host_auth=scram-sha-256
else
	initdb_host_auth=trust
fi
: "${POSTGRES_HOST_AUTH_METHOD:=$initdb_host_auth}"

# Quote one argument for the shell that pg_ctl runs postgres through.
shell_quote() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# psql as the superuser over the unix socket (local auth is trust).
pg_psql() {
	psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --no-password --no-psqlrc "$@"
}

if [ ! -s "$PGDATA/PG_VERSION" ]; then
	mkdir -p "$PGDATA"
	chmod 700 "$PGDATA" 2>/dev/null || true

	pwfile=
	if [ -n "$POSTGRES_PASSWORD" ]; then
		pwfile=$(mktemp)
		trap 'rm -f "$pwfile"' EXIT
		printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
	fi
	set -- --username="$POSTGRES_USER" --encoding=UTF8 --locale=C.UTF-8 \
		--auth-local=trust --auth-host="$initdb_host_auth" ${pwfile:+"--pwfile=$pwfile"} -- "$@"
	# POSTGRES_INITDB_ARGS is shell words, as in the official image.
	initdb_args=
	while [ "$1" != -- ]; do
		initdb_args="$initdb_args $(shell_quote "$1")"
		shift
	done
	shift
	eval "initdb $initdb_args ${POSTGRES_INITDB_ARGS:-}"
	if [ -n "$pwfile" ]; then
		rm -f "$pwfile"
		trap - EXIT
	fi

	printf "\nlisten_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
	printf '\nhost all all all %s\n' "$POSTGRES_HOST_AUTH_METHOD" >>"$PGDATA/pg_hba.conf"

	# Temporary server, unix socket only; gets the same extra args as the
	# final one (e.g. -c fsync=off speeds up the init work as well).
	temp_opts=
	for arg in "$@"; do
		temp_opts="$temp_opts $(shell_quote "$arg")"
	done
	temp_opts="$temp_opts -c listen_addresses='' -p ${PGPORT:-5432}"
	pg_ctl -D "$PGDATA" -o "$temp_opts" -w start

	export PGPASSWORD="${PGPASSWORD:-$POSTGRES_PASSWORD}"
	if [ "$POSTGRES_DB" != postgres ]; then
		pg_psql --dbname postgres --quiet --set db="$POSTGRES_DB" <<'EOSQL'
SELECT format('CREATE DATABASE %I', :'db')
WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'db') \gexec
EOSQL
	fi

	for f in /docker-entrypoint-initdb.d/*; do
		[ -e "$f" ] || continue
		case "$f" in
		*.sh)
			if [ -x "$f" ]; then
				echo "$0: running $f"
				"$f"
			else
				echo "$0: sourcing $f"
				# shellcheck disable=SC1090
				. "$f"
			fi
			;;
		*.sql)
			echo "$0: running $f"
			pg_psql --dbname "$POSTGRES_DB" -f "$f"
			;;
		*.sql.gz)
			echo "$0: running $f"
			gunzip -c "$f" | pg_psql --dbname "$POSTGRES_DB"
			;;
		*.sql.xz)
			echo "$0: running $f"
			xz -dc "$f" | pg_psql --dbname "$POSTGRES_DB"
			;;
		*)
			echo "$0: ignoring $f"
			;;
		esac
	done
	unset PGPASSWORD

	pg_ctl -D "$PGDATA" -m fast -w stop
	echo
	echo 'PostgreSQL init process complete; ready for start up.'
	echo
else
	echo 'PostgreSQL Database directory appears to contain a database; Skipping initialization'
fi

exec postgres "$@"
