#!/bin/sh
# Starts the scratchpad example. The compiled scratchpad.js (built by
# `make deps`, or `npx tsc -p .` here) starts fastest with plain Node; without
# it, the TypeScript source runs on the first runtime found that can run it:
# Bun, Deno, Node >= 22.6 (type stripping), or tsx (on PATH, or the SDK's). stdout is the protocol,
# so this script never prints to it.
cd "$(dirname "$0")" || exit 1
if [ -f scratchpad.js ] && [ ! scratchpad.ts -nt scratchpad.js ]; then exec node scratchpad.js; fi
if command -v bun >/dev/null 2>&1; then exec bun scratchpad.ts; fi
if command -v deno >/dev/null 2>&1; then exec deno run --allow-read --allow-write scratchpad.ts; fi
if node --experimental-strip-types -e '' >/dev/null 2>&1; then exec node --experimental-strip-types --no-warnings scratchpad.ts; fi
if command -v tsx >/dev/null 2>&1; then exec tsx scratchpad.ts; fi
# The SDK's own dev dependencies include tsx (after `npm ci` there).
tsx=../../../extensions/sdk-ts/node_modules/.bin/tsx
if [ -x "$tsx" ]; then exec "$tsx" scratchpad.ts; fi
echo "scratchpad: no way to run TypeScript found; run 'make deps' in the zot checkout to compile scratchpad.js" >&2
exit 127
