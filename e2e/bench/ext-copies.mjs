// Many installed extensions for the scale bench: copies of the examples,
// each under its own name, all `on_use` or all eager. Python copies
// alternate hello-py (no SDK) and todo (the Python SDK); Node copies
// alternate clock (plain Node) and scratchpad (the TypeScript SDK: run
// `make deps-sdk` first, which compiles scratchpad.js and lets the zot
// build embed the SDK).
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../lib/app.mjs";

const EXAMPLES = path.join(ROOT, "examples", "extensions");
const PYTHON = ["hello-py", "todo"];
const NODE = ["clock", "scratchpad"];

/** What clock registers: it is eager in the repository, so its manifest
 * declares nothing; an `on_use` copy needs the declaration. */
const CLOCK_CONTRIBUTES = {
  commands: [
    { name: "clock", description: "the current time, optionally in a time zone" },
    { name: "timer", description: "a note after some seconds" },
  ],
  tools: [],
};

/** The manifest of copy `n` of `example`: a distinct name; for `on_use`,
 * declared commands and tools renamed with the same suffix, so forty copies
 * contribute forty sets of names as forty different extensions would (none
 * shadows another). Eager copies drop the declaration and register what
 * their code registers. */
function manifestFor(example, n, activation) {
  const m = JSON.parse(fs.readFileSync(path.join(EXAMPLES, example, "extension.json"), "utf8"));
  m.name = `${example}-${n}`;
  if (activation === "on_use") {
    const c = m.contributes ?? (example === "clock" ? CLOCK_CONTRIBUTES : { commands: [], tools: [] });
    m.activation = "on_use";
    m.contributes = {
      commands: (c.commands ?? []).map((x) => ({ ...x, name: `${x.name}-${n}` })),
      tools: (c.tools ?? []).map((x) => ({ ...x, name: `${x.name}_${n}` })),
    };
  } else {
    delete m.activation;
    delete m.contributes;
    delete m.idle_stop_after;
  }
  return m;
}

/**
 * Copies `python` Python and `node` Node examples into `dir` (created),
 * one directory per copy, and returns their names. `activation` is
 * "on_use" or "eager".
 */
export function copyExtensions(dir, { python = 20, node = 20, activation = "on_use" } = {}) {
  if (!fs.existsSync(path.join(EXAMPLES, "scratchpad", "scratchpad.js")))
    throw new Error("examples/extensions/scratchpad/scratchpad.js is missing: run `make deps-sdk`");
  fs.mkdirSync(dir, { recursive: true });
  const names = [];
  const plan = [
    ...Array.from({ length: python }, (_, i) => PYTHON[i % PYTHON.length]),
    ...Array.from({ length: node }, (_, i) => NODE[i % NODE.length]),
  ];
  plan.forEach((example, i) => {
    const m = manifestFor(example, i + 1, activation);
    const to = path.join(dir, m.name);
    // Timestamps kept: scratchpad's run.sh runs the compiled .js only when
    // it is not older than the .ts.
    fs.cpSync(path.join(EXAMPLES, example), to, {
      recursive: true,
      preserveTimestamps: true,
      filter: (src) => !/\/(node_modules|target|__pycache__)(\/|$)/.test(src) && !/todos\.json$/.test(src),
    });
    fs.writeFileSync(path.join(to, "extension.json"), JSON.stringify(m, null, 2) + "\n");
    names.push(m.name);
  });
  return names;
}
