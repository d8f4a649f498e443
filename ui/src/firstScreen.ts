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
import { BUILTIN_THEMES, SYSTEM_THEME, themeProperties } from "./lib/settings/themes";
import { firstScreenGuard, type GuardThemes } from "./firstScreenGuard";

export function firstScreen(): { body: string; guard: string } {
  // Nothing is asked of the backend until `start()`, which only runs in
  // the page: this one is never called.
  const app = new AppState(new FakeBackend());
  const { body } = render(App, { props: { app } });
  // Run while the page is parsed, before its first paint: the user's
  // theme, and no main-window screen in a panel's own window
  // (firstScreenGuard.ts).
  const themes: GuardThemes = Object.fromEntries(
    BUILTIN_THEMES.map((t) => [t.name, { appearance: t.appearance, props: themeProperties(t) }]),
  );
  const args = [themes, SYSTEM_THEME, PANEL_WINDOW_PREFIX].map((a) => JSON.stringify(a)).join(", ");
  const guard = `(${firstScreenGuard.toString()})(${args});`;
  return { body, guard };
}
