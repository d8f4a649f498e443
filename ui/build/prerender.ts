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
// type="module" src>` becomes a `modulepreload` link (the fetch starts at
// once) and is added to the page from the first animation frame, whose
// paint then happens before the script can run. A window that shows nothing
// yet (no screen, or the guard cleared it) adds it at once.
import { createServer, type Plugin } from "vite";

export interface FirstScreen {
  body: string;
  guard: string;
}

const APP_DIV = '<div id="app"></div>';

const ENTRY = /<script type="module" crossorigin src="([^"]+)"><\/script>/g;

/** How long the app's script waits for a first frame that does not come
 * (a window not shown yet gets no animation frames). */
export const FIRST_FRAME_WAIT_MS = 100;

/** The page's loader: adds the entry script in the first animation frame,
 * or at once when there is nothing to paint first. A module script added
 * then is fetched and run in later tasks, so that frame's paint (the
 * first screen) comes first. `make bench-ui` reads the mark. */
const loader = (src: string) =>
  `(() => {` +
  `let added = false;` +
  `const add = () => { if (added) return; added = true; performance.mark("zot-script-added");` +
  ` const s = document.createElement("script"); s.type = "module"; s.crossOrigin = "";` +
  ` s.src = ${JSON.stringify(src)}; document.head.append(s); };` +
  `if (document.getElementById("app").firstChild) {` +
  ` requestAnimationFrame(add); setTimeout(add, ${FIRST_FRAME_WAIT_MS}); }` +
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
  return page.replace(entries[0][0], () => `<link rel="modulepreload" crossorigin href="${src}">`);
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
