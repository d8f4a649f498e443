#!/usr/bin/env bash
# Points every reference to a document kept outside the repository
# (`spec/extensions.md`, `spec/rpc.md`, `spec/themes.md`, `STYLE.md`) at the
# repository's own file and section. Mechanical and idempotent, so it can be
# run again after branches that still cite the old files are merged; then
# read `git diff` and run `node docs/tools/check-refs.mjs`.
#
#   docs/tools/replace-refs.sh
#
# The rules, in order (SEP is the space, or a line break plus the comment
# marker, between a file and its quoted section):
#   1. a few sentences that named the old documents as "the contract" are
#      reworded (docs/cli.md, docs/mcp.md, extensions/protocol/tests/spec_examples.rs);
#   2. spec/rpc.md SEP "Permissions"  → docs/protocol.md SEP "Permissions";
#   3. spec/rpc.md                     → docs/rpc.md (its sections have the same names);
#   4. spec/themes.md                  → docs/protocol.md "Themes";
#   5. spec/extensions.md              → docs/protocol.md;
#   6. STYLE.md §9                     → CONTRIBUTING.md "The app crate is glue".
# Anything left that names an outside document (another STYLE.md section,
# DESIGN.md, TESTING.md, ../shared) is listed, and the script fails, for a
# person to decide.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

OLD='spec/(extensions|rpc|themes)\.md|STYLE\.md'
mapfile -t files < <(git grep -l -E "$OLD" -- . ':!docs/tools' || true)
if [ "${#files[@]}" -gt 0 ]; then
  perl -0777 -pi -e '
    my $sep = qr{(?:\s*\n\s*(?://[/!]?|\*|#)?)?\s+};
    # 1. sentences that called the old documents the contract.
    s{The contract is `spec/extensions\.md`, sections "Managing extensions from\nthe CLI" and "Loading an extension for one run"\. This page documents what\nthe commands do, and the decisions taken where the spec is silent\.}
     {This page is the reference for managing extensions from the CLI and for\nloading an extension for one run: what each command does, and the\ndecisions taken where the reference zot\x27s document is silent.}g;
    s{The contract is `spec/rpc\.md`, "Additions of the second wave" → "MCP\nservers" \(issue #16\)\. This page says how zot does it and what it decided\nwhere the spec is silent\.}
     {The RPC side is in `docs/rpc.md`, "MCP servers" (issue #16). This page\nsays how zot does it, and what it decided where nothing was specified.}g;
    s{Every JSON example in `spec/extensions\.md` parses to the right variant and\n//! serialises back to equivalent JSON\. If the spec and the types disagree,\n//! one of these fails and names the example\.}
     {Every JSON example of the reference zot\x27s protocol document (the origin of\n//! docs/protocol.md; docs/compat.md) parses to the right variant and\n//! serialises back to equivalent JSON. If the examples and the types\n//! disagree, one of these fails and names the example.}g;
    # 2. permissions are described with the manifest, in the protocol reference.
    s{spec/rpc\.md($sep)"Permissions"}{docs/protocol.md$1"Permissions"}g;
    # 3. every other RPC section keeps its name in docs/rpc.md.
    s{spec/rpc\.md}{docs/rpc.md}g;
    # 4. themes are a section of the protocol reference.
    s{`spec/themes\.md`}{`docs/protocol.md` "Themes"}g;
    s{spec/themes\.md}{docs/protocol.md "Themes"}g;
    # 5. the extension protocol.
    s{spec/extensions\.md}{docs/protocol.md}g;
    # 6. the house style is CONTRIBUTING.md.
    s{STYLE\.md §9}{CONTRIBUTING.md "The app crate is glue"}g;
  ' "${files[@]}"
fi

left=$(git grep -n -E 'spec/[A-Za-z_-]+\.md|STYLE\.md|DESIGN\.md|TESTING\.md|\.\./shared' -- . ':!docs/tools' || true)
if [ -n "$left" ]; then
  echo "references left for a person to decide:" >&2
  echo "$left" >&2
  exit 1
fi
echo "replaced in ${#files[@]} file(s); now read git diff and run node docs/tools/check-refs.mjs"
