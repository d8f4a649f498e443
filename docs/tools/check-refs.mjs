#!/usr/bin/env node
// Fails when a tracked file points its reader at something the repository
// does not contain, so the repository stands on its own: `make test-docs`
// (part of `make test`) runs it. What it checks, in every tracked text file:
//
// - documents that live outside the repository: the team's shared folder
//   beside the checkout, its `spec/` pages and its style, design and testing
//   guides, unless such a file exists here (the patterns are below);
// - every `docs/….md` path: the file exists;
// - `FILE.md "Section"` (also `FILE.md, "Section"`, across a comment's line
//   break): FILE has a heading that starts with Section;
// - `FILE.md#anchor`: FILE has a heading with that anchor;
// - in Markdown files, every relative link `[text](target)`: the target
//   exists, and its `#anchor` (or an in-page `#anchor`) names a heading.
//
// Files under docs/tools/ are not checked: this checker and its tests hold
// the outside names as patterns and fixtures.
//
//   node docs/tools/check-refs.mjs          check the repository at the cwd
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SKIP = /^docs\/tools\/|(^|\/)package-lock\.json$|\.(png|jpe?g|gif|ico|icns|webp|woff2?|ttf|zip|zotx|mcpb|lock)$/;
/** Documents the team keeps outside the repository. */
const OUTSIDE = /(?<![\w./-])(\.\.\/shared\b|spec\/[\w-]+\.md|(?:STYLE|DESIGN|TESTING)\.md)/g;
const DOCS_PATH = /(?<![\w./-])((?:\.\.\/)*docs\/[\w./-]*?[\w-]+\.md)(?![\w-])/g;
const SECTION = /(?<![\w./-])((?:\.\.\/)*(?:[\w-]+\/)*[\w.-]+\.md)`?,?\s+(?:sections?\s+)?"([^"\n]+)"/g;
const ANCHOR = /(?<![\w./-])((?:\.\.\/)*(?:[\w-]+\/)*[\w.-]+\.md)#([\w-]+)/g;
const LINK = /\]\(([^)\s]+)\)/g;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The problems in the repository at `root`, one line each. */
export function check(root) {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  const tracked = new Set(files);
  const dirs = new Set();
  for (const f of files) for (let d = dirname(f); d !== "."; d = dirname(d)) dirs.add(d);
  const exists = (p) => tracked.has(p) || dirs.has(p) || existsSync(join(root, p));
  const headings = new Map();
  /** The headings of a Markdown file: their text (no backticks) and anchors. */
  const headingsOf = (path) => {
    if (!headings.has(path)) {
      const text = readFileSync(join(root, path), "utf8");
      const list = [];
      const seen = new Map();
      for (const line of outsideFences(text)) {
        const m = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
        if (!m) continue;
        const title = m[1].replace(/`/g, "");
        const base = slug(m[1]);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        list.push({ title: title.toLowerCase(), anchor: n ? `${base}-${n}` : base });
      }
      headings.set(path, list);
    }
    return headings.get(path);
  };
  /**
   * `target` as named from `file`: from the file's folder or one above it
   * (code names paths from its crate's folder, e.g. `CARGO_MANIFEST_DIR`),
   * else from the root, else, for a bare name, under docs/.
   */
  const resolve = (file, target) => {
    for (let d = dirname(file); ; d = dirname(d)) {
      const p = normalize(join(d, target));
      if (!p.startsWith("..") && exists(p)) return p;
      if (d === ".") break;
    }
    if (!target.includes("/") && exists(`docs/${target}`)) return `docs/${target}`;
    return null;
  };

  const problems = new Set();
  for (const file of files) {
    if (SKIP.test(file)) continue;
    let text;
    try {
      if (!statSync(join(root, file)).isFile()) continue;
      text = readFileSync(join(root, file), "utf8");
    } catch {
      continue; // a tracked file deleted in the work tree
    }
    if (text.includes("\0")) continue;
    const { flat, lineOf } = flatten(text);
    const say = (at, what) => problems.add(`${file}:${lineOf(at)}: ${what}`);

    for (const m of flat.matchAll(OUTSIDE)) {
      if (m[1] === "../shared" || !resolve(file, m[1]))
        say(m.index, `${m[1]} is not in the repository; point at the repository's own file (docs/protocol.md, docs/rpc.md, CONTRIBUTING.md)`);
    }
    for (const m of flat.matchAll(DOCS_PATH)) {
      if (!resolve(file, m[1])) say(m.index, `${m[1]} does not exist`);
    }
    for (const m of flat.matchAll(SECTION)) {
      const path = resolve(file, m[1]);
      if (!path) {
        // A document kept outside is reported once, by the loop above.
        if (!/(^|\/)(spec\/[\w-]+|STYLE|DESIGN|TESTING)\.md$/.test(m[1])) say(m.index, `${m[1]} does not exist`);
        continue;
      }
      const want = m[2].replace(/`/g, "").toLowerCase();
      if (!headingsOf(path).some((h) => h.title.startsWith(want)))
        say(m.index, `${path} has no section "${m[2]}"`);
    }
    for (const m of flat.matchAll(ANCHOR)) {
      if (file.endsWith(".md") && flat.slice(m.index - 2, m.index) === "](") continue; // a link: below
      const path = resolve(file, m[1]);
      if (path && !headingsOf(path).some((h) => h.anchor === m[2]))
        say(m.index, `${path} has no heading with the anchor #${m[2]}`);
    }
    if (!file.endsWith(".md")) continue;
    const prose = outsideFences(text).join("\n");
    for (const m of prose.matchAll(LINK)) {
      const target = m[1];
      if (/^[a-z][\w+.-]*:/i.test(target)) continue; // https:, mailto:, …
      const [path, anchor] = target.split("#");
      const at = lineOfProse(text, m[0]);
      const to = path ? resolve(file, decodeURI(path)) : file;
      if (!to) {
        problems.add(`${file}:${at}: the link ${target} points at nothing`);
        continue;
      }
      if (anchor && to.endsWith(".md") && !headingsOf(to).some((h) => h.anchor === anchor))
        problems.add(`${file}:${at}: the link ${target}: ${to} has no heading with that anchor`);
    }
  }
  return [...problems].sort();
}

/** The file's lines with fenced code blocks left out. */
function outsideFences(text) {
  const out = [];
  let fence = null;
  for (const line of text.split("\n")) {
    const m = line.match(/^\s*(```+|~~~+)/);
    if (m) {
      if (!fence) fence = m[1];
      else if (m[1].startsWith(fence)) fence = null;
      out.push("");
      continue;
    }
    out.push(fence ? "" : line);
  }
  return out;
}

/** The line (from 1) of the first line of `text` that holds `snippet`. */
function lineOfProse(text, snippet) {
  const i = text.indexOf(snippet);
  return i < 0 ? 0 : text.slice(0, i).split("\n").length;
}

/**
 * The text as one line, each line break and the comment marker after it
 * (`///`, `//!`, `//`, `#`, `*`) turned into a space, so a reference broken
 * across a comment's lines still matches; `lineOf` maps an offset back.
 */
function flatten(text) {
  const starts = [];
  let flat = "";
  for (const line of text.split("\n")) {
    starts.push(flat.length);
    flat += line.replace(/^\s*(\/\/[/!]?|#+|\*)?\s?/, "") + " ";
  }
  const lineOf = (at) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return { flat, lineOf };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = execFileSync("git", ["rev-parse", "--show-toplevel"], { encoding: "utf8" }).trim();
  const problems = check(root);
  if (problems.length) {
    console.error(problems.join("\n"));
    console.error(`\n${problems.length} reference(s) to something that is not in the repository (${relative(process.cwd(), fileURLToPath(import.meta.url))}).`);
    process.exit(1);
  }
  console.log("docs references: every path, section and anchor exists");
}
