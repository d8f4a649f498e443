# The extension SDKs (extensions/sdk, extensions/sdk-ts, extensions/sdk-py)
# and the examples (examples/extensions). The Rust SDK's tests and every
# example's host-driven test are cargo tests and run in the root
# `cargo test --workspace`. Here: the TypeScript package (npm ci from its
# committed lockfile, tsc, node --test, its frame types and the guide's
# field tables in docs/protocol.md checked against the protocol crate's bindings), the
# Python SDK (unittest, on the real interpreter rather than a version-manager
# shim), and the round-trip benchmark.

SDK_TS := extensions/sdk-ts
SDK_PY := extensions/sdk-py
SCRATCHPAD := examples/extensions/scratchpad
# The real interpreter: a pyenv shim on PATH costs tens of ms per start.
SDK_PYTHON := $(shell python3 -c 'import sys;print(sys.executable)' 2>/dev/null || echo python3)

DEPS_TARGETS += deps-sdk
TEST_TARGETS += test-sdk
BENCH_TARGETS += bench-sdk

.PHONY: deps-sdk test-sdk test-sdk-ts test-sdk-py bench-sdk

## npm ci when the lockfile changed; build the TS SDK and the scratchpad
## example (the examples' host tests in cargo test need both).
deps-sdk: $(SDK_TS)/node_modules/.zot-installed
	cd $(SDK_TS) && npm run --silent build
	$(SDK_TS)/node_modules/.bin/tsc -p $(SCRATCHPAD)

$(SDK_TS)/node_modules/.zot-installed: $(SDK_TS)/package-lock.json $(SDK_TS)/package.json
	cd $(SDK_TS) && npm ci --no-audit --no-fund
	@touch $@

test-sdk: test-sdk-ts test-sdk-py

test-sdk-ts: deps-sdk
	cd $(SDK_TS) && node scripts/sync-protocol.mjs --check
	cd $(SDK_TS) && node scripts/protocol-doc.mjs --check
	cd $(SDK_TS) && node --test test/*.test.mjs

test-sdk-py:
	cd $(SDK_PY)/tests && $(SDK_PYTHON) -m unittest -q

## Tool round trip through each SDK vs the language's raw loop; rewrites the
## SDK section of docs/performance.md.
bench-sdk: deps-sdk
	cargo build --release -p zot-ext --examples
	cargo run --release -q -p zot-ext --example bench_roundtrip -- --write docs/performance.md

## Live reload: a save of a Python extension (the todo example) to it being
## reloaded and ready again through `--watch`'s watcher, beside a cold start
## of the same extension; rewrites the "Live reload" section of
## docs/performance.md. Goal (#11): under 1 s.
BENCH_TARGETS += bench-watch

.PHONY: bench-watch
bench-watch:
	cargo test --release -p zot-ext-host --test bench_watch -- --ignored --nocapture
