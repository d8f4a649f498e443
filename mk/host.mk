# The extension host (extensions/host). Its tests run in the root
# `cargo test --workspace`; they need only python3 (in APT_PACKAGES).
# `make bench-host` measures round trips, interception, spawn, parsing and
# memory against raw-pipe floors and writes docs/performance.md.

BENCH_TARGETS += bench-host

.PHONY: bench-host
bench-host:
	cargo build --release -p zot-ext-host --example bench_echo
	cargo bench -p zot-ext-host --bench host
