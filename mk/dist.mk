# The installable package. `make dist` builds a release .deb with the Tauri
# bundler (desktop entry, icon, the webkit/gtk runtime as declared
# dependencies); `make test` builds the same package from the debug
# profile it has already compiled (the packaging is what is under test,
# and a second, release, build of the whole app would double CI's time),
# installs it with dpkg and launches the installed /usr/bin/zot under Xvfb.

# `=`, not `:=`: UI_DIR and CARGO_TARGET come from ui.mk, read after this file.
TAURI_CLI = $(UI_DIR)/node_modules/.bin/tauri
# The bundler names the package after tauri.conf.json's version.
ZOT_VERSION := $(shell sed -n 's/^  "version": "\(.*\)",/\1/p' src-tauri/tauri.conf.json)
DEB_ARCH := $(shell dpkg --print-architecture 2>/dev/null || echo amd64)
DEB_NAME := zot_$(ZOT_VERSION)_$(DEB_ARCH).deb

TEST_TARGETS += test-dist
.PHONY: dist test-dist

dist: deps ui-dist
	$(TAURI_CLI) build --ci --bundles deb
	@echo "built $(CARGO_TARGET)/release/bundle/deb/$(DEB_NAME)"

## dpkg -i needs root; elsewhere the step says so and is skipped.
test-dist: deps ui-dist
	$(TAURI_CLI) build --ci --debug --bundles deb
	@if [ "$$(id -u)" != 0 ]; then echo "test-dist: skipped (dpkg -i needs root)"; exit 0; fi; \
	dpkg -i $(CARGO_TARGET)/debug/bundle/deb/$(DEB_NAME) >/dev/null && \
	PATH="$(HOME)/.cargo/bin:$$PATH" ZOT_E2E_BIN=/usr/bin/zot timeout -k 10 300 \
		xvfb-run -a -s "-screen 0 1280x800x24" node --test e2e/installed/deb.smoke.mjs
