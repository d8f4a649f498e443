#!/bin/sh
# Starts the scratchpad example. The compiled scratchpad.js (built by
# `make deps`, or `npx tsc -p .` here) starts fastest with plain Node; without
# it, the TypeScript source runs on the first runtime found that can run it:
# Bun, Deno, Node >= 22.6 (type stripping), or tsx on PATH. `zot-ext` is
# provided by zot (NODE_OPTIONS/NODE_PATH when zot starts this script).
# stdout is the protocol, so this script never prints to it.
cd "$(dirname "$0")" || exit 1
if [ -f scratchpad.js ] && [ ! scratchpad.ts -nt scratchpad.js ]; then exec node scratchpad.js; fi
if command -v bun >/dev/null 2>&1; then exec bun scratchpad.ts; fi
if command -v deno >/dev/null 2>&1; then exec deno run --allow-read --allow-write scratchpad.ts; fi
if node --experimental-strip-types -e '' >/dev/null 2>&1; then exec node --experimental-strip-types --no-warnings scratchpad.ts; fi
if command -v tsx >/dev/null 2>&1; then exec tsx scratchpad.ts; fi
# An installed copy may have scratchpad.ts newer than scratchpad.js (a copy
# does not keep mtimes): the compiled file is still the one to run.
if [ -f scratchpad.js ]; then exec node scratchpad.js; fi
echo "scratchpad: scratchpad.js is missing and no TypeScript runtime was found (bun, deno, node >= 22.6 or tsx); compile it with 'make deps' in the zot checkout" >&2
exit 127
