# The agent (src-tauri: providers, tools, loop, sessions, print/json/rpc).
# Its tests run in the root `test-rust` target (cargo test --workspace; the
# fixture extensions need python3, already in APT_PACKAGES). The benchmark
# is an ignored test, built in release, that rewrites its section of
# docs/performance.md.

BENCH_TARGETS += bench-agent bench-context

.PHONY: bench-agent bench-context
bench-agent:
	cd src-tauri && cargo test --release --no-default-features --test bench_agent -- --ignored --nocapture

# Long sessions: prompt-cache savings over 200 turns against the fake
# Anthropic server's cache, and `compact` on a 10 000-message session.
bench-context:
	cd src-tauri && cargo test --release --no-default-features --test bench_context -- --ignored --nocapture

# `make fuzz` (root Makefile): the seeded RPC command-line fuzzer with 10^6
# inputs through the real reader and parser of `zot --mode rpc`, headless
# and in release. `cargo test` runs the same target with 10^4 inputs.
# ZOT_FUZZ_SEED=N repeats a run; ZOT_FUZZ_INPUTS=N changes its size.
FUZZ_TARGETS += fuzz-rpc

.PHONY: fuzz-rpc
fuzz-rpc:
	cd src-tauri && ZOT_FUZZ_INPUTS=$${ZOT_FUZZ_INPUTS:-1000000} cargo test --release --no-default-features --test fuzz_rpc -- --nocapture

# Checkpoints (docs/desktop.md "Checkpoints"): the checkpoint before a
# prompt on a 10 000-file repository with 10 changed files, against
# `git add -A && git write-tree` on a copy in the same run.
BENCH_TARGETS += bench-checkpoints

.PHONY: bench-checkpoints
bench-checkpoints:
	cd src-tauri && cargo test --release --no-default-features --test bench_checkpoints -- --ignored --nocapture
