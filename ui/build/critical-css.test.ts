// Builds a tiny page with the prerender and critical-CSS plugins as the app
// uses them, and checks what lands in dist/: the page keeps only the rules
// its first screen uses, the whole stylesheet stays a file that only an
// inert template names, and the prerendered markup is left as written.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { build } from "vite";
import { criticalCss, criticalRules, LATER_ID, splitStylesheets } from "./critical-css.ts";
import { prerender } from "./prerender.ts";

const root = mkdtempSync(join(tmpdir(), "zot-critical-css-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CSS = `
:root { --fg: rgb(1, 2, 3); }
.shown { color: var(--fg); }
.shown:hover { color: rgb(4, 5, 6); }
.never-drawn { color: rgb(7, 8, 9); }
[data-appearance="light"] .themed { color: rgb(10, 11, 12); }
@media (prefers-reduced-motion: reduce) { .shown { transition: none; } .never-drawn { transition: none; } }
@keyframes used { to { opacity: 1; } }
@keyframes unused { to { opacity: 0; } }
.shown { animation: used 1s; }
`;

test("only the rules the screen can use stay inline; theme-attribute rules always do", async () => {
  const kept = await criticalRules(CSS, `<p class="shown">x</p>`);
  expect(kept).toContain("rgb(1, 2, 3)");
  expect(kept).toContain("rgb(4, 5, 6)"); // :hover on a drawn element
  expect(kept).not.toContain("rgb(7, 8, 9)");
  expect(kept).toContain("rgb(10, 11, 12)"); // the guard sets data-appearance before the paint
  expect(kept).toMatch(/prefers-reduced-motion/);
  expect(kept).toContain("@keyframes used");
  expect(kept).not.toContain("unused");
});

test("the build: critical rules inline, the stylesheet a file named only in the template, markup untouched", async () => {
  writeFileSync(
    join(root, "index.html"),
    `<!doctype html><html><head></head><body><div id="app"></div><script type="module" src="/main.js"></script></body></html>`,
  );
  writeFileSync(join(root, "main.js"), `import "./style.css";\nconsole.log("hydrate");\n`);
  writeFileSync(join(root, "style.css"), CSS);
  // Markup a re-serialiser would change: Svelte's hydration comments, an
  // unquoted-safe attribute, a raw non-ASCII character.
  const body = `<!--[--><p class="shown" title="Open folder…">hello</p><!--]-->`;
  writeFileSync(
    join(root, "screen.js"),
    `export const firstScreen = () => ({ body: ${JSON.stringify(body)}, guard: "" });\n`,
  );
  await build({
    root,
    base: "./",
    logLevel: "silent",
    configFile: false,
    plugins: [prerender("/screen.js"), criticalCss()],
    build: { outDir: "dist", minify: false },
  });

  const dist = join(root, "dist");
  const assets = readdirSync(join(dist, "assets")).sort();
  expect(assets).toHaveLength(2);
  const css = assets.find((f) => f.endsWith(".css"))!;
  expect(readFileSync(join(dist, "assets", css), "utf8")).toContain("rgb(7, 8, 9)");
  const html = readFileSync(join(dist, "index.html"), "utf8");
  expect(html).toContain(`<div id="app">${body}</div>`);
  const inline = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
  expect(inline).toContain("rgb(1, 2, 3)");
  expect(inline).not.toContain("rgb(7, 8, 9)");
  // The link only inside the inert template, which the loader copies out.
  const template = new RegExp(
    `<template id="${LATER_ID}"><link rel="stylesheet"[^>]*href="\\./assets/${css}"[^>]*></template></head>`,
  );
  expect(html).toMatch(template);
  expect(html.replace(template, "")).not.toContain(css);
  expect(html).toContain(`getElementById("${LATER_ID}")`);
});

test("a page without a body, or with nowhere to keep the links, is refused", async () => {
  const sheets = new Map([["./a.css", ".x{color:red}"]]);
  await expect(
    splitStylesheets(`<html><head><link rel="stylesheet" href="./a.css"></head></html>`, sheets),
  ).rejects.toThrow(/no <body>/);
  await expect(
    splitStylesheets(`<link rel="stylesheet" href="./a.css"><body><p class="x"></p></body>`, sheets),
  ).rejects.toThrow(/no <\/head>/);
  // A stylesheet the page does not link is left alone.
  const page = `<html><head></head><body><p class="x"></p></body></html>`;
  expect(await splitStylesheets(page, sheets)).toBe(page);
});
