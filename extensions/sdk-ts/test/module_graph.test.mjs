// The SDK's modules depend on each other one way only: the frame types and
// the registrations at the bottom, the runtime above them, `Extension` (which
// runs itself) on top. This reads every relative import and re-export in
// src/, type-only ones included (a type is a dependency too), and fails,
// naming the loop, if a module reaches one that reaches it back.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** A file's module: its name beside index.ts, or the folder it is under. */
const moduleOf = (file) => relative(src, file).split(/[\\/]/)[0].replace(/\.[jt]s$/, "");

const files = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });

/** The relative specifiers of `import … from "./x.js"` and `export … from "./x.js"`. */
export function imports(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(/\b(?:import|export)\b[^;]*?\bfrom\s*["'](\.[^"']+)["']|\bimport\s*["'](\.[^"']+)["']/g)].map(
    (m) => m[1] ?? m[2],
  );
}

function graph() {
  const g = new Map();
  for (const f of files(src)) {
    const m = moduleOf(f);
    if (m === "index") continue; // the root re-exports everything
    const deps = g.get(m) ?? new Set();
    g.set(m, deps);
    for (const spec of imports(readFileSync(f, "utf8"))) {
      const target = moduleOf(resolve(dirname(f), spec));
      if (target !== m) deps.add(target);
    }
  }
  return g;
}

/** A cycle in `g` as the modules around it, the first repeated at the end. */
export function findCycle(g) {
  const done = new Set();
  const visit = (m, stack) => {
    const at = stack.indexOf(m);
    if (at >= 0) return [...stack.slice(at), m];
    if (done.has(m)) return null;
    for (const d of g.get(m) ?? []) {
      const c = visit(d, [...stack, m]);
      if (c) return c;
    }
    done.add(m);
    return null;
  };
  for (const m of g.keys()) {
    const c = visit(m, []);
    if (c) return c;
  }
  return null;
}

test("the SDK's modules form no cycle", () => {
  const g = graph();
  // The reading found the modules and their imports (an empty graph has no cycle either).
  assert.ok(g.get("runtime")?.has("context") && g.get("extension")?.has("runtime"), JSON.stringify([...g]));
  const cycle = findCycle(g);
  assert.equal(
    cycle,
    null,
    `TypeScript SDK modules import each other in a cycle: ${cycle?.join(" → ")}; move what both need into a lower module`,
  );
});

test("the checker sees imports, re-exports and a cycle", () => {
  assert.deepEqual(
    imports('import type { A } from "./a.js";\nexport { B } from "./b.js";\n// import { C } from "./c.js";\nimport "./d.js";\nimport x from "node:fs";'),
    ["./a.js", "./b.js", "./d.js"],
  );
  const g = new Map([["a", new Set(["b"])], ["b", new Set(["c"])], ["c", new Set(["a"])]]);
  assert.deepEqual(findCycle(g), ["a", "b", "c", "a"]);
  g.get("c").clear();
  assert.equal(findCycle(g), null);
});
