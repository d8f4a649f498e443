#!/bin/sh
# Starts a Rust example extension. A binary beside this script wins (that is
# how an installed copy ships it); otherwise the newest build in the zot
# workspace's target directory ($CARGO_TARGET_DIR if set and absolute).
# stdout carries the protocol, so this script never prints to it.
here=$(cd "$(dirname "$0")" && pwd)
bin=zot-example-hello
[ -x "$here/$bin" ] && exec "$here/$bin" "$@"
case "${CARGO_TARGET_DIR:-}" in
  /*) target=$CARGO_TARGET_DIR ;;
  *) target=$here/../../../target ;;
esac
best=
for p in "$target/debug/$bin" "$target/release/$bin"; do
  if [ -x "$p" ] && { [ -z "$best" ] || [ "$p" -nt "$best" ]; }; then best=$p; fi
done
[ -n "$best" ] && exec "$best" "$@"
echo "no $bin binary found: run 'cargo build -p $bin' in the zot checkout, or copy the binary next to extension.json" >&2
exit 127
