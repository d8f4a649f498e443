# zot desktop. `make run` starts the app, `make test` runs every test,
# `make bench` measures. Each installs what it needs on a fresh Debian/Ubuntu.
#
# Each area of the project adds its own targets in mk/<area>.mk and appends
# them to DEPS_TARGETS, TEST_TARGETS, BENCH_TARGETS and FUZZ_TARGETS, so
# areas never edit the same recipe.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export CARGO_TERM_COLOR := never

APT_PACKAGES := build-essential pkg-config libwebkit2gtk-4.1-dev \
	webkit2gtk-driver xvfb xauth fonts-dejavu-core imagemagick xdotool python3 git \
	dbus-daemon gnome-keyring libsecret-tools bubblewrap slirp4netns python3-gi gir1.2-gtk-3.0 \
	python3-dbus x11-utils openssl

DEPS_TARGETS :=
TEST_TARGETS :=
BENCH_TARGETS :=
FUZZ_TARGETS :=

-include mk/*.mk

.PHONY: deps apt dev-null test test-rust bench run build fuzz

## /dev/null must be the character device. On this project's machines it was
## once found replaced by a regular file, which then carried stray output
## into every program reading it, cargo's rustc probe included ("failed to
## run rustc to learn about target-specific information"). Repair it when
## root, and say so; `test` checks again at the end so a culprit shows.
dev-null:
	@if [ ! -c /dev/null ]; then \
		echo "warning: /dev/null is not a character device; recreating it"; \
		if [ "$$(id -u)" = 0 ]; then rm -f /dev/null && mknod -m 666 /dev/null c 1 3; \
		else echo "error: /dev/null is broken; ask an administrator to recreate it (mknod -m 666 /dev/null c 1 3)"; exit 1; fi; \
	fi

## System packages, only when one is missing (dpkg -s), so a warm machine skips apt.
apt:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

deps: dev-null apt $(DEPS_TARGETS)

## Rust: format, lints, every crate's tests, then the generated bindings must match.
## examples/bare-window (the floor for `make bench-ui`) is linted but has no
## tests, and linking a second Tauri binary would only cost time and disk.
test-rust: deps
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo test --workspace --exclude bare-window
	git diff --exit-code -- ui/src/lib/bindings || { echo "ui/src/lib/bindings is stale: run 'cargo test -p zot-ext-protocol' and commit the result"; exit 1; }
	@untracked=$$(git ls-files --others --exclude-standard ui/src/lib/bindings); \
	if [ -n "$$untracked" ]; then echo "new bindings not checked in: $$untracked"; exit 1; fi

test: test-rust $(TEST_TARGETS)
	@[ -c /dev/null ] || { echo "error: something in the test run replaced /dev/null with a regular file"; exit 1; }
	@echo "make test: all suites passed"

bench: deps $(BENCH_TARGETS)
	@echo "make bench: results in docs/performance.md"

## Every area's fuzzer with 10^6 inputs (seeded generators; no nightly).
## Short seeded runs of the same targets are part of `make test`.
fuzz: $(FUZZ_TARGETS)
