# The desktop UI (ui/) and the real app: install, unit tests, type and
# format checks, the end-to-end run under Xvfb, `make run`, `make build` and
# `make dev`. Every cargo build of zot embeds ui/dist (its default feature
# custom-protocol); only `make dev` loads the page from Vite's dev server.

UI_DIR := ui
# Cargo's target dir: target/, or CARGO_TARGET_DIR when it is set (a second
# checkout's builds, or a helper's own dir), so the binaries below are found
# wherever cargo put them.
CARGO_TARGET := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
# The E2E binary shares the target dir with `cargo test` (a second target dir
# doubled the disk a cold build needs, and CI ran out of it), then is copied
# aside, because a later `cargo test` may rebuild debug/zot (with the same
# features, so tauri is not recompiled, but from whatever ui/dist then holds).
E2E_BIN := $(CARGO_TARGET)/e2e/zot
TAURI_DRIVER := $(HOME)/.cargo/bin/tauri-driver

DEPS_TARGETS += deps-ui
TEST_TARGETS += test-ui test-e2e

.PHONY: deps-ui ui-dist test-ui test-e2e e2e-bin screenshots run build dev

## npm ci only when the lockfile changed since the last install; tauri-driver once.
deps-ui: $(UI_DIR)/node_modules/.zot-installed
	@command -v tauri-driver >/dev/null 2>&1 || [ -x $(TAURI_DRIVER) ] || \
		cargo install tauri-driver --locked --version 2.1.0

$(UI_DIR)/node_modules/.zot-installed: $(UI_DIR)/package-lock.json $(UI_DIR)/package.json
	cd $(UI_DIR) && npm ci --no-audit --no-fund
	@touch $@

ui-dist: deps-ui
	cd $(UI_DIR) && npm run build

## Unit tests (vitest), types (svelte-check + tsc) and formatting (prettier).
test-ui: deps-ui
	cd $(UI_DIR) && npx vitest run
	cd $(UI_DIR) && npm run check
	cd $(UI_DIR) && npx prettier --check .

## A debug binary with the UI embedded, copied to target/e2e/zot.
e2e-bin: ui-dist
	cargo build -p zot
	mkdir -p $(dir $(E2E_BIN)) && cp $(CARGO_TARGET)/debug/zot $(E2E_BIN)

## The real app under Xvfb through tauri-driver and WebKitWebDriver. Its
## screenshots land in target/e2e-screenshots: a test run rewrites nothing
## that git tracks (`make screenshots` refreshes the docs' copies).
E2E_SHOTS := $(CURDIR)/target/e2e-screenshots
E2E_RUN = PATH="$(HOME)/.cargo/bin:$$PATH" ZOT_E2E_BIN=$(E2E_BIN) ZOT_E2E_SHOTS=$(E2E_SHOTS) timeout -k 10 600 \
	xvfb-run -a -s "-screen 0 1280x800x24" node --test --test-concurrency=1
test-e2e: apt e2e-bin
	rm -f e2e.log
	$(E2E_RUN) e2e/ > e2e.log 2>&1 || { cat e2e.log; exit 1; }
	@tail -n 12 e2e.log

## Refreshes docs/screenshots from the E2E files that take screenshots
## (`await shot` in e2e/*.test.mjs), when the UI changed on purpose: they run
## as in `make test-e2e`, then their shots are copied over the docs' copies.
E2E_SHOT_FILES = $(shell grep -l 'await shot' e2e/*.test.mjs)
screenshots: apt e2e-bin
	rm -rf $(E2E_SHOTS) e2e-screenshots.log
	$(E2E_RUN) $(E2E_SHOT_FILES) > e2e-screenshots.log 2>&1 || { cat e2e-screenshots.log; exit 1; }
	mkdir -p docs/screenshots && cp $(E2E_SHOTS)/*.png docs/screenshots/
	@echo "copied $$(ls $(E2E_SHOTS) | wc -l) screenshots into docs/screenshots: review them with git diff --stat"

## Builds the UI and the backend, then opens the window.
run: deps ui-dist
	cargo build -p zot
	$(CARGO_TARGET)/debug/zot $(ARGS)

## A release binary with the UI embedded at target/release/zot.
build: deps ui-dist
	cargo build -p zot --release
	@echo "built $(CARGO_TARGET)/release/zot"

## The window against Vite's dev server (hot reload while working on the
## UI): the one build that loads devUrl (http://localhost:5173) instead of
## the embedded page. Vite runs in its own process group and is stopped
## with the window.
DEV_URL_PORT := 5173
dev: deps
	@set -m; (cd $(UI_DIR) && exec npx vite --port $(DEV_URL_PORT) --strictPort) & vite=$$!; \
	trap 'kill -- -$$vite 2>/dev/null || true' EXIT INT TERM; \
	for i in $$(seq 1 150); do (exec 3<>/dev/tcp/127.0.0.1/$(DEV_URL_PORT)) 2>/dev/null && break; sleep 0.2; done; \
	cargo run -p zot --no-default-features --features dev-server -- $(ARGS)

BENCH_TARGETS += bench-ui
.PHONY: bench-ui

BENCH_TARGETS += bench-html-panel
.PHONY: bench-html-panel

## HTML panels (html-panel-bench.mjs: the "HTML panels" section of
## docs/performance.md): open → first paint against the same page in a bare
## sandboxed frame, and the page → extension → page round trip, in the
## release build. HTML_BENCH_PRINT=1 prints without touching the doc.
bench-html-panel: apt ui-dist
	cargo build --release -p zot
	PATH="$(HOME)/.cargo/bin:$$PATH" ZOT_E2E_BIN=$(CARGO_TARGET)/release/zot timeout -k 10 900 \
		xvfb-run -a -s "-screen 0 1280x800x24" node e2e/bench/html-panel-bench.mjs

## Start-up and idle memory against a bare Tauri window, keypress→repaint,
## and a 10 000-message session (ui-bench.mjs: the Desktop section of
## docs/performance.md); then the desktop at scale (scale-bench.mjs: 40
## installed extensions, switching project, a 1 000-session sidebar; the
## "Desktop at scale" section), then panels under the mouse (panel-bench.mjs:
## click → re-render, a 10 000-line panel wheeled; the "Desktop panels"
## section), then a tool flooding progress (progress-bench.mjs: the
## window's frames during 10 000 tool_progress frames; "Long tool calls"),
## all in release builds. zot and
## examples/bare-window are built in one cargo invocation, so tauri and the
## rest of their dependencies are compiled once, with the same features,
## for both. deps-sdk first: the scale bench runs scratchpad copies, which
## need scratchpad.js and the TypeScript SDK embedded in the build.
## BENCH_UI_SCRIPTS=scale-bench runs one of them; UI_BENCH_ONLY and
## SCALE_BENCH_ONLY pick parts of each (printed, the doc left alone).
BENCH_UI_SCRIPTS ?= ui-bench scale-bench panel-bench progress-bench
bench-ui: apt ui-dist deps-sdk
	cargo build --release -p zot -p bare-window --features bare-window/custom-protocol
	rm -f bench-ui.log
	for b in $(BENCH_UI_SCRIPTS); do \
		PATH="$(HOME)/.cargo/bin:$$PATH" ZOT_E2E_BIN=$(CARGO_TARGET)/release/zot \
			ZOT_BARE_BIN=$(CARGO_TARGET)/release/bare-window timeout -k 10 2100 \
			xvfb-run -a -s "-screen 0 1280x800x24" node e2e/bench/$$b.mjs >> bench-ui.log 2>&1 \
			|| { cat bench-ui.log; exit 1; }; \
	done
	@cat bench-ui.log
