// The window fits any size (#40 item 11), in the real window at 800×600
// and 1400×900: the header stays one line (at 800 px Sessions, Commands
// and the usage move into "More"), nothing is wider than the window, the
// editor and the bottom panel line up with the transcript's column, and the
// bottom dock is resized from its top edge and collapsed to its title bar
// without closing. Both sizes pass axe, with screenshots.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, shot, TODO } from "./lib/app.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [TODO] });
  s = app.s;
  await send(s, "hello there, a prompt long enough to show where the column of the transcript ends");
  await s.until("the answer", async () => (await s.texts(".row-assistant")).join("").includes("streamed world"));
  await send(s, "/todo");
  await s.until("the todo panel", () => s.exec(`return !!document.querySelector('[data-test=panel]')`));
});
after(async () => app?.stop());

async function size(width, height) {
  await s.cmd("POST", "/window/rect", { width, height });
  await s.until(`a ${width} px wide page`, () => s.exec(`return Math.abs(window.innerWidth - arguments[0]) < 40`, [width]));
}

/** The header's boxes: all on one line, none past the window's edge. */
const header = () =>
  s.exec(`const h = document.querySelector('[data-test=header]').getBoundingClientRect();
    const kids = [...document.querySelectorAll('[data-test=header] > *, [data-test=header] nav > *')]
      .map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0);
    return { height: h.height, mids: kids.map((r) => (r.top + r.bottom) / 2),
      right: Math.max(...kids.map((r) => r.right)), width: window.innerWidth };`);

/** Elements wider than the window or past its right edge. */
const overflow = () =>
  s.exec(`const w = window.innerWidth;
    return [...document.querySelectorAll('body *')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && (r.right > w + 1 || r.left < -1) && !el.closest('.sr-only, [aria-hidden=true]');
    }).map((el) => el.dataset.test || el.className || el.tagName).slice(0, 10);`);

/** The left and right edges of the transcript's text, the bottom panel and the editor's row. */
const edges = () =>
  s.exec(`const box = (q) => { const r = document.querySelector(q).getBoundingClientRect(); return [Math.round(r.left), Math.round(r.right)]; };
    const row = document.querySelector('.editor').getBoundingClientRect();
    return { column: box('.transcript-inner'), panel: box('[data-test=panel]'), editor: [Math.round(row.left), Math.round(row.right)] };`);

function assertAligned(e, at) {
  for (const part of ["panel", "editor"])
    for (const i of [0, 1])
      assert.ok(Math.abs(e[part][i] - e.column[i]) <= 2, `${at}: the ${part} ${JSON.stringify(e[part])} lines up with the column ${JSON.stringify(e.column)}`);
}

for (const [width, height] of [
  [800, 600],
  [1400, 900],
]) {
  test(`at ${width}×${height}: one header line, nothing wider than the window, one column`, async () => {
    await size(width, height);
    const h = await header();
    const spread = Math.max(...h.mids) - Math.min(...h.mids);
    assert.ok(spread <= 3, `the header's parts sit on one line (their middles ${h.mids.map(Math.round)})`);
    assert.ok(h.height < 50, `the header is one line tall (${h.height} px)`);
    assert.ok(h.right <= h.width + 1, `the header ends inside the window (${h.right} > ${h.width})`);
    assert.deepEqual(await overflow(), [], "no element is wider than the window");
    assertAligned(await edges(), `${width}×${height}`);
    const compact = await s.exec(`return !!document.querySelector('[data-test=nav-more]')`);
    assert.equal(compact, width < 900, "the More menu is there only in a narrow window");
    await shot(s, `layout-${width}.png`);
    const v = await axeViolations(s);
    assert.equal(v.length, 0, describeViolations(v));
  });
}

test("at 800 px, More holds the usage, Sessions and Commands, by mouse and keyboard", async () => {
  await size(800, 600);
  await s.click(await s.find("[data-test=nav-more]"));
  await s.until("the menu", () => s.exec(`return !!document.querySelector('[role=menu]')`));
  assert.match(await s.exec(`return document.querySelector('[data-test=nav-more-note]').textContent`), /in · \d+ out/);
  assert.equal(await s.exec(`return document.activeElement.dataset.test`), "more-sessions", "the first item has focus");
  const v = await axeViolations(s);
  assert.equal(v.length, 0, describeViolations(v));
  await s.keys("\uE015"); // ArrowDown
  assert.equal(await s.exec(`return document.activeElement.dataset.test`), "more-commands");
  await s.keys("\uE007"); // Enter
  await s.until("the palette", () => s.exec(`return !!document.querySelector('[data-test=palette]')`));
  await s.keys("\uE00C"); // Escape closes the palette, focus back on More
  await s.until("focus back on More", async () => (await s.exec(`return document.activeElement?.dataset.test`)) === "nav-more");
  await s.keys("\uE015"); // ArrowDown opens the menu again
  await s.until("the menu", () => s.exec(`return !!document.querySelector('[role=menu]')`));
  await s.keys("\uE007");
  await s.until("the sessions sidebar", () => s.exec(`return !!document.querySelector('.sessions')`));
  await s.click(await s.find("[data-test=nav-more]"));
  await s.click(await s.find("[data-test=more-sessions]"));
  await s.until("the sidebar closed", async () => !(await s.exec(`return !!document.querySelector('.sessions')`)));
});

test("the bottom dock grows from its top edge, and collapses to its title bar without closing", async () => {
  await size(1400, 900);
  const body = () => s.exec(`return Math.round(document.querySelector('[data-test=panel-body]').getBoundingClientRect().height)`);
  const before = await body();
  const grip = await s.find("[data-test=dock-grip-y]");
  await s.click(grip);
  for (let i = 0; i < 5; i++) await s.keys("\uE013"); // ArrowUp: 20 px each
  await s.until("a taller dock", async () => (await body()) >= before + 90);
  const r = await s.exec(`const r = document.querySelector('[data-test=dock-grip-y]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]`);
  const keyed = await body();
  await s.pointerDrag(r[0], r[1], r[0], r[1] - 60);
  await s.until("a dock dragged taller", async () => (await body()) >= keyed + 50);
  await s.click(await s.find("[data-test=panel-collapse]"));
  await s.until("the body hidden", async () => (await body()) === 0);
  assert.equal(await s.exec(`return document.querySelectorAll('[data-test=panel]').length`), 1, "the panel is still open");
  assert.equal(await s.exec(`return document.querySelector('[data-test=panel-collapse]').getAttribute('aria-expanded')`), "false");
  await shot(s, "layout-collapsed.png");
  await s.click(await s.find("[data-test=panel-title]"));
  await s.until("the body back, with the keyboard", async () =>
    (await body()) > 0 && (await s.exec(`return document.querySelector('[data-test=panel]').classList.contains('focused')`)),
  );
});
