// Builds a tiny page with the prerender plugin and checks what lands in
// dist/index.html: the first screen inside the app element, the guard and
// the loader after it, the entry script a file that only the loader adds,
// and nothing fetched before the first paint. The stylesheet's split is
// build/critical-css.test.ts's.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { build } from "vite";
import { JSDOM } from "jsdom";
import { SETTLED_ATTR } from "../src/stylesheetMark.ts";
import { LATER_ID } from "./critical-css.ts";
import { FIRST_PAINT_WAIT_MS, placeFirstScreen, prerender } from "./prerender.ts";

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
    plugins: [prerender("/screen.js")],
    build: { outDir: "dist", minify: false },
  });

  const dist = join(root, "dist");
  const assets = readdirSync(join(dist, "assets"));
  const js = assets.find((f) => f.endsWith(".js"))!;
  const html = readFileSync(join(dist, "index.html"), "utf8");
  // Rendered at build time, by the entry's own code.
  expect(html).toContain(`<div id="app"><p>hello 2</p></div><script>window.guarded = 1;</script><script>`);
  // No script tag loads the entry: only the loader adds it, from the page.
  expect(html).not.toMatch(/<script[^>]*src=/);
  expect(html).not.toContain("modulepreload");
  expect(html).toContain(`s.src = "./assets/${js}"`);
  expect(html).toContain('observe({ type: "paint", buffered: true })');
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

test("the loader copies the stylesheets out of the template before the script, and marks each once settled", () => {
  const out = placeFirstScreen(
    `<html><head><template id="${LATER_ID}"><link rel="stylesheet" href="./a.css"><link rel="stylesheet" href="./b.css"></template></head>` +
      `<body><div id="app"></div><script type="module" crossorigin src="./main.js"></script></body></html>`,
    // Nothing to paint first (a panel's window): the loader adds at once.
    { body: "", guard: "" },
  );
  const { window } = new JSDOM(out, {
    runScripts: "dangerously",
    // jsdom has no User Timing; the loader's mark is for the bench.
    beforeParse: (w) => void (w.performance.mark = () => undefined as never),
  });
  const head = window.document.head;
  const added = [...head.children].filter((e) => e.tagName !== "TEMPLATE");
  expect(added.map((e) => e.getAttribute("href") ?? e.getAttribute("src"))).toEqual([
    "./a.css",
    "./b.css",
    "./main.js",
  ]);
  const [a, b] = added;
  a.dispatchEvent(new window.Event("load"));
  b.dispatchEvent(new window.Event("error"));
  expect(a.hasAttribute(SETTLED_ATTR) && b.hasAttribute(SETTLED_ATTR)).toBe(true);
});

test("with a screen to paint, nothing is added before WebKit reports the first paint, or before the wait for it ends", async () => {
  const out = placeFirstScreen(
    `<html><head><template id="${LATER_ID}"><link rel="stylesheet" href="./a.css"></template></head>` +
      `<body><div id="app"></div><script type="module" crossorigin src="./main.js"></script></body></html>`,
    { body: "<p>screen</p>", guard: "" },
  );
  const run = (reportPaint: boolean) => {
    let painted = () => {};
    const { window } = new JSDOM(out, {
      runScripts: "dangerously",
      beforeParse: (w) => {
        w.performance.mark = () => undefined as never;
        // jsdom has no paint timing: a stand-in that reports when told to.
        (w as unknown as { PerformanceObserver: unknown }).PerformanceObserver = class {
          cb: () => void;
          constructor(cb: () => void) {
            this.cb = cb;
          }
          observe(opts: { type: string; buffered: boolean }) {
            if (opts.type === "paint" && opts.buffered && reportPaint) painted = this.cb;
          }
        };
      },
    });
    const added = () => [...window.document.head.children].filter((e) => e.tagName !== "TEMPLATE").length;
    return { added, paint: () => painted(), window };
  };
  const reported = run(true);
  expect(reported.added()).toBe(0);
  reported.paint();
  expect(reported.added()).toBe(2);
  const silent = run(false);
  expect(silent.added()).toBe(0);
  await new Promise((r) => setTimeout(r, FIRST_PAINT_WAIT_MS + 50));
  expect(silent.added()).toBe(2);
  reported.window.close();
  silent.window.close();
});
