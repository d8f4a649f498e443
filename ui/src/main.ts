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

// Start-up milestones `make bench-ui` reads: every module has run, then the
// app is mounted (docs/performance.md, "Desktop").
performance.mark("zot-script");
const backend = inTauri() ? new TauriBackend() : new FakeBackend();
const target = document.getElementById("app")!;
let app;
if (isPanelWindow(backend.windowLabel())) {
  const state = new PanelWindowState(backend);
  app = mount(PanelWindow, { target, props: { app: state } });
  void state.start();
} else {
  const state = new AppState(backend);
  const first = target.firstElementChild;
  app = first
    ? hydrate(App, { target, props: { app: state } })
    : mount(App, { target, props: { app: state } });
  // Svelte redraws from scratch when the screen does not match the app
  // (no warning outside its dev build): say so, the E2E test looks.
  if (first && !first.isConnected) {
    performance.mark("zot-first-screen-redrawn");
    console.warn("zot: the prerendered first screen did not match the app; it was drawn again");
  }
  performance.mark("zot-mounted");
  void state.start();
}

export default app;
