// The rendering path zot picks for WebKit before its window opens
// (src-tauri/src/desktop/renderer.rs): with no GPU render node, as under
// Xvfb here, compositing is turned off for the web process; a value the
// user set is left alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { startApp } from "./lib/app.mjs";
import { webProcessEnv } from "./lib/proc.mjs";

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
