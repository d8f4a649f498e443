# The agent (src-tauri: providers, tools, loop, sessions, print/json/rpc).
# Its tests run in the root `test-rust` target (cargo test --workspace; the
# fixture extensions need python3, already in APT_PACKAGES). The benchmark
# is an ignored test, built in release, that rewrites its section of
# docs/performance.md.

BENCH_TARGETS += bench-agent

.PHONY: bench-agent
bench-agent:
	cd src-tauri && cargo test --release --no-default-features --test bench_agent -- --ignored --nocapture
