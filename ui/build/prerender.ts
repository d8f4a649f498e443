// A Vite build plugin: renders the app's first screen with Svelte's server
// renderer (the module named by `entry`, ui/src/firstScreen.ts) and writes
// it into index.html's `<div id="app">`, so WebKit paints the real first
// screen as soon as the HTML is parsed, before the app's script has run;
// main.ts then hydrates it instead of mounting a second copy. The screen is
// rendered from the app's own components at every build, so it cannot
// drift from what the script would have drawn.
//
// The entry exports `firstScreen(): { body, guard }`: `guard` is a classic
// inline script placed right after the screen, run while the page is
// parsed: it applies the user's theme, and windows that draw something else
// (a panel's own window) clear the screen, before anything is painted.
//
// The app's script must not run before that first paint: WebKit runs a
// module script as soon as the document is parsed (inline) or as soon as it
// arrives (a file), and paints only after it, so the screen would wait for
// the script, its mount and its layout as before. So the entry's `<script
// type="module" src>` is taken out of the HTML, and a small loader adds it,
// with the whole stylesheet the HTML holds only in an inert `<template>`
// (build/critical-css.ts), once WebKit reports the first paint. Not in the
// first animation frame, as it once did: a stylesheet link added before a
// paint holds that paint back until the sheet has arrived, which cost the
// first paint 3–8 ms (docs/performance.md, "Desktop"). Nothing is
// preloaded either: a `modulepreload` made WebKit fetch and take in the
// 300 kB script before the first paint, 2–4 ms later for no earlier start
// of the script. A window that shows nothing yet (no screen, or the guard
// cleared it) adds both at once.
import { createServer, type Plugin } from "vite";
import { LATER_ID } from "./critical-css.ts";
import { SETTLED_ATTR } from "../src/stylesheetMark.ts";

export interface FirstScreen {
  body: string;
  guard: string;
}

const APP_DIV = '<div id="app"></div>';

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;

/** How long the app's script waits for a first paint that is not reported
 * (a window not shown yet paints nothing). */
export const FIRST_PAINT_WAIT_MS = 100;

/** The page's loader: adds the stylesheets kept for later, then the entry
 * script, once the first paint is reported (a `paint` performance entry),
 * or at once when there is nothing to paint first. Each stylesheet is
 * marked once it has loaded or failed (src/stylesheets.ts waits for that).
 * `make bench-ui` reads the mark. */
const loader = (src: string) =>
  `(() => {` +
  `let added = false;` +
  `const add = () => { if (added) return; added = true; performance.mark("zot-script-added");` +
  ` const later = document.getElementById(${JSON.stringify(LATER_ID)});` +
  ` if (later) for (const l of [...later.content.cloneNode(true).children]) {` +
  ` const settle = () => l.setAttribute(${JSON.stringify(SETTLED_ATTR)}, "");` +
  ` l.addEventListener("load", settle); l.addEventListener("error", settle); document.head.append(l); }` +
  ` const s = document.createElement("script"); s.type = "module"; s.crossOrigin = "";` +
  ` s.src = ${JSON.stringify(src)}; document.head.append(s); };` +
  `if (document.getElementById("app").firstChild) {` +
  // The timer first: a WebKit without PerformanceObserver throws on the
  // next line, and the app must still load.
  ` setTimeout(add, ${FIRST_PAINT_WAIT_MS});` +
  ` new PerformanceObserver(() => add()).observe({ type: "paint", buffered: true }); }` +
  ` else add();` +
  `})();`;

/** index.html with `screen` inside its empty app element, and its one entry
 * script loaded after the first paint. */
export function placeFirstScreen(html: string, screen: FirstScreen): string {
  const at = html.indexOf(APP_DIV);
  if (at < 0 || html.indexOf(APP_DIV, at + 1) >= 0) {
    throw new Error(`index.html must hold exactly one empty ${APP_DIV} for the first screen`);
  }
  const entries = [...html.matchAll(ENTRY)];
  if (entries.length !== 1) {
    throw new Error(`index.html must load exactly one entry script; found ${entries.length}`);
  }
  const src = entries[0][1];
  // `</script` inside an inline script would end its element early. The
  // guard and the loader are two elements, so a test can paint the page
  // with its guard but without the app (e2e/first_screen.test.mjs).
  const inline = (code: string) => `<script>${code.replace(/<\/(script)/gi, "<\\/$1")}</script>`;
  const page =
    html.slice(0, at) +
    `<div id="app">${screen.body}</div>${inline(screen.guard)}${inline(loader(src))}` +
    html.slice(at + APP_DIV.length);
  return page.replace(entries[0][0], "");
}

export function prerender(entry = "/src/firstScreen.ts"): Plugin {
  let root = process.cwd();
  let configFile: string | false | undefined;
  return {
    name: "zot-prerender",
    apply: "build",
    configResolved(config) {
      root = config.root;
      configFile = config.configFile ?? false;
    },
    transformIndexHtml: {
      order: "post",
      async handler(html) {
        // Vite's own server-side module loader, with the same config (the
        // Svelte plugin, compiled for the server), only for this render.
        const server = await createServer({
          root,
          configFile,
          logLevel: "error",
          appType: "custom",
          server: { middlewareMode: true, hmr: false, ws: false },
          optimizeDeps: { noDiscovery: true, include: [] },
        });
        try {
          const mod = (await server.ssrLoadModule(entry)) as { firstScreen: () => FirstScreen };
          return placeFirstScreen(html, mod.firstScreen());
        } finally {
          await server.close();
        }
      },
    },
  };
}
