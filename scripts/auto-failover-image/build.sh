#!/usr/bin/env bash
# Builds localhost/leaderboard-pg-auto-failover:15 (override with
# LEADERBOARD_PGAF_IMAGE): the local PostgreSQL image
# (scripts/postgres-image/build.sh, built first when missing or stale) with
# Debian's pg_auto_failover 2.0 on top: pg_autoctl (pg-auto-failover-cli) and
# the pgautofailover extension (postgresql-15-auto-failover), for the compose
# profile "failover" and e2e/autofailover_test.go.
#
# Both packages are only downloaded and unpacked into the image, never
# installed on the host. The image is labelled with a hash of this recipe,
# the package versions and the base image's id; when the existing image
# carries the same label nothing is built. It holds the base image's lock
# while it works, so two builds, or this one and a rebuild of the base, take
# turns.
set -euo pipefail
umask 022

IMAGE="${LEADERBOARD_PGAF_IMAGE:-localhost/leaderboard-pg-auto-failover:15}"
BASE_IMAGE=localhost/leaderboard-postgres:15
# scripts/postgres-image/build.sh's lock.
LOCK_FILE="${LEADERBOARD_PG_IMAGE_LOCK:-/tmp/leaderboard-postgres-image.lock}"
LABEL_KEY=com.gamebackend.leaderboard.pgaf-image.recipe
PACKAGES=(pg-auto-failover-cli postgresql-15-auto-failover)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf 'pgaf-image: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

# The version of a package apt would fetch; reads the package lists once
# more after an update when they do not know it yet.
candidate() {
	local version
	version="$(apt-cache show --no-all-versions "$1" 2>/dev/null | awk '/^Version:/ { print $2; exit }')"
	if [ -z "$version" ]; then
		apt-get update -q >/dev/null 2>&1 || true
		version="$(apt-cache show --no-all-versions "$1" 2>/dev/null | awk '/^Version:/ { print $2; exit }')"
	fi
	[ -n "$version" ] || die "apt knows no package $1"
	printf '%s\n' "$version"
}

# pg_autoctl's libraries are copied from the host (as the base image's are):
# installs those PostgreSQL itself does not need when they are missing.
ensure_host_libraries() {
	local pkg missing=()
	for pkg in libncurses6 libtinfo6 libpq5; do
		[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)" = "install ok installed" ] || missing+=("$pkg")
	done
	[ "${#missing[@]}" -eq 0 ] && return 0
	log "installing ${missing[*]} with apt-get"
	local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}")
	# Package lists that are empty or older than the archive: read them
	# again and try once more.
	"${install[@]}" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && "${install[@]}" >/dev/null; } ||
		die "apt-get install ${missing[*]} failed"
}

# "package version" lines, one for each of PACKAGES, as apt would fetch them.
package_versions() {
	local pkg version
	for pkg in "${PACKAGES[@]}"; do
		version="$(candidate "$pkg")" || return 1 # set -e is off in $(...)
		printf '%s %s\n' "$pkg" "$version"
	done
}

# The image's label: a hash of the recipe, the package versions ($1) and the
# base image's id ($2).
recipe_hash() {
	{
		cat "$HERE/build.sh" "$HERE/Dockerfile" "$HERE/entrypoint.sh"
		printf '%s\n%s\n' "$1" "$2"
	} | sha256sum | cut -c1-64
}

# Downloads the packages at the versions ($2) into the directory $1.
download() {
	local specs=() pkg version
	while read -r pkg version; do
		[ -n "$pkg" ] && specs+=("$pkg=$version")
	done <<<"$2"
	(cd "$1" && apt-get download -q "${specs[@]}")
}

# Files of the base image among the given paths, one a line.
present_in_base() {
	docker run --rm --entrypoint /bin/sh "$BASE_IMAGE" -c 'for f; do [ -e "$f" ] && echo "$f"; done; true' sh "$@"
}

# Stages pg_autoctl, the extension and the shared libraries the base lacks.
stage_layer() {
	local debs="$1" root="$2" unpacked="$2.unpacked" lib
	mkdir -p "$unpacked" "$root/bin"
	for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$unpacked"; done
	cp -a "$unpacked/usr/bin/pg_autoctl" "$root/bin/pg_autoctl"
	mkdir -p "$root/usr/lib/postgresql/15/lib" "$root/usr/share/postgresql/15/extension"
	cp -a "$unpacked"/usr/lib/postgresql/15/lib/pgautofailover.so "$root/usr/lib/postgresql/15/lib/"
	cp -a "$unpacked"/usr/share/postgresql/15/extension/pgautofailover* "$root/usr/share/postgresql/15/extension/"

	local out libs=()
	out="$(ldd "$root/bin/pg_autoctl" "$root/usr/lib/postgresql/15/lib/pgautofailover.so")"
	if grep -q 'not found' <<<"$out"; then
		die "unresolved shared libraries (apt-get install them on the host): $(grep 'not found' <<<"$out" | tr -s ' \t\n' ' ')"
	fi
	# Under /usr: /lib and /lib64 are links into it in the base image, and
	# a directory of that name in this layer would hide them.
	mapfile -t libs < <(awk '/^[ \t]/ && $2 == "=>" && $3 ~ /^\// { print $3 }' <<<"$out" |
		sed -E 's,^/(lib|lib64)/,/usr/\1/,' | sort -u)
	local have
	have="$(present_in_base "${libs[@]}")"
	for lib in "${libs[@]}"; do
		grep -qxF "$lib" <<<"$have" && continue
		log "adding $lib"
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	rm -rf "$unpacked"
	mkdir -p "$root/usr/local/bin"
	install -m 0755 "$HERE/entrypoint.sh" "$root/usr/local/bin/pgaf-entrypoint.sh"
}

main() {
	command -v docker >/dev/null || die "docker is not installed"
	local start=$SECONDS
	LEADERBOARD_PG_IMAGE="$BASE_IMAGE" bash "$HERE/../postgres-image/build.sh" >&2
	# Taken once the base is built (its build takes the lock itself): from
	# here the base is not rebuilt under this build, and no other build runs
	# apt or tags the image meanwhile.
	exec {lock_fd}>>"$LOCK_FILE"
	if ! flock -n "$lock_fd"; then
		log "waiting for $LOCK_FILE"
		flock -w 900 "$lock_fd" || die "timed out waiting for $LOCK_FILE"
	fi
	docker image inspect "$BASE_IMAGE" >/dev/null 2>&1 || die "$BASE_IMAGE is missing"
	ensure_host_libraries

	local versions base_id hash current
	versions="$(package_versions)"
	base_id="$(docker image inspect -f '{{.Id}}' "$BASE_IMAGE")"
	hash="$(recipe_hash "$versions" "$base_id")"
	current="$(docker image inspect -f "{{ index .Config.Labels \"$LABEL_KEY\" }}" "$IMAGE" 2>/dev/null || true)"
	if [ "$current" = "$hash" ]; then
		echo "image $IMAGE is up to date"
		return 0
	fi

	local tmp old_id out
	old_id="$(docker image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
	tmp="$(mktemp -d "${TMPDIR:-/tmp}/leaderboard-pgaf-image.XXXXXX")"
	# shellcheck disable=SC2064 # expand $tmp now
	trap "rm -rf '$tmp'" EXIT
	mkdir -p "$tmp/debs" "$tmp/context"
	chmod 0777 "$tmp/debs" # apt-get download runs as _apt where it can
	if ! out="$(download "$tmp/debs" "$versions" 2>&1)"; then
		# Package lists older than the archive name versions it no longer
		# has: read them again, and build what they name now.
		log "apt-get download failed; updating the package lists"
		apt-get update -q >/dev/null 2>&1 || true
		versions="$(package_versions)"
		hash="$(recipe_hash "$versions" "$base_id")"
		rm -f "$tmp/debs"/*.deb
		if ! out="$(download "$tmp/debs" "$versions" 2>&1)"; then
			printf '%s\n' "$out" >&2
			die "apt-get download $(tr '\n' ' ' <<<"$versions")failed"
		fi
	fi
	stage_layer "$tmp/debs" "$tmp/root"
	tar -C "$tmp/root" --sort=name --numeric-owner --owner=0 --group=0 -cf "$tmp/context/layer.tar" .
	cp "$HERE/Dockerfile" "$tmp/context/Dockerfile"

	if ! DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}" docker build -q --build-arg BASE_IMAGE="$BASE_IMAGE" \
		--label "$LABEL_KEY=$hash" -t "$IMAGE" "$tmp/context" >"$tmp/build.log" 2>&1; then
		cat "$tmp/build.log" >&2
		die "docker build failed"
	fi
	local new_id
	new_id="$(docker image inspect -f '{{.Id}}' "$IMAGE")"
	if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
		docker image rm "$old_id" >/dev/null 2>&1 || true # fails while containers use it: fine
	fi
	echo "built $IMAGE in $((SECONDS - start))s"
}

main "$@"
