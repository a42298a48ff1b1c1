#!/usr/bin/env bash
# The failover drill for the compose profile "failover" (compose.yaml): with
# the service taking writes, kills the primary's container (docker kill:
# SIGKILL, no shutdown), lets pg_auto_failover promote the standby, and
# prints how long after the kill the first write succeeded and whether every
# event answered APPLIED is on the new primary. Then starts the old primary
# again, which pg_auto_failover turns into the new primary's standby.
#
#   docker-compose --profile failover up -d leaderboard-failover
#   bash scripts/failover-drill.sh
#
# Environment: LEADERBOARD_URL (default http://localhost:8081, or the port
# LEADERBOARD_FAILOVER_HOST_PORT gives compose.yaml),
# LEADERBOARD_SERVER_TOKEN (default compose.yaml's), DRILL_WRITERS (4),
# DRILL_TIMEOUT seconds to wait for a write after the kill (180),
# DRILL_RESTART=0 leaves the old primary down; COMPOSE_PROJECT_NAME as for
# docker-compose.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

URL="${LEADERBOARD_URL:-http://localhost:${LEADERBOARD_FAILOVER_HOST_PORT:-8081}}"
TOKEN="${LEADERBOARD_SERVER_TOKEN:-change-me-game-server}"
WRITERS="${DRILL_WRITERS:-4}"
TIMEOUT="${DRILL_TIMEOUT:-180}"
COMPOSE=(docker-compose --profile failover)
RUN="drill-$(date +%s)"

log() { printf '%s failover-drill: %s\n' "$(date -u +%T.%3N)" "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}
now_ms() { date +%s%3N; }

# psql on a node as the service's user.
node_sql() {
	"${COMPOSE[@]}" exec -T "$1" psql -X -q -At -d leaderboard -c "$2"
}

# The node whose PostgreSQL takes writes. A standby being promoted is out of
# recovery but read-only (pg_autoctl's stop_replication state) until the
# monitor is sure the old primary is gone.
primary() {
	local node
	for node in pgaf-node1 pgaf-node2; do
		if [ "$(node_sql "$node" "SELECT pg_is_in_recovery() OR current_setting('default_transaction_read_only')::bool" 2>/dev/null)" = f ]; then
			echo "$node"
			return 0
		fi
	done
	return 1
}

# One writer: one event a call, until $dir/stop exists or the deadline;
# a line per call: start_ms end_ms status event_id.
writer() {
	local id="$1" dir="$2" deadline="$3" i=0 start end status event body
	while [ ! -e "$dir/stop" ] && [ "$(now_ms)" -lt "$deadline" ]; do
		i=$((i + 1))
		event="$RUN-w$id-$i"
		body="$(printf '{"query":"mutation($e:[ScoreEvent!]!){submitScores(events:$e){status}}","variables":{"e":[{"eventId":"%s","playerId":"drill-%s","mode":"ADD","value":1}]}}' "$event" "$id")"
		start="$(now_ms)"
		status="$(curl -s --max-time 10 "$URL/graphql" -H 'Content-Type: application/json' \
			-H "Authorization: Bearer $TOKEN" -d "$body" |
			jq -r '.data.submitScores[0].status // (.errors[0].extensions.code // "ERROR")' 2>/dev/null || true)"
		end="$(now_ms)"
		echo "$start $end ${status:-NO_ANSWER} $event" >>"$dir/w$id"
		sleep 0.05
	done
}

main() {
	command -v jq >/dev/null || die "jq is needed"
	curl -sf --max-time 5 "$URL/readyz" >/dev/null || die "$URL/readyz does not answer ready: is the profile up?"
	local old_primary container kill_ms first_ms deadline
	old_primary="$(primary)" || die "no node is a primary"
	container="$("${COMPOSE[@]}" ps -q "$old_primary")"
	log "primary is $old_primary; $WRITERS writers start"
	"${COMPOSE[@]}" exec -T pgaf-monitor pg_autoctl show state >&2

	dir="$(mktemp -d)"
	trap 'touch "$dir/stop"; wait; rm -rf "$dir"' EXIT
	deadline=$(($(now_ms) + (TIMEOUT + 60) * 1000))
	for w in $(seq 1 "$WRITERS"); do writer "$w" "$dir" "$deadline" & done
	sleep 5

	# The clock starts when the container has exited, not when docker kill
	# was asked: a call that started in between may still succeed.
	docker kill "$container" >/dev/null
	docker wait "$container" >/dev/null
	kill_ms="$(now_ms)"
	log "killed $old_primary ($container)"

	first_ms=
	while [ -z "$first_ms" ]; do
		[ $(($(now_ms) - kill_ms)) -lt $((TIMEOUT * 1000)) ] || die "no write succeeded within ${TIMEOUT}s of the kill"
		sleep 0.2
		first_ms="$(cat "$dir"/w* | awk -v k="$kill_ms" '$1 > k && $3 == "APPLIED" { print $2 }' | sort -n | head -1)"
	done
	log "first write after the kill succeeded $((first_ms - kill_ms)) ms after it"
	sleep 5
	touch "$dir/stop"
	wait

	local new_primary acked applied failed lost
	new_primary="$(primary)" || die "no primary after the failover"
	cat "$dir"/w* | sort -n >"$dir/all"
	acked="$(awk '$3 == "APPLIED" { print $4 }' "$dir/all" | sort -u)"
	applied="$(grep -c . <<<"$acked" || true)"
	failed="$(awk -v k="$kill_ms" -v f="$first_ms" '$2 >= k && $1 <= f && $3 != "APPLIED"' "$dir/all" | wc -l)"
	# The ids go in on standard input: thousands of them are more than one
	# argument may hold (128 KiB).
	lost="$(sed '/^$/d' <<<"$acked" | "${COMPOSE[@]}" exec -T "$new_primary" psql -X -q -At -d leaderboard \
		-c 'CREATE TEMP TABLE acked (event_id text)' -c 'COPY acked FROM STDIN' \
		-c "SELECT count(*) FROM acked a WHERE NOT EXISTS (SELECT 1 FROM board_score_events e WHERE e.board_id = 'main' AND e.event_id = a.event_id)")"
	"${COMPOSE[@]}" exec -T pgaf-monitor pg_autoctl show state >&2
	echo "primary before: $old_primary; after: $new_primary"
	echo "first successful write: $((first_ms - kill_ms)) ms after the kill"
	echo "calls that failed meanwhile: $failed ($(awk -v k="$kill_ms" -v f="$first_ms" '$2 >= k && $1 <= f && $3 != "APPLIED" { print $3 }' "$dir/all" | sort | uniq -c | tr -s ' \n' ' '))"
	echo "events answered APPLIED: $applied; missing on $new_primary: $lost"

	if [ "${DRILL_RESTART:-1}" = 1 ]; then
		log "starting $old_primary again: it should rejoin as the standby"
		docker start "$container" >/dev/null
		local started=$SECONDS until=$((SECONDS + 180))
		until "${COMPOSE[@]}" exec -T pgaf-monitor pg_autoctl show state 2>/dev/null |
			awk -v n="$old_primary" '$1 == n && $(NF-2) == "secondary" && $NF == "secondary" { ok = 1 } END { exit !ok }'; do
			[ "$SECONDS" -lt "$until" ] || die "$old_primary did not become a secondary within 180s"
			sleep 2
		done
		"${COMPOSE[@]}" exec -T pgaf-monitor pg_autoctl show state >&2
		echo "$old_primary is the standby again, $((SECONDS - started)) s after its start"
	fi
	[ "$lost" = 0 ] || exit 1
}

main "$@"
