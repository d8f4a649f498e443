// Entry point: picks the real Tauri backend inside the app and the fake one
// in a plain browser, then mounts the UI.
import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { AppState } from "./lib/app.svelte";
import { FakeBackend } from "./lib/backend/fake";
import { TauriBackend, inTauri } from "./lib/backend/tauri";

// Start-up milestones `make bench-ui` reads: every module has run, then the
// app is mounted (docs/performance.md, "Desktop").
performance.mark("zot-script");
const state = new AppState(inTauri() ? new TauriBackend() : new FakeBackend());
const app = mount(App, { target: document.getElementById("app")!, props: { app: state } });
performance.mark("zot-mounted");
void state.start();

export default app;
