// The rendering path zot picks for WebKit before its window opens
// (src-tauri/src/desktop/renderer.rs): with no GPU render node, as under
// Xvfb here, compositing is turned off for the web process; a value the
// user set is left alone. WebKit's periodic check of the page's memory
// (src-tauri/src/desktop/webkit_memory.rs) runs at the interval zot gives
// the window's web context.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { startApp } from "./lib/app.mjs";
import { bytesRead, webProcess, webProcessEnv } from "./lib/proc.mjs";

const gpu = fs.existsSync("/dev/dri") && fs.readdirSync("/dev/dri").some((n) => n.startsWith("renderD"));

const webProcessSetting = (app) => webProcessEnv(app.pid, "WEBKIT_DISABLE_COMPOSITING_MODE");

test("without a GPU render node, compositing is off in the web process", { skip: gpu && "this machine has a GPU" }, async () => {
  const app = await startApp({ unset: ["WEBKIT_DISABLE_COMPOSITING_MODE", "LIBGL_ALWAYS_SOFTWARE"] });
  try {
    assert.equal(webProcessSetting(app), "1");
    // The page still draws and works.
    assert.ok(await app.s.exec(`return !!document.querySelector('[data-test=transcript]')`));
  } finally {
    await app.stop();
  }
});

test("a value the user set is kept", async () => {
  const app = await startApp({ env: { WEBKIT_DISABLE_COMPOSITING_MODE: "0" } });
  try {
    assert.equal(webProcessSetting(app), "0");
  } finally {
    await app.stop();
  }
});

test("the web process checks its memory at the interval zot gives it", async () => {
  // zot's own interval (10 min) cannot be watched in a test; the variable
  // that overrides it goes through the same wrapper of WebKit's web context.
  const app = await startApp({ env: { ZOT_WEBKIT_MEMORY_POLL: "1" } });
  try {
    const web = webProcess(app.pid);
    // Each check reads the whole of /proc/self/smaps.
    const smaps = fs.readFileSync(`/proc/${web}/smaps`).length;
    const before = bytesRead(web);
    await new Promise((r) => setTimeout(r, 3500));
    const read = bytesRead(web) - before;
    assert.ok(read >= 2 * smaps, `the web process read ${read} bytes in 3.5 s; checks every second read ${smaps} bytes each`);
  } finally {
    await app.stop();
  }
});
