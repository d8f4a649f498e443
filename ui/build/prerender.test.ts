// Builds a tiny page with the prerender and inline-entry plugins as the app
// uses them and checks what lands in dist/index.html: the first screen
// inside the app element, the guard and the loader after it, the entry
// script a preloaded file that only the loader adds, the CSS inline.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { build } from "vite";
import { inlineEntry } from "./inline-entry.ts";
import { placeFirstScreen, prerender } from "./prerender.ts";

const root = mkdtempSync(join(tmpdir(), "zot-prerender-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const page = (body: string) =>
  `<!doctype html><html><head></head><body>${body}<script type="module" src="/main.js"></script></body></html>`;

test("the first screen is in the page; the entry script is added by the loader after it", async () => {
  writeFileSync(join(root, "index.html"), page(`<div id="app"></div>`));
  writeFileSync(join(root, "main.js"), `import "./style.css";\nconsole.log("hydrate");\n`);
  writeFileSync(join(root, "style.css"), `body { color: rgb(1, 2, 3); }\n`);
  // The server-side entry: what the app's firstScreen.ts exports.
  writeFileSync(
    join(root, "screen.js"),
    `export const firstScreen = () => ({ body: "<p>hello " + (1 + 1) + "</p>", guard: "window.guarded = 1;" });\n`,
  );
  await build({
    root,
    base: "./",
    logLevel: "silent",
    configFile: false,
    plugins: [prerender("/screen.js"), inlineEntry({ script: false })],
    build: { outDir: "dist", minify: false },
  });

  const dist = join(root, "dist");
  const assets = readdirSync(join(dist, "assets"));
  expect(assets).toHaveLength(1);
  expect(assets[0]).toMatch(/\.js$/);
  const html = readFileSync(join(dist, "index.html"), "utf8");
  // Rendered at build time, by the entry's own code.
  expect(html).toContain(`<div id="app"><p>hello 2</p></div><script>window.guarded = 1;</script><script>`);
  // No script tag loads the entry: only the loader adds it, from the page.
  expect(html).not.toMatch(/<script[^>]*src=/);
  expect(html).toContain(`<link rel="modulepreload" crossorigin href="./assets/${assets[0]}">`);
  expect(html).toContain(`s.src = "./assets/${assets[0]}"`);
  expect(html).toContain("requestAnimationFrame");
  expect(html).toMatch(/<style>[\s\S]*rgb\(1, 2, 3\)[\s\S]*<\/style>/);
});

test("a page without exactly one empty app element or one entry script is refused, not half prerendered", () => {
  const screen = { body: "<p>x</p>", guard: "" };
  const entry = `<script type="module" crossorigin src="./assets/main.js"></script>`;
  expect(() => placeFirstScreen(`<body>${entry}</body>`, screen)).toThrow(
    /exactly one empty <div id="app"><\/div>/,
  );
  expect(() => placeFirstScreen(`<body><div id="app"></div></body>`, screen)).toThrow(
    /exactly one entry script; found 0/,
  );
  expect(() => placeFirstScreen(`<body><div id="app"></div>${entry}${entry}</body>`, screen)).toThrow(
    /found 2/,
  );
});

test("`</script` in the inline script cannot end it early", () => {
  const out = placeFirstScreen(
    `<head><script type="module" crossorigin src="./a.js"></script></head><body><div id="app"></div></body>`,
    { body: "", guard: `console.log("</script>");` },
  );
  expect(out).toContain(`console.log("<\\/script>");`);
});
