// The app's first screen as HTML, rendered at build time by Svelte's server
// renderer (build/prerender.ts puts it into index.html). It is exactly what
// `mount` would draw before the backend answers anything: the same
// component and the same initial state, so the page can paint it before its
// script runs and `hydrate` then takes it over without redrawing.
import { render } from "svelte/server";
import App from "./App.svelte";
import { AppState } from "./lib/app.svelte";
import { FakeBackend } from "./lib/backend/fake";
import { PANEL_WINDOW_PREFIX } from "./lib/panels/windowSync";

export function firstScreen(): { body: string; guard: string } {
  // Nothing is asked of the backend until `start()`, which only runs in
  // the page: this one is never called.
  const app = new AppState(new FakeBackend());
  const { body } = render(App, { props: { app } });
  // A panel's own window loads the same page but draws that panel
  // (main.ts): its label is known before any script of the page runs
  // (Tauri's initialisation script), so the main window's screen is
  // removed before it is ever painted there.
  const guard =
    `if ((window.__TAURI_INTERNALS__?.metadata?.currentWebview?.label ?? "")` +
    `.startsWith(${JSON.stringify(PANEL_WINDOW_PREFIX)})) document.getElementById("app").replaceChildren();`;
  return { body, guard };
}
