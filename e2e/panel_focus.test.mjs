// Panels do not trap the keyboard (#40): F6 / Shift+F6 move it between the
// editor and the open panels without closing any, a click outside a panel
// leaves it, and the focused frame says how. An extension that declares
// `panel_esc` (todo) gets Esc as a key: Esc cancels todo's editor and keeps
// the panel; outside the editor todo closes the panel itself; Ctrl+C still
// closes it. The probe fixture (no capability) still closes on Esc.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, shot, probeFrames, PROBE, TODO } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";

const F6 = "\uE036";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [TODO, PROBE] });
  s = app.s;
});
after(async () => app?.stop());

const panelOpen = () => s.exec(`return !!document.querySelector('[data-test=panel]')`);
const panelFocused = () => s.exec(`return !!document.querySelector('[data-test=panel].focused')`);
const editorFocused = () => s.exec(`return document.activeElement === document.querySelector('[data-test=editor]')`);
const editorText = () => s.exec(`return document.querySelector('[data-test=editor]').value`);
const hint = async () => (await s.texts("[data-test=panel-hint]"))[0]?.replace(/\s+/g, " ").trim() ?? "";
const panelText = async () => (await s.texts("[data-test=panel-body] .pline")).join("\n");
const footer = async () => (await s.texts("[data-test=panel-footer]"))[0] ?? "";
const probeKeys = () => probeFrames(app).filter((f) => f.type === "panel_key").map((f) => f.key + (f.text ? ":" + f.text : ""));

test("F6 leaves a focused panel for the editor and comes back; the panel stays open", async () => {
  // A conversation, so the transcript is text to click on (not the start screen's buttons).
  await send(s, "hello there");
  await s.until("the answer", async () => (await s.texts(".row-assistant")).join("").includes("streamed world"));
  await send(s, "/probe");
  await s.until("the probe panel, focused", panelFocused);
  assert.equal(await hint(), "F6 leaves · Esc closes");
  await s.keys("a");
  await s.until("the probe to see a", async () => (await panelText()).includes("last key: rune a"));

  await s.keys(F6);
  await s.until("the editor to have the keyboard", editorFocused);
  assert.equal(await panelFocused(), false);
  assert.equal(await panelOpen(), true, "F6 closes nothing");
  assert.equal(await hint(), "F6 or click to type here");
  await s.keys("z");
  assert.equal(await editorText(), "z");
  await s.keys(Keys.backspace);

  await s.keys(F6);
  await s.until("the panel to have the keyboard again", panelFocused);
  await s.keys("w");
  await s.until("the probe to see w", async () => (await panelText()).includes("last key: rune w"));

  // Shift+F6 goes the other way: with one panel, back to the editor.
  await s.chord([Keys.shift], F6);
  await s.until("the editor again", editorFocused);
  assert.equal(await panelOpen(), true);
  assert.deepEqual(probeKeys(), ["rune:a", "rune:w"], "the probe never saw F6, z or the editor's keys");
  assert.ok(!probeFrames(app).some((f) => f.type === "panel_close"), "nothing told the probe its panel closed");
});

test("a click outside the panel leaves it; a click on it comes back", async () => {
  await s.click(await s.find("[data-test=panel]"));
  await s.until("the panel focused", panelFocused);
  await s.click(await s.find("[data-test=transcript]"));
  await s.until("the panel to let go", async () => !(await panelFocused()));
  assert.equal(await panelOpen(), true);
  const before = probeKeys().length;
  await s.keys("q");
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(probeKeys().length, before, "a key after the click did not reach the probe");
  // Wherever the q went (the editor, or nowhere), take it back out.
  await s.keys(Keys.backspace);
  await s.click(await s.find("[data-test=panel]"));
  await s.until("the panel focused", panelFocused);
  await s.keys(Keys.escape);
  await s.until("Esc to close the probe's panel (it did not declare panel_esc)", async () => !(await panelOpen()));
  await s.until("panel_close at the probe", () => probeFrames(app).some((f) => f.type === "panel_close"));
});

test("todo declares panel_esc: Esc cancels its editor and keeps the panel, then closes it; Ctrl+C closes it", async () => {
  await send(s, "/todo first");
  await send(s, "/todo");
  await s.until("the todo panel, focused", panelFocused);
  assert.equal(await hint(), "F6 leaves · Ctrl+C closes");
  await s.keys("a", "x", "y");
  await s.until("the editor line", async () => (await panelText()).includes("new: xy▏"));
  assert.match(await footer(), /esc cancel/);
  await shot(s, "panel-focus-hint.png");

  await s.keys(Keys.escape);
  await s.until("the edit to be cancelled", async () => !(await panelText()).includes("new: xy"));
  assert.equal(await panelOpen(), true, "Esc in the editor keeps the panel");
  assert.match(await footer(), /esc close/);
  assert.ok(!(await panelText()).includes("xy"), "nothing was added");

  await s.keys(Keys.escape);
  await s.until("todo to close its panel", async () => !(await panelOpen()));

  await send(s, "/todo");
  await s.until("the todo panel, focused", panelFocused);
  await s.chord([Keys.control], "c");
  await s.until("Ctrl+C to close it", async () => !(await panelOpen()));
  await s.until("the editor to have the keyboard", editorFocused);
});
