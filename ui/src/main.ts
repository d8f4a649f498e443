// Entry point: picks the real Tauri backend inside the app and the fake one
// in a plain browser, then mounts the UI: the app, or, in a panel's own OS
// window (a `panel-…` label: panels/windowSync.ts), that one panel. The
// built page already holds the app's first screen (firstScreen.ts,
// build/prerender.ts), painted before this script ran: the app hydrates it,
// taking over those very elements, instead of drawing them again.
import { hydrate, mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import PanelWindow from "./PanelWindow.svelte";
import { AppState } from "./lib/app.svelte";
import { FakeBackend } from "./lib/backend/fake";
import { TauriBackend, inTauri } from "./lib/backend/tauri";
import { PanelWindowState } from "./lib/panels/panelWindow.svelte";
import { isPanelWindow } from "./lib/panels/windowSync";
import { chosenTheme } from "./firstScreenGuard";
import { stylesheetsLoaded } from "./stylesheets";

// Start-up milestones `make bench-ui` reads: every module has run, then the
// app is live on the screen, hydrated or mounted (docs/performance.md,
// "Desktop").
performance.mark("zot-script");
await stylesheetsLoaded();
const backend = inTauri() ? new TauriBackend() : new FakeBackend();
const target = document.getElementById("app")!;
let app;
if (isPanelWindow(backend.windowLabel())) {
  const state = new PanelWindowState(backend);
  // The page's guard (firstScreen.ts) already removed the main window's
  // screen before it was painted; this only makes sure.
  target.replaceChildren();
  app = mount(PanelWindow, { target, props: { app: state } });
  void state.start();
} else {
  const state = new AppState(backend);
  // The theme the page was painted in (firstScreenGuard.ts), until the
  // settings say.
  state.theme = chosenTheme() ?? state.theme;
  // The prerendered screen's elements: hydration keeps every one of them
  // when the screen matches the app. Svelte redraws what does not match,
  // silently outside its dev build, so the page says so itself (and
  // e2e/first_screen.test.mjs looks).
  const prerendered = [...target.querySelectorAll("*")];
  if (prerendered.length) {
    app = hydrate(App, { target, props: { app: state } });
    performance.mark("zot-hydrated");
    // Dropped, or added where the screen had none.
    const redrawn =
      prerendered.filter((el) => !el.isConnected).length +
      Math.max(0, target.querySelectorAll("*").length - prerendered.length);
    if (redrawn) {
      performance.mark("zot-first-screen-redrawn", { detail: { redrawn, of: prerendered.length } });
      console.warn(
        `zot: ${redrawn} of the first screen's ${prerendered.length} elements did not match the app and were drawn again`,
      );
    }
  } else app = mount(App, { target, props: { app: state } });
  performance.mark("zot-mounted");
  void state.start();
}

export default app;
