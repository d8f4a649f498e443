// The first screen is prerendered at build time (ui/build/prerender.ts,
// ui/src/firstScreen.ts): WebKit paints it from the HTML before the app's
// script runs, and the script hydrates it. In the real window: the page
// arrives with the screen and hydration keeps every one of its elements
// (Svelte redraws what does not match, silently outside its dev build;
// main.ts marks it), the remembered theme still takes over, and the screen
// as painted before the script (ui/dist/index.html without its scripts, the
// page this binary embeds) has the live app's layout: same boxes, no jump.
// Screenshots of both moments.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, shot, ROOT } from "./lib/app.mjs";

let app;
after(async () => app?.stop());

const marks = (s) => s.exec(`return performance.getEntriesByType('mark').map((m) => ({ name: m.name, detail: m.detail ?? null }))`);
const started = (s) => s.until("the app started", async () => (await marks(s)).some((m) => m.name === "zot-started"), 15000);

/** The boxes the first screen is made of, rounded to the pixel. */
const boxes = (s) =>
  s.exec(`const box = (q) => { const el = document.querySelector(q); if (!el) return null;
      const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].map(Math.round); };
    return Object.fromEntries(['[data-test=header]', '[data-test=nav-chat]', '[data-test=nav-settings]', '[data-test=transcript]',
      '.editor-wrap', '[data-test=editor]', '[data-test=send]'].map((q) => [q, box(q)]));`);

/** Replaces the page with the page as this binary embeds it (make e2e-bin
 * builds ui/dist first) without the app's script: what WebKit paints
 * before that script runs, the guard (theme, panel windows) included. */
async function paintFirstScreen(s) {
  const html = fs
    .readFileSync(path.join(ROOT, "ui", "dist", "index.html"), "utf8")
    .replace(/<script>[^<]*createElement\("script"\)[^<]*<\/script>/, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "");
  assert.match(html, /data-test="editor"/, "ui/dist/index.html holds the first screen");
  assert.doesNotMatch(html, /<script[^>]*src=|createElement\("script"\)/, "nothing in it loads the app");
  await s.exec(`document.open(); document.write(arguments[0]); document.close();`, [html]);
  await s.until("the static first screen", () => s.exec(`return !!document.querySelector('[data-test=editor]')`));
  await s.exec(`return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`);
}

test("the page arrives with the app's first screen; hydration keeps all of it", async () => {
  app = await startApp();
  const { s } = app;
  await started(s);
  const names = (await marks(s)).map((m) => m.name);
  assert.ok(names.includes("zot-hydrated"), `the script found a first screen to hydrate (marks: ${names.join(", ")})`);
  const redrawn = (await marks(s)).find((m) => m.name === "zot-first-screen-redrawn");
  assert.equal(redrawn, undefined, `no element of the first screen was drawn again: ${JSON.stringify(redrawn?.detail)}`);
  assert.ok(
    await s.exec(`return performance.getEntriesByType('paint').some((p) => p.name === 'first-contentful-paint')`),
    "a first contentful paint",
  );
  // The app works on the hydrated elements: the editor takes text.
  await s.type(await s.find("[data-test=editor]"), "typed after hydration");
  assert.equal(await s.exec(`return document.querySelector('[data-test=editor]').value`), "typed after hydration");
  await s.exec(`const e = document.querySelector('[data-test=editor]'); e.value = ''; e.dispatchEvent(new Event('input'));`);
});

test("the screen painted before the script has the live app's layout", async () => {
  const { s } = app;
  const live = await boxes(s);
  await shot(s, "first-screen-live.png");
  await paintFirstScreen(s);
  const first = await boxes(s);
  await shot(s, "first-screen-prerendered.png");
  for (const [q, box] of Object.entries(live)) {
    assert.ok(box, `${q} is on the live screen`);
    assert.deepEqual(first[q], box, `${q}: the same box before the script (${JSON.stringify(first[q])}) and live (${JSON.stringify(box)})`);
  }
  await app.stop();
  app = null;
});

test("a remembered light theme is the first screen's, and the app's after hydration", async () => {
  app = await startApp({ theme: "light" });
  const { s } = app;
  await started(s);
  const background = () =>
    s.exec(`return [getComputedStyle(document.documentElement).backgroundColor, document.documentElement.dataset.theme]`);
  await s.until("the light theme", async () => (await background())[1] === "light");
  const live = await background();
  assert.equal(live[0], "rgb(255, 255, 255)", "the live page's background is the light theme's");
  assert.ok(!(await marks(s)).some((m) => m.name === "zot-first-screen-redrawn"));
  await shot(s, "first-screen-light-live.png");
  // Before the script: the window handed the theme to the page and its
  // guard applied it, so the first paint is already light.
  await paintFirstScreen(s);
  assert.deepEqual(await background(), live, "the first screen is painted in the light theme");
  await shot(s, "first-screen-light-prerendered.png");
});
