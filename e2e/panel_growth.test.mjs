// A panel that grows keeps its rows and its cursor (#40): the todo panel
// opens with three items, then items are added with its own keys until it
// outgrows the dock. The body must draw rows all the way down its (grown)
// height, and todo's cursor (▸) and its input line (new: …▏) must stay on
// screen, so `d` never deletes a row the user cannot see. Its keys arrive
// in the order they were typed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, TODO } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";

const ADD = 22;

let app;
let s;
before(async () => {
  app = await startApp({ exts: [TODO] });
  s = app.s;
  // todo starts on first use, so its list can be laid down before /todo.
  const todos = ["ship the desktop app", "write the docs", "answer the issue"].map((text, i) => ({ id: i + 1, text, done: false }));
  fs.writeFileSync(path.join(app.tmp, "exts", "todo", "todos.json"), JSON.stringify({ version: 1, todos }));
});
after(async () => app?.stop());

const title = async () => (await s.texts("[data-test=panel-title]"))[0] ?? "";

/** What the panel body shows: whether rows reach its bottom edge, and where the cursor and input lines are. */
const view = () =>
  s.exec(`
    const body = document.querySelector('[data-test=panel-body]');
    const box = body.getBoundingClientRect();
    const lines = [...body.querySelectorAll('.pline')];
    const inView = (el) => { const r = el.getBoundingClientRect(); return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5; };
    const cursor = lines.find(l => l.textContent.startsWith('▸'));
    const input = lines.find(l => /▏\\s*$/.test(l.textContent));
    const lowest = Math.max(...lines.map(l => l.getBoundingClientRect().bottom));
    return {
      overflows: body.scrollHeight > body.clientHeight + 1,
      filled: lowest >= box.bottom - 5,
      cursor: cursor ? { text: cursor.textContent, inView: inView(cursor) } : null,
      input: input ? { text: input.textContent, inView: inView(input) } : null,
    };`);

/** Presses `keys` in the focused panel and waits for the title to say `want` items. */
async function press(keys, count) {
  await s.keys(...keys);
  if (count !== undefined) await s.until(`${count} todos`, async () => (await title()).includes(`/${count} done`));
}

test("adding items past the dock's height keeps every row drawn and the cursor and input line in view", async () => {
  await send(s, "hello there");
  await s.until("the answer", async () => (await s.texts(".row-assistant")).join("").includes("streamed world"));
  await send(s, "/todo");
  await s.until("the todo panel", async () => (await title()).includes("/3 done"));
  for (let i = 0; i < ADD; i++) {
    await press(["a", ..."item " + (i + 4), Keys.enter], 4 + i);
    const v = await view();
    assert.ok(v.filled, `after ${4 + i} items the body's lower rows are drawn`);
    assert.ok(v.cursor?.inView, `after ${4 + i} items the cursor is on screen: ${JSON.stringify(v.cursor)}`);
  }
  const v = await view();
  assert.ok(v.overflows, "the list is taller than the dock");
  assert.match(v.cursor.text, new RegExp(`item ${ADD + 3}$`));
  // Every key arrived, in order (they once overtook each other on the way).
  const saved = JSON.parse(fs.readFileSync(path.join(app.tmp, "exts", "todo", "todos.json"), "utf8"));
  assert.deepEqual(
    saved.todos.slice(3).map((t) => t.text),
    Array.from({ length: ADD }, (_, i) => `item ${i + 4}`),
  );
  await shot(s, "panel-growing.png");

  // The input line of a new item shows below the last one, and follows typing.
  await s.keys("a", "n", "e", "w");
  await s.until("the input line", async () => (await view()).input?.text.includes("new: new"));
  assert.ok((await view()).input.inView, "the input line is on screen");
  await s.keys(Keys.backspace, Keys.backspace, Keys.backspace, Keys.enter);
  await s.until("the editor to close", async () => (await view()).input === null);

  // Home: the cursor goes to the top, and so does the view; `d` then deletes the row the user sees.
  await s.keys("\uE011"); // Home
  await s.until("the cursor on the first item", async () => (await view()).cursor?.text.endsWith("ship the desktop app"));
  assert.ok((await view()).cursor.inView, "the first item is on screen");
  // `d` asks first (a dialog, reached with Ctrl+Shift+A); Enter says yes,
  // and the keyboard goes back to the panel.
  await s.keys("d");
  await s.until("the delete dialog", async () =>
    (await s.texts("[data-test=dialog-title]")).some((t) => t.includes("ship the desktop app")),
  );
  await s.chord([Keys.control, Keys.shift], "a");
  await s.until("the keyboard in the dialog", () =>
    s.exec(`return !!document.querySelector('[data-test=dialog]')?.contains(document.activeElement)`),
  );
  await press([Keys.enter], ADD + 2);
  const after = await view();
  assert.match(after.cursor.text, /write the docs$/);
  assert.ok(after.cursor.inView);

  // End: back to the bottom.
  await s.keys("\uE010"); // End
  await s.until("the cursor on the last item", async () => (await view()).cursor?.text.endsWith(`item ${ADD + 3}`));
  assert.ok((await view()).cursor.inView, "the last item is on screen");
  assert.ok((await view()).filled);
});
