// The reference check on small repositories made for each test: it passes
// a repository whose references all hold, and names each kind of broken
// one. Run by `make test-docs` (node --test docs/tools/).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { check, slug } from "./check-refs.mjs";

/** A git repository holding `files` (path → text), tracked; removed after `fn`. */
function withRepo(files, fn) {
  const root = mkdtempSync(join(tmpdir(), "check-refs-"));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    execFileSync("git", ["init", "-q"], { cwd: root });
    execFileSync("git", ["add", "-A"], { cwd: root });
    return fn(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const DOCS = {
  "docs/protocol.md": "# Protocol\n\n## Wire format\n\n### `panel_key`\n\n## Extension → host frames\n\n```md\n# not a heading\n```\n",
  "docs/rpc.md": "# RPC\n\n## Tool approvals\n\nSee [the wire](protocol.md#wire-format) and [keys](protocol.md#panel_key).\n",
  "CONTRIBUTING.md": "# Contributing\n\n## The app crate is glue\n",
};

test("a repository whose references all hold passes", () => {
  const files = {
    ...DOCS,
    "README.md": "[rpc](docs/rpc.md) [frames](docs/protocol.md#extension--host-frames) [here](#readme)\n\n## Readme\n",
    "src/lib.rs":
      '//! The frames (docs/protocol.md "panel_key"), approvals (docs/rpc.md\n//! "Tool approvals"), glue (CONTRIBUTING.md "The app crate is glue").\nconst P: &str = "../docs/rpc.md";\n',
    "crate/src/a.rs": '// Written from the crate\'s folder: join("../docs/protocol.md")\nconst A: &str = "docs/rpc.md#tool-approvals";\n',
  };
  assert.deepEqual(withRepo(files, check), []);
});

// The outside names, assembled so that this file does not cite them itself.
const SPEC_RPC = ["spec", "rpc.md"].join("/");
const STYLE = ["STYLE", "md"].join(".");
const SHARED = ["..", "shared"].join("/");

test("documents kept outside the repository are named, wherever they are cited", () => {
  const files = {
    ...DOCS,
    "src/a.rs": `//! The vocabulary (\`${SPEC_RPC}\`), per ${STYLE} §9,\n/// as ${SPEC_RPC}\n/// "Permissions" says; see ${SHARED}/DESIGN.md.\n`,
  };
  const problems = withRepo(files, check);
  assert.deepEqual(
    problems.map((p) => p.split(" is not in the repository")[0]),
    [`src/a.rs:1: ${STYLE}`, `src/a.rs:1: ${SPEC_RPC}`, `src/a.rs:2: ${SPEC_RPC}`, `src/a.rs:3: ${SHARED}`],
  );
});

test("a docs path, a section, an anchor or a link that does not exist is named", () => {
  const files = {
    ...DOCS,
    "docs/guide.md":
      "See docs/missing.md and [gone](gone.md), [bad anchor](rpc.md#nope), [here](#nowhere).\n" +
      'Also docs/rpc.md "Supervision" and docs/protocol.md, "not a heading".\n',
    "src/b.ts": '// docs/protocol.md#no-such-heading\n',
  };
  assert.deepEqual(withRepo(files, check), [
    "docs/guide.md:1: docs/missing.md does not exist",
    "docs/guide.md:1: the link #nowhere: docs/guide.md has no heading with that anchor",
    "docs/guide.md:1: the link gone.md points at nothing",
    "docs/guide.md:1: the link rpc.md#nope: docs/rpc.md has no heading with that anchor",
    'docs/guide.md:2: docs/protocol.md has no section "not a heading"',
    'docs/guide.md:2: docs/rpc.md has no section "Supervision"',
    "src/b.ts:1: docs/protocol.md has no heading with the anchor #no-such-heading",
  ]);
});

test("anchors are GitHub's: lower case, punctuation dropped, spaces to hyphens", () => {
  assert.equal(slug("Extension → host frames"), "extension--host-frames");
  assert.equal(slug("`panel_close` (extension → host)"), "panel_close-extension--host");
  assert.equal(slug("Planned, not in this zot yet"), "planned-not-in-this-zot-yet");
});
