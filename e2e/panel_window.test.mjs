// A panel in its own OS window (#33 item 3, placement "window"), in the
// real app: the title bar's Window button opens a second Tauri window that
// renders the same panel and sends keys, clicks and sizes to the same
// backend; Ctrl+Shift+M there docks it again; closing the OS window puts
// the panel back in a dock (remembered); the choice and the window's place
// survive a restart, and a place that is off every screen now is clamped
// onto it; an HTML panel's page loads and talks there; a crashed
// extension's window says so; closing a window while its extension is busy
// docks the panel at once; a theme chosen in the main window reaches the
// panel's window. WebDriver switches between
// the two windows by their handles (WebKitWebDriver lists every webview of
// the app).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, probeFrames, PROBE, ROOT } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";

const POINTER = path.join(ROOT, "e2e", "fixtures", "pointer");
const WEBPAGE = path.join(ROOT, "e2e", "fixtures", "webpage");
/** An HTML panel's page: pings its extension and says what came back. */
const PAGE = `<!doctype html><html><body><p id="got">no answer yet</p><script>
addEventListener("message", (e) => {
  if (e.data && e.data.pong !== undefined) {
    document.getElementById("got").textContent = "pong " + e.data.pong;
    parent.postMessage({ gotPong: e.data.pong, where: innerWidth }, "*");
  }
});
parent.postMessage({ ping: 1 }, "*");
</script></body></html>`;

let app;
let s;
let main;
before(async () => {
  app = await startApp({ exts: [POINTER, PROBE, WEBPAGE] });
  s = app.s;
  main = await s.cmd("GET", "/window");
  fs.writeFileSync(path.join(app.tmp, "exts", "webpage", "page.html"), PAGE);
});
after(async () => app?.stop());

const frames = (ext) => {
  const f = path.join(app.tmp, "exts", ext, "frames.jsonl");
  if (!fs.existsSync(f)) return [];
  return fs.readFileSync(f, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
};
const pointerFrames = (type) => frames("pointer").filter((f) => f.type === type);
const handles = () => s.cmd("GET", "/window/handles");
const toMain = () => s.cmd("POST", "/window", { handle: main });
/** Switches to the panel window and answers its handle (waits for it). */
async function toPanelWindow() {
  let found = null;
  await s.until("a second window", async () => {
    for (const h of await handles()) {
      if (h === main) continue;
      await s.cmd("POST", "/window", { handle: h });
      if (await s.exec(`return !!document.querySelector('[data-test=panel-window]')`)) {
        found = h;
        return true;
      }
    }
    await toMain();
    return false;
  });
  return found;
}
/** Switches to the window of panel `id` and answers its handle (waits for it). */
async function toWindowOf(id) {
  let found = null;
  await s.until(`the window of ${id}`, async () => {
    for (const h of await handles()) {
      if (h === main) continue;
      await s.cmd("POST", "/window", { handle: h });
      const shows = await s.exec(`const w = document.querySelector('[data-test=panel-window]');
        return !!w && (w.querySelector('[data-test=panel]')?.dataset.panelId === arguments[0] || !!w.querySelector('[data-test=panel-window-gone]'));`, [id]);
      if (shows) {
        found = h;
        return true;
      }
    }
    await toMain();
    return false;
  });
  return found;
}
/** Does `fn` in a panel window that it closes (WebDriver may then fail its
 * last step), then goes back to the main window, also when it fails. */
async function closing(fn) {
  const me = await s.cmd("GET", "/window");
  try {
    await fn();
  } catch (e) {
    // The window may go while WebDriver still talks to it: "no such window",
    // or an "unknown error" from releasing the keys a chord pressed in it
    // (seen on CI). Either is what closing means, once the window is gone.
    const gone =
      /no such window/.test(e.message) ||
      (await s.until("the closed window gone", async () => !(await handles()).includes(me), 5000).then(
        () => true,
        () => false,
      ));
    if (!gone) {
      await toMain();
      throw e;
    }
  }
  await toMain();
}
/** Closes the OS windows whose title contains `name` the way a window
 * manager does for its close button (WM_DELETE_WINDOW; Xvfb has no window
 * manager, and WebDriver's close only ends the webview); answers how many. */
function wmClose(name) {
  const ids = execFileSync("xdotool", ["search", "--name", name]).toString().trim().split("\n").filter(Boolean);
  execFileSync("python3", [path.join(ROOT, "e2e", "lib", "wm_close.py"), ...ids]);
  return ids.length;
}
/** Where each panel of the main window is docked. */
const docks = () =>
  s.exec(`const out = {};
    for (const p of document.querySelectorAll('[data-test=panel]')) out[p.dataset.panelId] = p.dataset.dock;
    return out;`);
const placements = () => JSON.parse(fs.readFileSync(path.join(app.home, "panel_placements.json"), "utf8"));

test("the Window button opens the panel in its own window, which takes its keys, clicks and size", async () => {
  await send(s, "/pointer");
  // Three extensions start first; a loaded machine takes a while.
  await s.until("the pointer panel at the bottom", async () => (await docks())["pointer-panel"] === "bottom", 60000);
  await s.until("its first panel_resize", async () => pointerFrames("panel_resize").length === 1);
  const docked = pointerFrames("panel_resize")[0];

  await s.click(await s.find("[data-test=panel-place-window]"));
  await s.until("the panel gone from the main window", async () => !("pointer-panel" in (await docks())));
  assert.equal(await s.exec(`return document.querySelector('[data-test=editor]') !== null`), true);
  await toPanelWindow();
  await s.until("the panel in its window", () =>
    s.exec(`const p = document.querySelector('[data-test=panel]');
      return p?.dataset.dock === 'window' && p.dataset.panelId === 'pointer-panel' && p.classList.contains('focused');`),
  );
  assert.deepEqual(placements().pointer, { "pointer-panel": "window" });

  // Its size in the window, told once.
  await s.until("a panel_resize for the window", async () => pointerFrames("panel_resize").length >= 2);
  const inWindow = pointerFrames("panel_resize").at(-1);
  assert.notDeepEqual([inWindow.cols, inWindow.rows], [docked.cols, docked.rows], "a new size");

  // Keys typed in the window go to the extension.
  await s.keys("w");
  await s.until("the pointer to get w", async () => pointerFrames("panel_key").some((f) => f.text === "w"));

  // A click on a line: the extension gets its row, and its re-render shows here.
  const at = await s.exec(`const el = document.querySelectorAll('[data-test=panel-body] .panel-lines > *')[1];
    const r = el.getBoundingClientRect(); return { x: r.left + 2, y: r.top + r.height / 2 };`);
  const before = pointerFrames("panel_mouse").length;
  await s.pointerAt(at.x, at.y);
  await s.until("a panel_mouse from the window", async () => pointerFrames("panel_mouse").length > before);
  const click = pointerFrames("panel_mouse").at(-1);
  assert.equal(click.action, "click");
  assert.equal(click.row, 1);
  await shot(s, "panel-window.png");
  const titled = execFileSync("xdotool", ["search", "--name", "^Pointer — pointer — zot$"]).toString().trim();
  assert.equal(titled.split("\n").length, 1, "the OS window is titled after its panel");
  await toMain();
});

test("a theme change in the main window reaches the open panel window", async () => {
  // The pointer panel's window from the test above is still open.
  const look = () =>
    s.exec(`const root = document.documentElement;
      return { theme: root.dataset.theme, background: getComputedStyle(root).getPropertyValue('--zot-background').trim(),
        panel: getComputedStyle(document.querySelector('[data-test=panel]')).backgroundColor };`);
  await toPanelWindow();
  const dark = await look();
  assert.equal(dark.theme, "dark");
  await toMain();
  await send(s, "/theme light");
  await toPanelWindow();
  await s.until("the panel window in the light theme", async () => (await look()).theme === "light");
  const light = await look();
  assert.equal(light.background, "#ffffff", "the window's colours are the light theme's");
  assert.notEqual(light.panel, dark.panel, "the panel is drawn in them");
  await shot(s, "panel-window-light.png");
  await toMain();
  await send(s, "/theme dark");
  await toPanelWindow();
  await s.until("the panel window dark again", async () => (await look()).theme === "dark");
  await toMain();
});

test("an HTML panel in its own window: its page loads there and talks to its extension", async () => {
  const pongs = () => frames("webpage").filter((f) => f.type === "panel_message" && f.data?.gotPong !== undefined);
  await send(s, "/webpage");
  await s.until("the page's pong, docked", async () => pongs().length === 1);
  await s.click(await s.find("[data-test=panel][data-panel-id=web-panel] [data-test=panel-place-window]"));
  await toWindowOf("web-panel");
  await s.until("the frame loaded in the window", () =>
    s.exec(`return document.querySelector('[data-test=panel-frame][data-loaded="1"]') !== null`),
  );
  await s.until("the page's pong from the window", async () => pongs().length === 2);
  assert.equal(await s.exec(`return document.querySelector('[data-test=panel-frame]').getAttribute('sandbox')`), "allow-scripts");
  await closing(async () => s.click(await s.find("[data-test=panel-place-bottom]")));
  await s.until("the page docked again", async () => (await docks())["web-panel"] === "bottom");
  await s.until("one panel window left", async () => (await handles()).length === 2);
  await s.click(await s.find("[data-test=panel][data-panel-id=web-panel] .panel-close"));
  await s.until("the web panel closed", async () => !("web-panel" in (await docks())));
});

test("the window's place buttons and Ctrl+Shift+M dock the panel again, and its window closes", async () => {
  await toPanelWindow();
  await closing(() => s.chord([Keys.control, Keys.shift], "m"));
  await s.until("the panel at the bottom", async () => (await docks())["pointer-panel"] === "bottom");
  await s.until("one window left", async () => (await handles()).length === 1);
  assert.deepEqual(placements().pointer, { "pointer-panel": "bottom" });

  await s.click(await s.find("[data-test=panel-place-window]"));
  await toPanelWindow();
  // The window's page shows its panel once the main window answered its
  // ready; under load that comes after the page itself.
  await s.until("the window's place buttons", async () =>
    s.exec(`return !!document.querySelector('[data-test=panel-place-side]')`),
  );
  await closing(async () => s.click(await s.find("[data-test=panel-place-side]")));
  await s.until("the panel in the side dock", async () => (await docks())["pointer-panel"] === "side");
  await s.until("one window left", async () => (await handles()).length === 1);
});

test("closing the OS window docks the panel, and that is remembered", async () => {
  await s.click(await s.find("[data-test=panel][data-dock=side] [data-test=panel-place-window]"));
  const h = await toPanelWindow();
  await toMain();
  assert.equal(wmClose("Pointer"), 1, "one window is the pointer panel's");
  await s.until("the panel docked again", async () => (await docks())["pointer-panel"] === "bottom");
  assert.ok(!(await handles()).includes(h), "its window is gone");
  assert.deepEqual(placements().pointer, { "pointer-panel": "bottom" });
});

test("the window comes back where it was after a restart, and onto the screen when that place is gone", async () => {
  await s.click(await s.find("[data-test=panel-place-window]"));
  await toPanelWindow();
  await s.cmd("POST", "/window/rect", { x: 200, y: 120, width: 500, height: 360 });
  const placed = await s.cmd("GET", "/window/rect");
  await s.until("its place saved", () => fs.existsSync(path.join(app.home, "panel_windows.json")));
  await toMain();

  const home = app.home;
  await app.stop();
  app = await startApp({ exts: [POINTER, PROBE], home });
  s = app.s;
  main = await s.cmd("GET", "/window");
  await send(s, "/pointer");
  await toPanelWindow();
  await s.until("the panel in its window again", () =>
    s.exec(`return document.querySelector('[data-test=panel]')?.dataset.panelId === 'pointer-panel'`),
  );
  const back = await s.cmd("GET", "/window/rect");
  assert.deepEqual([back.width, back.height], [placed.width, placed.height], "the same size");
  assert.ok(Math.abs(back.x - placed.x) <= 40 && Math.abs(back.y - placed.y) <= 40, `the same place: ${JSON.stringify({ back, placed })}`);

  // Its remembered place is on a monitor that is gone now.
  await closing(async () => s.click(await s.find("[data-test=panel-place-bottom]")));
  const file = path.join(app.home, "panel_windows.json");
  await s.until("docked", async () => (await docks())["pointer-panel"] === "bottom");
  await s.until("one window", async () => (await handles()).length === 1);
  const saved = JSON.parse(fs.readFileSync(file, "utf8"));
  saved.pointer["pointer-panel"] = { x: 5000, y: 3000, width: 500, height: 360 };
  fs.writeFileSync(file, JSON.stringify(saved));
  await s.click(await s.find("[data-test=panel-place-window]"));
  await toPanelWindow();
  const rect = await s.cmd("GET", "/window/rect");
  assert.ok(rect.x >= 0 && rect.x + rect.width <= 1280 && rect.y >= 0 && rect.y + rect.height <= 800, `on the 1280×800 screen: ${JSON.stringify(rect)}`);
  await toMain();
});

test("a panel window whose extension crashes says so; the main window's chat has the crash row", async () => {
  await send(s, "/probe");
  await s.until("the probe docked", async () => (await docks())["probe-panel"] === "bottom");
  await s.click(await s.find("[data-test=panel][data-panel-id=probe-panel] [data-test=panel-place-window]"));
  await toWindowOf("probe-panel");
  const probeWindow = await s.cmd("GET", "/window");
  await toMain();
  await send(s, "/crash");
  await s.cmd("POST", "/window", { handle: probeWindow });
  let said = "";
  await s
    .until("the window to say so", async () => {
      said = await s.exec(`return document.querySelector('[data-test=panel-window]')?.textContent ?? 'no panel window'`);
      return said.includes("probe exited with status 3");
    })
    .catch((e) => assert.fail(`${e.message}; the window says ${JSON.stringify(said)}`));
  await shot(s, "panel-window-crashed.png");
  await toMain();
  await s.until("the crash row", () => s.exec(`return !!document.querySelector('[data-test=crash-recovery]')`));
  assert.ok((await handles()).includes(probeWindow), "the window stays open");
  await s.cmd("POST", "/window", { handle: probeWindow });
  await closing(async () => s.click(await s.find("[data-test=panel-window-close]")));
  await s.until("its window closed", async () => !(await handles()).includes(probeWindow));
  assert.ok(!probeFrames(app).some((f) => f.type === "panel_mouse"));
});

test("closing a panel window while its extension is busy docks the panel at once; the late answer lands in the dock", async () => {
  // Restarted after its crash; its panel still goes to its own window.
  await s.until("the probe back", () => s.exec(`return !!document.querySelector('[data-test=crash-recovery]')?.textContent.includes('Running again')`));
  await send(s, "/probe");
  await toWindowOf("probe-panel");
  await s.until("the probe in its window", () =>
    s.exec(`return document.querySelector('[data-test=panel]')?.dataset.panelId === 'probe-panel'`),
  );
  await s.keys("~");
  await s.until("the probe to get ~", async () => probeFrames(app).some((f) => f.type === "panel_key" && f.text === "~"));
  await toMain();
  assert.equal(wmClose("Probe"), 1, "one window is the probe panel's");
  const closedAt = Date.now();
  await s.until("the probe docked again", async () => (await docks())["probe-panel"] === "bottom");
  const docked = Date.now() - closedAt;
  await s.until("its late answer in the dock", () =>
    s.exec(`return [...document.querySelectorAll('[data-panel-id=probe-panel] .pline')].some(l => l.textContent === 'last key: rune ~')`),
  );
  assert.ok((await handles()).length === 2, "the pointer's window is the only one left");
  console.log(`# docked ${docked} ms after the window closed (the probe was busy for 1.5 s)`);
});
