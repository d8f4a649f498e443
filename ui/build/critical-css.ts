// A Vite build plugin: the page carries only the CSS its prerendered first
// screen uses; the whole stylesheet stays a file that the page's loader
// adds after the first paint (build/prerender.ts), and that the app's
// script waits for before it hydrates (src/stylesheets.ts).
//
// Why: WebKit parses and matches every rule in the page before its first
// paint. The whole stylesheet inline (36 kB, 459 rules) cost the first
// paint about 10 ms against the 40 rules the first screen needs; even
// parked in a `<style media="not all">` its parse cost about 5
// (docs/performance.md, "Desktop"). A `<link rel="stylesheet">` or a
// preload in the HTML would be fetched, and its answer handled, before
// that paint too, so the link waits in an inert `<template>`.
//
// Which rules the screen uses is beasties' job (a maintained fork of
// Google's critters): it matches each rule's selectors, pseudo-classes
// dropped, against the screen's elements. It only sees a copy made for
// it; the page itself is never re-serialised, so the prerendered markup
// hydration expects stays byte for byte as Svelte wrote it.
//
// It works on the files as written (`writeBundle`), as the CSS file's name
// and the page are final only then.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import beasties from "beasties";
import type { Plugin, Rollup } from "vite";

// beasties declares its types as CommonJS, so under `nodenext` TypeScript
// sees the class one level down, as `.default`; Node's ESM import (what
// Vite runs) gives the class itself.
type BeastiesClass = typeof beasties.default;
const Beasties: BeastiesClass =
  (beasties as unknown as { default?: BeastiesClass }).default ?? (beasties as unknown as BeastiesClass);

/** The inert element holding the stylesheet links the loader adds after
 * the first paint. */
export const LATER_ID = "zot-after-paint";

/** Rules kept whatever the screen holds: selectors on the theme attributes
 * the page's guard sets on `<html>` before the first paint
 * (src/firstScreenGuard.ts), which the build-time screen does not have. */
const THEME_SELECTORS = /\[data-(appearance|theme)\b/;

/** `</style` inside the inlined rules would end the element. */
const safe = (css: string) => css.replace(/<\/(style)/gi, "<\\/$1");

/** The rules of `css` that can apply to the elements in `body`. */
export async function criticalRules(css: string, body: string): Promise<string> {
  const probe = `<!doctype html><html><head><style>${safe(css)}</style></head><body>${body}</body></html>`;
  const beasties = new Beasties({
    external: false,
    reduceInlineStyles: true,
    allowRules: [THEME_SELECTORS],
    keyframes: "critical",
    compress: true,
    logLevel: "silent",
  });
  const out = await beasties.process(probe);
  const kept = /<style>([\s\S]*?)<\/style>/.exec(out);
  if (!kept) throw new Error("beasties returned the page without its stylesheet");
  return kept[1];
}

/** The page's body: what the first screen is made of. */
function bodyOf(page: string): string {
  const open = page.search(/<body[^>]*>/);
  const close = page.lastIndexOf("</body>");
  if (open < 0 || close < open) throw new Error("index.html has no <body> element");
  return page.slice(open, close).replace(/^<body[^>]*>/, "");
}

/** `page` with each stylesheet link replaced by the rules its first screen
 * uses, and the links themselves kept, in order, in one inert element at
 * the end of the head for the loader. */
export async function splitStylesheets(page: string, sheets: Map<string, string>): Promise<string> {
  const body = bodyOf(page);
  const later: string[] = [];
  for (const [href, css] of sheets) {
    const link = new RegExp(
      `<link rel="stylesheet"[^>]*href="${href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>`,
    );
    const found = link.exec(page);
    if (!found) continue;
    const rules = await criticalRules(css, body);
    page =
      page.slice(0, found.index) +
      `<style>${safe(rules)}</style>` +
      page.slice(found.index + found[0].length);
    later.push(found[0]);
  }
  if (!later.length) return page;
  const head = page.indexOf("</head>");
  if (head < 0) throw new Error("index.html has no </head> to hold the stylesheets for later");
  return page.slice(0, head) + `<template id="${LATER_ID}">${later.join("")}</template>` + page.slice(head);
}

export function criticalCss(): Plugin {
  return {
    name: "zot-critical-css",
    apply: "build",
    enforce: "post",
    async writeBundle(options, bundle) {
      const out = options.dir;
      const entry = Object.values(bundle).find(
        (f): f is Rollup.OutputChunk => f.type === "chunk" && f.isEntry,
      );
      if (!out || !entry || !bundle["index.html"]) return;
      const sheets = new Map<string, string>();
      for (const css of entry.viteMetadata?.importedCss ?? []) {
        sheets.set(`./${css}`, readFileSync(join(out, css), "utf8"));
      }
      const htmlPath = join(out, "index.html");
      writeFileSync(htmlPath, await splitStylesheets(readFileSync(htmlPath, "utf8"), sheets));
    },
  };
}
