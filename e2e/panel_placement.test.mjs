// Panels sit where the user puts them (#33 item 3), in the real window at
// 800×600: the title bar's Side button moves a panel into the side dock
// right of the chat and Ctrl+Shift+M moves it on (side, its own window, the
// bottom again); a panel that changes
// dock is told its new size (panel_resize); with one panel in each dock,
// keys go only to the focused one; and the user's choice survives a
// restart of the app (remembered per extension and panel id).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, probeFrames, PROBE, ROOT } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

const POINTER = path.join(ROOT, "e2e", "fixtures", "pointer");
const F6 = "\uE036";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [POINTER, PROBE] });
  s = app.s;
  await s.cmd("POST", "/window/rect", { width: 800, height: 600 });
  await s.until("an 800 px wide page", () => s.exec(`return window.innerWidth <= 800`));
});
after(async () => app?.stop());

const frames = (ext) => {
  const f = path.join(app.tmp, "exts", ext, "frames.jsonl");
  if (!fs.existsSync(f)) return [];
  return fs.readFileSync(f, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
};
const resizes = () => frames("pointer").filter((f) => f.type === "panel_resize");
/** Where each open panel is shown: `{ id: dock }`, and which one is focused. */
const docks = () =>
  s.exec(`const out = {};
    for (const p of document.querySelectorAll('[data-test=panel]')) out[p.dataset.panelId] = p.dataset.dock;
    return out;`);
const focusedPanel = () => s.exec(`return document.querySelector('[data-test=panel].focused')?.dataset.panelId ?? null`);
/** Every box of the layout lies inside the window (nothing pushed off). */
const fits = () =>
  s.exec(`const w = window.innerWidth, h = window.innerHeight;
    const boxes = ['[data-test=editor]', '[data-test=transcript]', '[data-test=side-dock]', '[data-test=panel]']
      .flatMap((q) => [...document.querySelectorAll(q)].map((el) => [q, el.getBoundingClientRect()]));
    return boxes.filter(([, r]) => r.right > w + 1 || r.bottom > h + 1 || r.left < -1 || r.width < 150).map(([q]) => q);`);
const probeKeys = () => probeFrames(app).filter((f) => f.type === "panel_key").map((f) => f.text ?? f.key);
const pointerKeys = () => frames("pointer").filter((f) => f.type === "panel_key").map((f) => f.text ?? f.key);

test("the Side button moves a panel to the side dock, which fits 800×600, and the panel is told its new size", async () => {
  await send(s, "/pointer");
  await s.until("the pointer panel at the bottom", async () => (await docks())["pointer-panel"] === "bottom");
  await s.until("its first panel_resize", async () => resizes().length === 1);
  const bottom = resizes()[0];

  await s.click(await s.find("[data-test=panel-place-side]"));
  await s.until("the pointer panel in the side dock", async () => (await docks())["pointer-panel"] === "side");
  await s.until("a panel_resize for the side dock", async () => resizes().length === 2);
  const side = resizes()[1];
  assert.ok(side.cols < bottom.cols, `the side dock is narrower (${side.cols} < ${bottom.cols} cols)`);
  assert.ok(side.rows > bottom.rows, `and taller (${side.rows} > ${bottom.rows} rows)`);
  assert.equal(await focusedPanel(), "pointer-panel", "the moved panel keeps the keyboard");
  assert.deepEqual(await fits(), [], "every part of the layout fits the window");
  await s.until("the choice saved", () => fs.existsSync(path.join(app.home, "panel_placements.json")));
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(app.home, "panel_placements.json"), "utf8")), {
    pointer: { "pointer-panel": "side" },
  });
});

test("two panels, one per dock: keys go only to the focused one, F6 and a click move the keyboard", async () => {
  await send(s, "/probe");
  await s.until("the probe at the bottom, focused", async () => (await focusedPanel()) === "probe-panel");
  assert.deepEqual(await docks(), { "pointer-panel": "side", "probe-panel": "bottom" });
  assert.deepEqual(await fits(), [], "both docks fit the window");
  await s.keys("a");
  await s.until("the probe to get a", async () => probeKeys().includes("a"));

  await s.click(await s.find("[data-test=panel][data-dock=side] [data-test=panel-body]"));
  await s.until("the side panel focused", async () => (await focusedPanel()) === "pointer-panel");
  await s.keys("b");
  await s.until("the pointer panel to get b", async () => pointerKeys().includes("b"));

  // F6 from the side panel: the ring is editor, pointer, probe.
  await s.keys(F6);
  await s.until("the probe focused again", async () => (await focusedPanel()) === "probe-panel");
  await s.keys("c");
  await s.until("the probe to get c", async () => probeKeys().includes("c"));
  assert.deepEqual(probeKeys(), ["a", "c"], "the probe never saw the side panel's key");
  assert.deepEqual(pointerKeys(), ["b"], "the side panel never saw the probe's keys");
  await shot(s, "panels-two-docks.png");
  const vs = await axeViolations(s);
  assert.deepEqual(vs, [], `both docks, their grip and the place buttons pass axe:\n${describeViolations(vs)}`);
});

test("Ctrl+Shift+M moves the focused panel to the side, to its own window and back to the bottom", async () => {
  await s.chord([Keys.control, Keys.shift], "m");
  await s.until("the probe in the side dock", async () => (await docks())["probe-panel"] === "side");
  assert.equal(await focusedPanel(), "probe-panel", "it keeps the keyboard");
  await s.keys("d");
  await s.until("the probe to get d in its new dock", async () => probeKeys().includes("d"));
  await shot(s, "panel-side-dock.png");
  // Then to its own window (e2e/panel_window.test.mjs has the rest), where
  // Ctrl+Shift+M brings it back to the bottom dock.
  const main = await s.cmd("GET", "/window");
  await s.chord([Keys.control, Keys.shift], "m");
  await s.until("the probe in its own window", async () => (await s.cmd("GET", "/window/handles")).length === 2);
  const other = (await s.cmd("GET", "/window/handles")).find((h) => h !== main);
  await s.cmd("POST", "/window", { handle: other });
  await s.until("the probe there, focused", () =>
    s.exec(`return !!document.querySelector('[data-test=panel][data-panel-id=probe-panel].focused')`),
  );
  await s.chord([Keys.control, Keys.shift], "m").catch((e) => {
    // Its window closes as the chord ends.
    if (!/no such window/.test(e.message)) throw e;
  });
  await s.cmd("POST", "/window", { handle: main });
  await s.until("the probe at the bottom again", async () => (await docks())["probe-panel"] === "bottom");
  await s.until("its window gone", async () => (await s.cmd("GET", "/window/handles")).length === 1);
  await s.click(await s.find("[data-test=panel][data-panel-id=probe-panel] [data-test=panel-body]"));
  assert.equal(await focusedPanel(), "probe-panel");
});

const sideWidth = () => s.exec(`return Math.round(document.querySelector('[data-test=side-dock]')?.getBoundingClientRect().width ?? 0)`);

test("the user's choice and the side dock's width survive a restart; the extension's hint does not override it", async () => {
  // Widen the side dock by its grip, from the keyboard: two steps of 20 px.
  assert.equal(await sideWidth(), 340, "the side dock starts 340 px wide");
  await s.click(await s.find("[data-test=dock-grip-x]"));
  await s.until("the grip focused", () => s.exec(`return document.activeElement?.dataset.test === 'dock-grip-x'`));
  await s.keys(Keys.left, Keys.left);
  await s
    .until("the side dock 380 px wide", async () => (await sideWidth()) === 380)
    .catch(async (e) => assert.fail(`${e.message}: ${await sideWidth()} px; focus on ${await s.exec(`return document.activeElement?.outerHTML.slice(0, 120)`)}`));
  await s.until("the width saved", () => fs.existsSync(path.join(app.home, "docks.json")));
  assert.deepEqual(JSON.parse(fs.readFileSync(path.join(app.home, "docks.json"), "utf8")), { side_width: 380 });

  const home = app.home;
  await app.stop();
  app = await startApp({ exts: [POINTER, PROBE], home });
  s = app.s;
  await s.cmd("POST", "/window/rect", { width: 800, height: 600 });
  await s.until("an 800 px wide page", () => s.exec(`return window.innerWidth <= 800`));
  await send(s, "/pointer");
  await s.until("the pointer panel back in the side dock", async () => (await docks())["pointer-panel"] === "side");
  await s.until("the side dock as wide as it was left", async () => (await sideWidth()) === 380);
  await send(s, "/probe");
  await s.until("the probe at the bottom, as it was left", async () => (await docks())["probe-panel"] === "bottom");
  await s.click(await s.find("[data-test=panel][data-dock=side] [data-test=panel-place-bottom]"));
  await s.until("the pointer panel at the bottom", async () => (await docks())["pointer-panel"] === "bottom");
  assert.equal(await s.exec(`return !!document.querySelector('[data-test=side-dock]')`), false, "an empty side dock is gone");
});
