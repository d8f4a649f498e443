// Marks dist-cjs as CommonJS. The package is "type": "module", so without
// this file Node would read dist-cjs/*.js as ES modules; with it,
// `require("zot-ext")` works on every Node zot supports (Node 20 cannot
// require an ES module).
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const out = join(dirname(fileURLToPath(import.meta.url)), "..", "dist-cjs", "package.json");
writeFileSync(out, JSON.stringify({ type: "commonjs" }, null, 2) + "\n");
