// The todo example's form dialog in the real window (#34 item 6): `A` in
// its panel asks for a new item and its due date; the form is reached with
// Ctrl+Shift+A (it never takes the panel's keys), filled by keyboard, and
// the new item shows with its due date, saved next to an item from a list
// written before due dates existed. The panel has the keyboard again after.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, TODO } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
let s;
let store;
before(async () => {
  app = await startApp({ exts: [TODO] });
  s = app.s;
  // A list saved before items had a due date (todo starts on first use).
  store = path.join(app.tmp, "exts", "todo", "todos.json");
  fs.writeFileSync(store, JSON.stringify({ version: 1, todos: [{ id: 1, text: "old one", done: false }] }));
});
after(async () => app?.stop());

const panelText = async () => (await s.texts("[data-test=panel-body] .pline")).join("\n");
const panelFocused = () => s.exec(`return !!document.querySelector('[data-test=panel].focused')`);
const dialogKind = () => s.exec(`return document.querySelector('[data-test=dialog]')?.dataset.kind ?? null`);
const inDialog = () =>
  s.exec(`return !!document.querySelector('[data-test=dialog]')?.contains(document.activeElement)`);

test("A asks for a new todo and its due date in a form; the panel shows it", async () => {
  await send(s, "/todo");
  await s.until("the todo panel, focused", async () => (await panelText()).includes("old one") && (await panelFocused()));
  await s.keys("A");
  await s.until("the form", async () => (await dialogKind()) === "form");
  assert.deepEqual(await s.texts("[data-test=dialog-title]"), ["New todo"]);
  assert.ok(await panelFocused(), "the form took the panel's keys");
  await s.chord([Keys.control, Keys.shift], "a");
  await s.until("Ctrl+Shift+A to reach the form", inDialog);

  await s.keys(..."file taxes", Keys.tab, ..."2027-04-15");
  await s.until("OK enabled", () => s.exec(`return !document.querySelector('[data-test=dialog-accept]').disabled`));
  await shot(s, "todo-form.png");
  const vs = await axeViolations(s);
  assert.deepEqual(vs, [], describeViolations(vs));
  await s.keys(Keys.enter);

  await s.until("the new item with its due date", async () => (await panelText()).includes("□ file taxes (due 2027-04-15)"));
  const saved = JSON.parse(fs.readFileSync(store, "utf8"));
  assert.deepEqual(saved.todos, [
    { id: 1, text: "old one", done: false },
    { id: 2, text: "file taxes", done: false, due: "2027-04-15" },
  ]);

  // The panel has the keyboard again: x toggles the new item.
  await s.until("the panel to have the keyboard", panelFocused);
  await s.keys("x");
  await s.until("the new item done", async () => (await panelText()).includes("✓ file taxes (due 2027-04-15)"));
});
