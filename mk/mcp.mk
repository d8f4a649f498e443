# MCP servers and the WebSocket transport (#16). The host's tests in
# extensions/host/tests/mcp.rs and websocket.rs run real servers: the Python
# `mcp` SDK and `websockets` in a venv, and `@modelcontextprotocol/
# server-everything` from npm, both under extensions/host/tests/fixtures/mcp
# (pinned in requirements.txt and package-lock.json). `make deps` installs
# them before `cargo test`; `make bench-mcp` measures the round trip.

MCP_FIX := extensions/host/tests/fixtures/mcp
MCP_PYTHON := $(shell python3 -c 'import sys;print(sys.executable)' 2>/dev/null || echo python3)

DEPS_TARGETS += deps-mcp
BENCH_TARGETS += bench-mcp

.PHONY: deps-mcp bench-mcp

deps-mcp: $(MCP_FIX)/.venv/.zot-installed $(MCP_FIX)/node_modules/.zot-installed

$(MCP_FIX)/.venv/.zot-installed: $(MCP_FIX)/requirements.txt
	$(MCP_PYTHON) -m venv $(MCP_FIX)/.venv
	$(MCP_FIX)/.venv/bin/pip install -q --disable-pip-version-check -r $(MCP_FIX)/requirements.txt
	@touch $@

$(MCP_FIX)/node_modules/.zot-installed: $(MCP_FIX)/package-lock.json $(MCP_FIX)/package.json
	cd $(MCP_FIX) && npm ci --no-audit --no-fund
	@touch $@

## A tool round trip through a Python MCP stdio server (rmcp) against the
## same tool as a native Python zot extension and against a raw JSON-RPC
## loop over the same server's pipes; rewrites the MCP section of
## docs/performance.md.
bench-mcp: deps-mcp
	cargo test --release -p zot-ext-host --test bench_mcp -- --ignored --nocapture
