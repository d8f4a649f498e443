# The extension host (extensions/host). Its tests run in the root
# `cargo test --workspace`; they need python3, and `settings_keychain`
# needs dbus-daemon, gnome-keyring and libsecret-tools (all in APT_PACKAGES):
# it runs itself again inside `dbus-run-session` with a gnome-keyring-daemon
# unlocked for it (a temp XDG_DATA_HOME), so the real Secret Service is
# tested and no developer's keychain is touched.
# `make bench-host` measures round trips, interception, spawn, parsing and
# memory against raw-pipe floors and writes docs/performance.md.

BENCH_TARGETS += bench-host

.PHONY: bench-host
bench-host:
	cargo build --release -p zot-ext-host --example bench_echo
	cargo bench -p zot-ext-host --bench host

# `make fuzz`: the seeded extension-frame fuzzers (decoder, and decoder +
# router behind a real extension process) with 10^6 inputs each, in
# release. `cargo test` runs the same targets with 10^4. Other areas add
# their own fuzz targets as prerequisites of `fuzz`.
.PHONY: fuzz fuzz-host
fuzz: fuzz-host
fuzz-host:
	ZOT_FUZZ_INPUTS=1000000 cargo test --release -p zot-ext-host --test fuzz -- --nocapture --test-threads=1

# `make bench-sandbox`: spawn -> ready of a sandboxed Python extension
# against the same one unsandboxed, with bwrap's own cost as the floor
# (needs bubblewrap, in APT_PACKAGES).
BENCH_TARGETS += bench-sandbox

.PHONY: bench-sandbox
bench-sandbox:
	cargo bench -p zot-ext-host --bench sandbox

# `make bench-progress`: host CPU per `tool_progress` frame against a
# `notify` frame, 10 000 of each from one Python extension in one run
# (#35); rewrites the "Long tool calls" section of docs/performance.md.
BENCH_TARGETS += bench-progress

.PHONY: bench-progress
bench-progress:
	cargo test --release -p zot-ext-host --test bench_progress -- --ignored --nocapture

# `make sign-catalog KEY=FILE`: signs every entry of examples/catalog.json
# with zot's catalog key (its private half is kept outside the repository;
# docs/extensions.md "The catalog's signatures"). Run it after changing an
# example the catalog lists or its entry: the host test
# `the_embedded_catalog_is_signed_by_zot` fails until then. deps-sdk first:
# the scratchpad entry ships its compiled scratchpad.js, which is signed too.
.PHONY: sign-catalog
sign-catalog: deps-sdk
	@[ -n "$(KEY)" ] || { echo "usage: make sign-catalog KEY=/path/to/zot-catalog.key"; exit 1; }
	cargo run -q -p zot -- ext catalog-sign --key "$(KEY)" examples/catalog.json
