// Builds a tiny page with the plugin and checks what lands in dist/: one
// index.html carrying the entry script and its CSS, with the on-demand
// chunk still a file that the inlined script finds under assets/.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { build } from "vite";
import { inlineEntry } from "./inline-entry.ts";

const root = mkdtempSync(join(tmpdir(), "zot-inline-entry-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("the entry script and its stylesheet move into index.html; lazy chunks stay files", async () => {
  writeFileSync(
    join(root, "index.html"),
    `<!doctype html><html><head></head><body><script type="module" src="/main.js"></script></body></html>`,
  );
  writeFileSync(
    join(root, "main.js"),
    `import "./style.css";\nconsole.log("a </script> in a string");\nwindow.later = () => import("./later.js");\n`,
  );
  writeFileSync(join(root, "later.js"), `export const x = 42;\n`);
  writeFileSync(join(root, "style.css"), `body { color: rgb(1, 2, 3); }\n`);
  await build({
    root,
    base: "./",
    logLevel: "silent",
    configFile: false,
    plugins: [inlineEntry()],
    build: { outDir: "dist", minify: false },
  });

  const dist = join(root, "dist");
  const assets = readdirSync(join(dist, "assets"));
  expect(readdirSync(dist).sort()).toEqual(["assets", "index.html"]);
  expect(assets).toHaveLength(1);
  expect(assets[0]).toMatch(/^later-.*\.js$/);
  const page = readFileSync(join(dist, "index.html"), "utf8");
  expect(page).toMatch(/<script type="module">[\s\S]*console\.log/);
  expect(page).not.toMatch(/<script[^>]*src=/);
  // Vite's placeholders are filled in before the code is inlined.
  expect(page).not.toContain("__VITE_PRELOAD__");
  expect(page).toContain(`./assets/${assets[0]}`);
  expect(page).toContain("a <\\/script> in a string");
  expect(page).toMatch(/<style>[\s\S]*rgb\(1, 2, 3\)[\s\S]*<\/style>/);
  expect(page).not.toContain(`rel="stylesheet"`);
});

test("an entry that a lazy chunk imports stays a file, so the chunk still loads", async () => {
  const dir = join(root, "shared");
  mkdirSync(dir);
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><html><head></head><body><script type="module" src="/main.js"></script></body></html>`,
  );
  // `shared.js` is used by both, so Rollup leaves it in the entry and the
  // lazy chunk imports the entry by its file name.
  writeFileSync(join(dir, "shared.js"), `export const shared = () => "s";\n`);
  writeFileSync(
    join(dir, "main.js"),
    `import { shared } from "./shared.js";\nconsole.log(shared());\nwindow.later = () => import("./later.js");\n`,
  );
  writeFileSync(join(dir, "later.js"), `import { shared } from "./shared.js";\nexport const x = shared();\n`);
  await build({
    root: dir,
    base: "./",
    logLevel: "silent",
    configFile: false,
    plugins: [inlineEntry()],
    build: { outDir: "dist", minify: false },
  });
  const assets = readdirSync(join(dir, "dist", "assets"));
  const later = assets.find((f) => f.startsWith("later-"))!;
  const imported = /from\s*"\.\/([^"]+)"/.exec(readFileSync(join(dir, "dist", "assets", later), "utf8"))?.[1];
  expect(imported).toBeDefined();
  expect(assets).toContain(imported);
});
