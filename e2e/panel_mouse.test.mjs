// Panels take the mouse and learn their size (#33), in the real window.
// The pointer fixture declares panel_mouse and panel_resize and logs every
// frame: a click on a character names its row and its column counted in
// characters after SGR (a wide CJK character and an emoji count as one),
// a double click is a click then a double_click, a right click is
// `context`, and resizing the window sends one panel_resize with the new
// size. todo toggles the item clicked and edits the one double-clicked.
// The probe (no capability) gets no mouse frame, and the wheel scrolls its
// 10 000-line panel itself.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, probeFrames, PROBE, TODO, ROOT } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";

const POINTER = path.join(ROOT, "e2e", "fixtures", "pointer");

let app;
let s;
before(async () => {
  app = await startApp({ exts: [POINTER, TODO, PROBE] });
  s = app.s;
  const todos = ["ship the desktop app", "write the docs", "answer the issue"].map((text, i) => ({ id: i + 1, text, done: false }));
  fs.writeFileSync(path.join(app.tmp, "exts", "todo", "todos.json"), JSON.stringify({ version: 1, todos }));
});
after(async () => app?.stop());

const frames = (ext) => {
  const f = path.join(app.tmp, "exts", ext, "frames.jsonl");
  if (!fs.existsSync(f)) return [];
  return fs.readFileSync(f, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
};
const pointerFrames = (type) => frames("pointer").filter((f) => f.type === type);
const title = async () => (await s.texts("[data-test=panel-title]"))[0] ?? "";
const panelLines = () => s.texts("[data-test=panel-body] .pline");

/** The viewport point at the middle of character `col` (scalar index) of
 * drawn line `row`, or `past` px right of the line's last character. */
const pointOf = (row, col, past = 0) =>
  s.exec(
    `const [row, col, past] = arguments;
     const line = document.querySelector('[data-test=panel-body] .panel-lines').children[row];
     const walk = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
     const nodes = []; for (let n = walk.nextNode(); n; n = walk.nextNode()) nodes.push(n);
     const text = nodes.map((n) => n.data).join('');
     const chars = [...text];
     const i = past ? chars.length - 1 : col;
     let at = chars.slice(0, i).join('').length;
     const len = chars[i].length;
     for (const n of nodes) {
       if (at < n.data.length) {
         const r = document.createRange(); r.setStart(n, at); r.setEnd(n, at + len);
         const b = r.getBoundingClientRect();
         return past ? { x: b.right + past, y: b.top + b.height / 2 } : { x: b.left + b.width / 2, y: b.top + b.height / 2 };
       }
       at -= n.data.length;
     }
     return null;`,
    [row, col, past],
  );

/** Clicks (`clicks` presses of `button`) at character `col` of line `row`
 * and waits for the fixture to have `want` more frames of `type`. */
async function clickAt(row, col, { past = 0, button = 0, clicks = 1 } = {}) {
  const before = pointerFrames("panel_mouse").length;
  const p = await pointOf(row, col, past);
  await s.pointerAt(p.x, p.y, { button, clicks });
  return before;
}

test("a click names the row and the character under the pointer, SGR, wide characters and emoji included", async () => {
  await send(s, "/pointer");
  await s.until("the pointer panel", async () => (await title()).includes("Pointer"));
  // Told its size once after it opened.
  await s.until("a panel_resize", async () => pointerFrames("panel_resize").length === 1);
  const cases = [
    [0, 2, 0, { row: 0, col: 2 }], // "□ ship it": the s, after a styled □
    [1, 1, 0, { row: 1, col: 1 }], // "漢字 wide": 字
    [1, 3, 0, { row: 1, col: 3 }], // its w
    [2, 0, 0, { row: 2, col: 0 }], // "😀 emoji": the emoji
    [2, 2, 0, { row: 2, col: 2 }], // its e
    [2, 0, 40, { row: 2, col: 7 }], // past the end: the line's length
  ];
  for (const [row, col, past, want] of cases) {
    const n = await clickAt(row, col, { past });
    await s.until(`the click on ${row}:${col}`, async () => pointerFrames("panel_mouse").length > n);
    const got = pointerFrames("panel_mouse").slice(n);
    assert.deepEqual(got, [{ type: "panel_mouse", panel_id: "pointer-panel", action: "click", ...want }], `click on ${row}:${col}+${past}`);
  }
  await s.until("the panel to show the last click", async () => (await panelLines()).some((l) => l.includes("last: click 2:7")));

  // A double click: the first press's click, then the double click.
  let n = await clickAt(0, 4, { clicks: 2 });
  await s.until("the double click", async () => pointerFrames("panel_mouse").length >= n + 2);
  assert.deepEqual(
    pointerFrames("panel_mouse").slice(n).map((f) => `${f.action} ${f.row}:${f.col}`),
    ["click 0:4", "double_click 0:4"],
  );
  // A right click.
  n = await clickAt(1, 0, { button: 2 });
  await s.until("the context click", async () => pointerFrames("panel_mouse").length > n);
  assert.deepEqual(pointerFrames("panel_mouse").slice(n).map((f) => `${f.action} ${f.row}:${f.col}`), ["context 1:0"]);
  // The wheel goes to the extension, as whole lines. (WebKitWebDriver's
  // emulated right button also delivers a primary click on release, which
  // a real right click does not: only the wheel frames are looked at.)
  const body = await s.exec(`const b = document.querySelector('[data-test=panel-body]').getBoundingClientRect(); return { x: b.left + 40, y: b.top + 10 };`);
  const wheels = () => pointerFrames("panel_mouse").filter((f) => f.action === "wheel");
  n = wheels().length;
  await s.wheelAt(body.x, body.y, 120);
  await s.until("the wheel", async () => wheels().length > n);
  const wheel = wheels().slice(n);
  assert.ok(wheel.every((f) => f.action === "wheel" && f.delta > 0 && f.row === undefined && f.col === undefined), JSON.stringify(wheel));
  await shot(s, "panel-pointer.png");
});

test("resizing the window sends one panel_resize with the new size", async () => {
  await s.until("the pointer panel", async () => (await title()).includes("Pointer"));
  const first = pointerFrames("panel_resize");
  const was = first[first.length - 1];
  const rect = await s.cmd("GET", "/window/rect");
  await s.cmd("POST", "/window/rect", { width: rect.width - 300, height: rect.height - 100 });
  await s.until("a new size", async () => pointerFrames("panel_resize").length > first.length);
  // Let a second frame come if one were coming (the contract allows one per 100 ms).
  await new Promise((r) => setTimeout(r, 600));
  const now = pointerFrames("panel_resize").slice(first.length);
  assert.equal(now.length, 1, JSON.stringify(now));
  assert.ok(now[0].cols < was.cols, `narrower: ${JSON.stringify([was, now[0]])}`);
  assert.ok(now[0].rows < was.rows, `shorter: ${JSON.stringify([was, now[0]])}`);
  const cells = await s.exec(`
    const b = document.querySelector('[data-test=panel-body]');
    const p = document.querySelector('.cell-probe').getBoundingClientRect().width / 10;
    return Math.floor((b.clientWidth - 20) / p);`);
  assert.equal(now[0].cols, cells, "cols fill the body's width in cells of the panel font");
  await s.cmd("POST", "/window/rect", { width: rect.width, height: rect.height });
  await s.until("the size back", async () => {
    const f = pointerFrames("panel_resize");
    return f[f.length - 1].cols === was.cols;
  });
});

test("a click on a todo toggles it, a double click edits it", async () => {
  await send(s, "/todo");
  await s.until("the todo panel", async () => (await title()).includes("/3 done"));
  // Row 1 is "  □ write the docs"; click its box.
  await clickAt(1, 2);
  await s.until("the item toggled", async () => (await title()).includes("1/3 done"));
  const lines = await panelLines();
  assert.match(lines[1], /^▸ ✓ write the docs/, JSON.stringify(lines));
  const saved = JSON.parse(fs.readFileSync(path.join(app.tmp, "exts", "todo", "todos.json"), "utf8"));
  assert.deepEqual(saved.todos.map((t) => t.done), [false, true, false]);
  await shot(s, "panel-todo-click.png");

  // A double click on row 0: edited, and left as it was (the click's toggle undone).
  await clickAt(0, 6, { clicks: 2 });
  await s.until("the editor", async () => (await panelLines()).some((l) => l.startsWith("edit: ship the desktop app")));
  assert.ok((await title()).includes("1/3 done"), await title());
  await s.keys(Keys.escape);
  await s.until("the editor closed", async () => !(await panelLines()).some((l) => l.startsWith("edit:")));
});

test("the wheel scrolls a long panel whose owner did not ask for the mouse", async () => {
  await send(s, "/probe big");
  await s.until("the big probe panel", async () => (await panelLines()).some((l) => l.startsWith("row ")));
  const top = () => s.exec(`return document.querySelector('[data-test=panel-body]').scrollTop`);
  assert.equal(await top(), 0);
  const body = await s.exec(`const b = document.querySelector('[data-test=panel-body]').getBoundingClientRect(); return { x: b.left + 60, y: b.top + b.height / 2 };`);
  await s.wheelAt(body.x, body.y, 300);
  await s.until("the body to scroll", async () => (await top()) > 0);
  assert.ok(!probeFrames(app).some((f) => f.type === "panel_mouse" || f.type === "panel_resize"), "the probe got no new frame");
  await shot(s, "panel-wheel-scroll.png");
});
