# The leaderboard service: a static binary on an empty base, run as a user
# without privileges. The build stage is a Go toolchain image: by default the
# stock one, so that plain `docker build .` works wherever a registry is
# reachable. On a machine without one, scripts/docker-image/build.sh (make
# image) builds localhost/leaderboard-go:<version> from the local Go, vendors
# the modules and passes both here with --build-arg GO_IMAGE=… GOFLAGS=-mod=vendor.
ARG GO_IMAGE=golang:1.26

FROM ${GO_IMAGE} AS build
ARG GOFLAGS=-mod=mod
ARG REVISION=unknown
WORKDIR /src
COPY . .
RUN CGO_ENABLED=0 GOFLAGS="${GOFLAGS}" go build -trimpath \
	-ldflags "-s -w -X github.com/gamebackend/leaderboard/app.revision=${REVISION}" \
	-o /out/leaderboard ./cmd/leaderboard \
	&& mkdir -p /out/etc /out/tmp \
	&& printf 'leaderboard:x:65532:65532:leaderboard:/:/leaderboard\n' >/out/etc/passwd \
	&& printf 'leaderboard:x:65532:\n' >/out/etc/group

FROM scratch
COPY --from=build /out/leaderboard /leaderboard
COPY --from=build /out/etc/ /etc/
COPY --from=build --chown=65532:65532 /out/tmp/ /tmp/
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
USER 65532:65532
EXPOSE 8080
# Every setting comes from the environment (see README.md); DATABASE_URL is
# required in a container: the embedded local PostgreSQL needs the host's.
ENV LISTEN_ADDR=:8080
ENTRYPOINT ["/leaderboard"]
CMD ["serve"]
