#!/usr/bin/env bash
# Builds the service's container image on a machine that can pull no image:
#
#  1. the build stage's Go toolchain, localhost/leaderboard-go:<go version>,
#     FROM scratch out of this machine's own Go (its toolchain is statically
#     linked) and busybox-static, when missing;
#  2. vendor/ (go mod vendor), so that the build needs no network;
#  3. docker build of the repository's Dockerfile with that toolchain image
#     (--build-arg GO_IMAGE, in place of the Dockerfile's default, the stock
#     golang image), tagged leaderboard:<revision> and leaderboard:latest.
#
# Where a registry is reachable, plain `docker build .` does the same without
# this script.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

log() { printf 'docker-image: %s\n' "$*" >&2; }

GOROOT="$(go env GOROOT)"
GO_VERSION="$(go env GOVERSION)" # such as go1.26.8
GO_IMAGE="localhost/leaderboard-go:${GO_VERSION#go}"
IMAGE="${LEADERBOARD_IMAGE:-leaderboard}"
REVISION="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"

if ! docker image inspect "$GO_IMAGE" >/dev/null 2>&1; then
	if ! command -v busybox >/dev/null; then
		log "installing busybox-static with apt-get"
		apt-get install -y -q busybox-static >/dev/null
	fi
	stage="$(mktemp -d)"
	trap 'rm -rf "$stage"' EXIT
	log "building $GO_IMAGE from $GOROOT"
	mkdir -p "$stage/root/usr/local" "$stage/root/bin" "$stage/root/tmp" "$stage/root/etc/ssl/certs"
	cp -a "$GOROOT" "$stage/root/usr/local/go"
	cp "$(command -v busybox)" "$stage/root/bin/busybox"
	for applet in sh mkdir cp ls rm cat; do ln -s busybox "$stage/root/bin/$applet"; done
	cp /etc/ssl/certs/ca-certificates.crt "$stage/root/etc/ssl/certs/"
	printf 'root:x:0:0:root:/tmp:/bin/sh\nleaderboard:x:65532:65532:leaderboard:/:/leaderboard\n' >"$stage/root/etc/passwd"
	printf 'root:x:0:\nleaderboard:x:65532:\n' >"$stage/root/etc/group"
	cat >"$stage/Dockerfile" <<'DOCKERFILE'
FROM scratch
COPY root/ /
ENV PATH=/usr/local/go/bin:/bin HOME=/tmp GOCACHE=/tmp/go-build GOTOOLCHAIN=local
DOCKERFILE
	docker build -q -t "$GO_IMAGE" "$stage" >/dev/null
fi

log "vendoring modules"
go mod vendor
trap 'rm -rf vendor' EXIT
log "building $IMAGE:$REVISION"
docker build \
	--build-arg GO_IMAGE="$GO_IMAGE" \
	--build-arg GOFLAGS=-mod=vendor \
	--build-arg REVISION="$REVISION" \
	-t "$IMAGE:$REVISION" -t "$IMAGE:latest" .
docker image ls "$IMAGE:$REVISION" --format 'docker-image: {{.Repository}}:{{.Tag}} is {{.Size}}' >&2
