# ctx: build, test, bench, lint. Needs Go 1.26 and git.
GO      ?= go
BIN     ?= bin
PKGS    := ./...

.PHONY: build test bench lint demo corpus clean

build:
	$(GO) build -o $(BIN)/ctx ./cmd/ctx
	$(GO) build -o $(BIN)/ctx-core ./cmd/ctx-core
	$(GO) build -o $(BIN)/ctx-mcp ./cmd/ctx-mcp
	$(GO) build -o $(BIN)/ctx-hook ./cmd/ctx-hook
	$(GO) build -o $(BIN)/ctx-corpus ./cmd/ctx-corpus

# The README's test command. Tests read the agent fixtures in ../shared.
test:
	$(GO) mod download
	$(GO) vet $(PKGS)
	$(GO) test -count=1 -timeout 30m $(PKGS)
	$(GO) test -count=1 -timeout 30m -race ./objects/ ./refs/ ./ingest/ ./index/

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 1x ./index/ ./ingest/
	./scripts/bench.sh

lint:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	$(GO) vet $(PKGS)
	$(GO) mod tidy -diff

# The README's first command: import what is discovered (or a generated
# sample history into a scratch home when there is none) and search it.
demo: build
	./scripts/demo.sh

clean:
	rm -rf $(BIN) .demo
