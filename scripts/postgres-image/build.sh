#!/usr/bin/env bash
# Builds the local image localhost/leaderboard-postgres:15 (override with
# LEADERBOARD_PG_IMAGE) FROM scratch out of the host's Debian postgresql-15
# packages, for machines that cannot pull images from any registry.
#
# The image holds /usr/lib/postgresql/15 (without llvmjit), /usr/share/postgresql/15,
# the shared libraries those binaries need plus the dynamic loader, zoneinfo,
# the C.UTF-8 locale, busybox-static as /bin, and entrypoint.sh, which follows
# the official postgres image's contract (POSTGRES_USER/PASSWORD/DB, PGDATA).
#
# Idempotent: the image is labelled with a hash of this recipe (build.sh,
# Dockerfile, entrypoint.sh) and the versions of the host packages it is made
# of; when the existing image carries the same label nothing is built.
# Installs postgresql-15 with apt-get when missing, without creating a host
# cluster (the embedded default uses the same binaries). busybox-static is only
# downloaded and unpacked into the image, never installed on the host.
set -euo pipefail
umask 022 # staged files keep their modes in the image

IMAGE="${LEADERBOARD_PG_IMAGE:-localhost/leaderboard-postgres:15}"
LOCK_FILE="${LEADERBOARD_PG_IMAGE_LOCK:-/tmp/leaderboard-postgres-image.lock}"
LABEL_KEY=com.gamebackend.leaderboard.postgres-image.recipe
PG_MAJOR=15
PG_LIB="/usr/lib/postgresql/$PG_MAJOR"
PG_SHARE="/usr/share/postgresql/$PG_MAJOR"
PG_UID=999
PG_GID=999
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf 'postgres-image: %s\n' "$*" >&2; }
die() {
	log "error: $*"
	exit 1
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	else
		sudo "$@"
	fi
}

pkg_installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" = "install ok installed" ]
}

ensure_packages() {
	local missing=() apt_log
	pkg_installed "postgresql-$PG_MAJOR" || missing+=("postgresql-$PG_MAJOR")
	[ "${#missing[@]}" -gt 0 ] || return 0

	log "installing ${missing[*]} with apt-get"
	if pkg_installed "postgresql-$PG_MAJOR"; then :; else
		# Must be in place before postgresql-common/postgresql-15 get
		# configured, or they create and start a "main" host cluster.
		as_root mkdir -p /etc/postgresql-common/createcluster.d
		printf '%s\n' '# scripts/postgres-image/build.sh: only the packaged files are needed' \
			'create_main_cluster = false' |
			as_root tee /etc/postgresql-common/createcluster.d/leaderboard-no-main-cluster.conf >/dev/null
	fi
	apt_log="$(mktemp)"
	local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}")
	if ! as_root "${install[@]}" >"$apt_log" 2>&1; then
		if ! { as_root apt-get update -q && as_root "${install[@]}"; } >>"$apt_log" 2>&1; then
			cat "$apt_log" >&2
			rm -f "$apt_log"
			die "apt-get install ${missing[*]} failed"
		fi
	fi
	rm -f "$apt_log"
}

# The version of busybox-static apt would fetch; reads the package lists
# once more after an update when they do not know it yet.
busybox_version() {
	local version
	version="$(apt-cache show --no-all-versions busybox-static 2>/dev/null | awk '/^Version:/ { print $2; exit }')"
	if [ -z "$version" ]; then
		as_root apt-get update -q >/dev/null 2>&1 || true
		version="$(apt-cache show --no-all-versions busybox-static 2>/dev/null | awk '/^Version:/ { print $2; exit }')"
	fi
	[ -n "$version" ] || die "apt knows no busybox-static package"
	printf '%s\n' "$version"
}

# Downloads busybox-static at the given version and unpacks it under dir,
# leaving the host's packages as they are.
unpack_busybox() {
	local version="$1" dir="$2" out
	mkdir -p "$dir/deb" "$dir/root"
	if ! out="$(cd "$dir/deb" && apt-get download -q "busybox-static=$version" 2>&1)"; then
		printf '%s\n' "$out" >&2
		die "apt-get download busybox-static=$version failed"
	fi
	dpkg-deb -x "$dir"/deb/busybox-static_*.deb "$dir/root"
}

recipe_hash() {
	local busybox="$1"
	{
		cat "$HERE/build.sh" "$HERE/Dockerfile" "$HERE/entrypoint.sh"
		dpkg-query -W -f='${Package} ${Version}\n' "postgresql-$PG_MAJOR" libc6
		printf 'busybox-static %s\n' "$busybox"
	} | sha256sum | cut -c1-64
}

# Prints every shared library (and the dynamic loader) that the given ELF
# files load, as absolute paths; fails on unresolved libraries.
shared_libs() {
	local out
	out="$(ldd "$@")" || die "ldd failed: $out"
	if grep -q 'not found' <<<"$out"; then
		die "unresolved shared libraries: $(grep 'not found' <<<"$out" | tr -s ' \t\n' ' ')"
	fi
	# With several files ldd prints a "file:" header (unindented) per file.
	awk '/^[ \t]/ && $2 == "=>" && $3 ~ /^\// { print $3; next }
	     /^[ \t]/ && $1 ~ /^\// { print $1 }' <<<"$out" | sort -u
}

stage_rootfs() {
	local root="$1" busybox="$2" f lib applet
	mkdir -p "$root"/{bin,etc,root,tmp,usr/lib,usr/lib64,usr/local/bin,usr/share} \
		"$root"/{var/lib/postgresql/data,var/run/postgresql,docker-entrypoint-initdb.d}
	# merged-/usr layout like Debian; busybox lives in /bin.
	ln -s usr/lib "$root/lib"
	ln -s usr/lib64 "$root/lib64"
	ln -s bin "$root/sbin"
	ln -s ../bin "$root/usr/bin"
	ln -s ../bin "$root/usr/sbin"

	# PostgreSQL itself, minus the LLVM JIT provider and its inlining bitcode
	# (the app runs with jit = off; without llvmjit.so postgres just reports
	# JIT as unavailable).
	mkdir -p "$root/usr/lib/postgresql" "$root/usr/share/postgresql" "$root/usr/lib/locale"
	cp -a "$PG_LIB" "$root/usr/lib/postgresql/"
	cp -a "$PG_SHARE" "$root/usr/share/postgresql/"
	rm -rf "$root$PG_LIB"/lib/llvmjit* "$root$PG_LIB/lib/bitcode"
	cp -a /usr/share/zoneinfo "$root/usr/share/"
	cp -a /usr/lib/locale/C.utf8 "$root/usr/lib/locale/"
	if [ -d /lib/terminfo ]; then # basic terminfo for interactive psql
		cp -a "$(realpath /lib/terminfo)" "$root/usr/lib/"
	fi

	# Shared libraries of all binaries and modules we ship (llvmjit excluded,
	# so no libLLVM), copied under the path the loader resolved them to.
	local elfs=()
	for f in "$PG_LIB"/bin/* "$PG_LIB"/lib/*.so; do
		case "${f##*/}" in llvmjit*) continue ;; esac
		[ -f "$f" ] && [ ! -L "$f" ] && elfs+=("$f")
	done
	# glibc's locale(1): initdb runs `locale -a` to import libc collations.
	cp /usr/bin/locale "$root/bin/locale"
	elfs+=(/usr/bin/locale)
	local libs
	libs="$(shared_libs "${elfs[@]}")"
	while IFS= read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done <<<"$libs"
	if [ -n "$(find "$root" -name 'libLLVM*' -print -quit)" ]; then
		die "libLLVM ended up in the image"
	fi

	# busybox-static with its applets.
	if ldd "$busybox" >/dev/null 2>&1; then
		die "$busybox is not statically linked"
	fi
	cp "$busybox" "$root/bin/busybox"
	for applet in $("$busybox" --list); do
		[ "$applet" = busybox ] || [ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
	done

	cat >"$root/etc/passwd" <<EOF
root:x:0:0:root:/root:/bin/sh
postgres:x:$PG_UID:$PG_GID:PostgreSQL administrator:/var/lib/postgresql:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
	cat >"$root/etc/group" <<EOF
root:x:0:
postgres:x:$PG_GID:
nogroup:x:65534:
EOF
	printf '%s\n' 'passwd: files' 'group: files' 'shadow: files' 'hosts: files dns' >"$root/etc/nsswitch.conf"
	printf '%s\n' /bin/sh >"$root/etc/shells"
	ln -s /usr/share/zoneinfo/Etc/UTC "$root/etc/localtime"

	install -m 0755 "$HERE/entrypoint.sh" "$root/usr/local/bin/docker-entrypoint.sh"

	chmod 1777 "$root/tmp"
	chmod 0700 "$root/root" "$root/var/lib/postgresql/data"
	chmod 0755 "$root/var/lib/postgresql"
	chmod 3777 "$root/var/run/postgresql"
}

# rootfs.tar: everything root-owned except the postgres directories.
pack_rootfs() {
	local root="$1" tarball="$2"
	tar -C "$root" --sort=name --numeric-owner --owner=0 --group=0 \
		--exclude=./var/lib/postgresql --exclude=./var/run/postgresql \
		-cf "$tarball" .
	tar -C "$root" --sort=name --numeric-owner --owner="$PG_UID" --group="$PG_GID" \
		-rf "$tarball" ./var/lib/postgresql ./var/run/postgresql
}

main() {
	command -v docker >/dev/null || die "docker is not installed"
	local start=$SECONDS

	exec {lock_fd}>>"$LOCK_FILE"
	if ! flock -n "$lock_fd"; then
		log "waiting for $LOCK_FILE"
		flock -w 900 "$lock_fd" || die "timed out waiting for $LOCK_FILE"
	fi

	ensure_packages
	[ -x "$PG_LIB/bin/postgres" ] || die "$PG_LIB/bin/postgres missing after installing postgresql-$PG_MAJOR"

	local hash current old_id busybox
	busybox="$(busybox_version)"
	hash="$(recipe_hash "$busybox")"
	current="$(docker image inspect -f "{{ index .Config.Labels \"$LABEL_KEY\" }}" "$IMAGE" 2>/dev/null || true)"
	if [ "$current" = "$hash" ]; then
		echo "image $IMAGE is up to date"
		return 0
	fi
	old_id="$(docker image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)"

	local tmp
	tmp="$(mktemp -d "${TMPDIR:-/tmp}/leaderboard-postgres-image.XXXXXX")"
	# shellcheck disable=SC2064 # expand $tmp now
	trap "rm -rf '$tmp'" EXIT
	mkdir "$tmp/rootfs" "$tmp/context"
	unpack_busybox "$busybox" "$tmp/busybox"
	stage_rootfs "$tmp/rootfs" "$tmp/busybox/root/bin/busybox"
	pack_rootfs "$tmp/rootfs" "$tmp/context/rootfs.tar"
	rm -rf "$tmp/rootfs"
	cp "$HERE/Dockerfile" "$tmp/context/Dockerfile"

	# The classic builder needs nothing from a registry for FROM scratch.
	if ! DOCKER_BUILDKIT="${DOCKER_BUILDKIT:-0}" docker build -q \
		--label "$LABEL_KEY=$hash" -t "$IMAGE" "$tmp/context" >"$tmp/build.log" 2>&1; then
		cat "$tmp/build.log" >&2
		die "docker build failed"
	fi

	local new_id size
	new_id="$(docker image inspect -f '{{.Id}}' "$IMAGE")"
	if [ -n "$old_id" ] && [ "$old_id" != "$new_id" ]; then
		docker image rm "$old_id" >/dev/null 2>&1 || true # fails while containers use it: fine
	fi
	size="$(docker image inspect -f '{{.Size}}' "$IMAGE")"
	echo "built $IMAGE in $((SECONDS - start))s ($((size / 1000000)) MB)"
}

main "$@"
