// The transcript keeps every row while the chat is hidden behind another
// view (#40): a conversation, then the manager installs, enables,
// disables, enables and removes an extension, the sessions sidebar opens
// and closes, or the settings show; back in the chat, the whole
// conversation is still there, with its scrollbar, where the user left it,
// and its first message can be reached. The chat is display: none
// meanwhile, and its rows then read 0 px: taken for their heights, a
// conversation whose rows had all been measured (any ordinary one, unlike
// a resumed long session whose unseen rows count at an estimate) collapsed
// to its last row with no scrollbar. The sessions sidebar opened and closed
// within the chat never hid it; its Sessions button pressed in another view
// shows the chat and the sidebar at once, which is how closing the sidebar
// came to show a collapsed list.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, PROBE } from "./lib/app.mjs";
import { cardState, clickInCard } from "./lib/cards.mjs";

const PROMPTS = 10;

let app;
let s;
before(async () => {
  app = await startApp({});
  s = app.s;
  for (let i = 0; i < PROMPTS; i++) {
    await send(s, `question ${i}`);
    // The newest rows are at the bottom, where the list follows; counting
    // every answer in the DOM would depend on how many rows the virtual
    // list keeps there.
    await s.until(`answer ${i}`, () =>
      s.exec(
        `const rows = [...document.querySelectorAll('[data-test=transcript] .row')];
         const users = rows.filter((r) => r.classList.contains('row-user'));
         return rows.at(-1)?.classList.contains('row-assistant') && users.at(-1)?.querySelector('.bubble')?.textContent === arguments[0];`,
        [`question ${i}`],
      ),
    );
    await s.until("the turn to end", async () => !(await s.exec(`return !!document.querySelector('[data-test=busy]')`)));
  }
});
after(async () => app?.stop());

const frames = (n = 3) =>
  s.exec(`return new Promise(r => { let i = ${n}; const f = () => (--i ? requestAnimationFrame(f) : r(true)); requestAnimationFrame(f); });`);

/** What the transcript shows: its rows in the DOM, its height against its viewport, and how far from the bottom it is. */
const transcript = () =>
  s.exec(`const sc = document.querySelector('[data-test=transcript]');
    return { rows: sc.querySelectorAll('.row').length, height: sc.scrollHeight, viewport: sc.clientHeight,
             fromBottom: sc.scrollHeight - sc.scrollTop - sc.clientHeight };`);

/** The whole conversation is there: every row, a list taller than the view, at the bottom. */
async function assertWhole(when) {
  await frames();
  const t = await transcript();
  assert.ok(t.rows > 5, `${when}: ${t.rows} rows in the DOM`);
  assert.ok(t.height > 1.5 * t.viewport, `${when}: the list is ${t.height} px for a ${t.viewport} px view`);
  assert.ok(t.fromBottom < 2, `${when}: ${t.fromBottom} px from the bottom`);
}

/** Scrolls to the top, as Home would, and waits for the first message. */
async function reachTop() {
  await s.until("the first message", async () => {
    await s.exec(`document.querySelector('[data-test=transcript]').scrollTop = 0;`);
    return (await s.texts(".transcript .row")).at(0)?.includes("question 0");
  });
  await s.exec(`const sc = document.querySelector('[data-test=transcript]'); sc.scrollTop = sc.scrollHeight;`);
  await s.until("the bottom again", async () => (await transcript()).fromBottom < 2);
}

const card = (name) => cardState(s, name);
const clickIn = (name, what) => clickInCard(s, name, what);

test("opening and closing the sessions sidebar keeps every row, from the chat or from another view", async () => {
  const sidebar = () => s.exec(`return !!document.querySelector('[data-test=sessions]')`);
  await assertWhole("before");
  await s.click(await s.find("[data-test=nav-sessions]"));
  await s.until("the sidebar", sidebar);
  await assertWhole("with the sidebar open");
  await s.click(await s.find("[data-test=nav-sessions]"));
  await s.until("the sidebar to close", async () => !(await sidebar()));
  await assertWhole("with the sidebar closed");
  // The Sessions button in the settings shows the chat and the sidebar at once.
  await s.click(await s.find("[data-test=nav-settings]"));
  await s.until("the settings", () => s.exec(`return !!document.querySelector('[data-test=theme-light]')`));
  await s.click(await s.find("[data-test=nav-sessions]"));
  await s.until("the sidebar", sidebar);
  await s.click(await s.find("[data-test=nav-sessions]"));
  await s.until("the sidebar to close", async () => !(await sidebar()));
  await assertWhole("after the settings, with the sidebar closed");
  await reachTop();
});

test("after the manager enables, disables and removes an extension, the chat still has every row", async () => {
  await assertWhole("before");
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.type(await s.find("[data-test=install-source]"), PROBE);
  await s.click(await s.find("[data-test=install]"));
  await s.until("a disabled card", async () => (await card("probe")) === "disabled", 30000);
  await s.click(await s.find("[data-test=enable-installed]"));
  await s.until("a ready card", async () => (await card("probe")) === "ready", 30000);
  await clickIn("probe", "disable");
  await s.until("a disabled card", async () => (await card("probe")) === "disabled");
  await clickIn("probe", "enable");
  await s.until("a ready card", async () => (await card("probe")) === "ready", 30000);
  await clickIn("probe", "remove");
  await clickIn("probe", "confirm-remove");
  await s.until("the card to go", async () => (await card("probe")) === null);
  await s.click(await s.find("[data-test=nav-chat]"));
  await assertWhole("back in the chat");
  await reachTop();
});

test("a view left scrolled up comes back at the same place", async () => {
  await s.exec(`const sc = document.querySelector('[data-test=transcript]'); sc.scrollTop = sc.scrollHeight / 2;`);
  await frames();
  const row = () =>
    s.exec(`const top = document.querySelector('[data-test=transcript]').getBoundingClientRect().top;
      const r = [...document.querySelectorAll('.transcript .row')].find(r => r.getBoundingClientRect().top >= top);
      return r ? r.textContent.slice(0, 40) : null;`);
  const before = await s.until("a settled row at the top", async () => {
    const a = await row();
    await frames();
    return a !== null && a === (await row()) ? a : null;
  });
  await s.click(await s.find("[data-test=nav-settings]"));
  await s.until("the settings", () => s.exec(`return !!document.querySelector('[data-test=theme-light]')`));
  await s.click(await s.find("[data-test=nav-chat]"));
  await frames();
  assert.equal(await row(), before);
  const t = await transcript();
  assert.ok(t.height > 1.5 * t.viewport, `the list is ${t.height} px for a ${t.viewport} px view`);
});
