# leaderboard — common tasks. `make run` serves; `make test` runs every test.
GO            ?= go
PG_IMAGE      ?= localhost/leaderboard-postgres:15
export LEADERBOARD_PG_IMAGE ?= $(PG_IMAGE)
# No registry here: the reaper image cannot be pulled; tests remove their own containers.
export TESTCONTAINERS_RYUK_DISABLED ?= true

.PHONY: run build test test-deps test-image pgaf-image bench soak fuzz lint generate tzdata clean

## run: serve on :8080 (LISTEN_ADDR=:9090 make run for another port) with two demo months,
##      development secrets, and the schema open (GraphiQL at /graphiql, introspection);
##      without DATABASE_URL on a local PostgreSQL of its own, whose data LEADERBOARD_DATA_DIR
##      places (default /var/lib/leaderboard for root, ~/.local/share/leaderboard otherwise)
run: build
	LEADERBOARD_DEMO_PLAYERS=$${LEADERBOARD_DEMO_PLAYERS-10000} \
	LEADERBOARD_GRAPHIQL=$${LEADERBOARD_GRAPHIQL-true} \
	LEADERBOARD_INTROSPECTION=$${LEADERBOARD_INTROSPECTION-true} \
	LEADERBOARD_ADMIN_TOKEN=$${LEADERBOARD_ADMIN_TOKEN-dev-admin-token-local} \
	LEADERBOARD_SERVER_TOKEN=$${LEADERBOARD_SERVER_TOKEN-dev-server-token} \
	LEADERBOARD_JWT_SECRET=$${LEADERBOARD_JWT_SECRET-dev-jwt-secret-for-local-use-only} \
	LEADERBOARD_ERASURE_KEY=$${LEADERBOARD_ERASURE_KEY-dev-erasure-key-for-local-use-only} \
	./bin/leaderboard serve

## build: compile bin/leaderboard
build:
	$(GO) build -buildvcs=auto -o bin/leaderboard ./cmd/leaderboard

## image: build the container image leaderboard:latest (no registry needed; see Dockerfile)
image:
	@bash scripts/docker-image/build.sh

## test: lint, then every test (unit, db integration, end to end, browser) against real PostgreSQL
test: lint test-deps test-image pgaf-image
	$(GO) test -count=1 -timeout 40m ./...

## test-deps: install chromium (for the browser test) when it is missing
test-deps:
	@bash scripts/install-test-deps.sh

## test-image: build the local PostgreSQL image when it is missing or stale
test-image:
	@if [ "$(LEADERBOARD_PG_IMAGE)" = "$(PG_IMAGE)" ]; then bash scripts/postgres-image/build.sh; fi

## pgaf-image: build localhost/leaderboard-pg-auto-failover:15 (pg_auto_failover from Debian's
##             packages on the test image) for compose's profile "failover" and its e2e test
pgaf-image:
	@bash scripts/auto-failover-image/build.sh

## bench: measure the service against the Redis design and write bench-report.md (--out in BENCH_FLAGS
##        for another place), whose figures docs/PERFORMANCE.md gathers with their history
##        (BENCH_FLAGS="--players 10000000" for the 10M targets); never part of make test
bench:
	$(GO) run ./cmd/leaderboard-bench $(BENCH_FLAGS)

SOAK_DURATION ?= 30m
SOAK_TIMEOUT  ?= 2h

## soak: two instances for SOAK_DURATION (default 30m; make test runs 3m) under steady writes
##       and reads, one-minute seasons closing every minute, a PostgreSQL and a service
##       restart; checks nothing is lost or leaks and rewrites docs/soak.md and docs/soak.svg
soak: test-image
	LEADERBOARD_SOAK_DURATION=$(SOAK_DURATION) LEADERBOARD_SOAK_REPORT=$(CURDIR)/docs \
		$(GO) test -count=1 -v -run '^TestSoak_' -timeout $(SOAK_TIMEOUT) ./e2e/

# Each fuzz target as package:name. Their seed corpora (testdata/fuzz) run in make test.
FUZZ_TARGETS := .:FuzzParseMonth .:FuzzScoreEvent_Validate .:FuzzNormalizeMetadata ./auth:FuzzAuthorizationHeader \
                ./db:FuzzDecodeCursor ./resolvers:FuzzGraphQLRequest
FUZZTIME     ?= 20s

## fuzz: run each fuzz target for FUZZTIME (default 20s); the db target starts PostgreSQL
fuzz: test-image
	@set -e; for target in $(FUZZ_TARGETS); do \
		pkg=$${target%%:*}; name=$${target##*:}; echo "== $$name ($$pkg), $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg; \
	done

## lint: no merge conflict markers, gofmt and go vet
lint:
	@if git grep -nE '^(<<<<<<<|>>>>>>>) '; then echo "merge conflict markers left in the files above"; exit 1; fi
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

## generate: regenerate graph/ from graph/schema/*.graphqls
generate:
	$(GO) generate .

## tzdata: refresh tzdata/zoneinfo.zip, the time zones the service knows, from the Go
##         toolchain in use (then set leaderboard.TimeZoneData to its version)
tzdata:
	cp "$$($(GO) env GOROOT)/lib/time/zoneinfo.zip" tzdata/zoneinfo.zip
	@grep '^DATA=' "$$($(GO) env GOROOT)/lib/time/update.bash"

clean:
	rm -rf bin
