// The transcript as a virtual list, in the real app: a resumed 10 000-message
// session keeps only the rows near the viewport in the DOM, reaches its first
// message, holds still when a row above the viewport changes height, follows
// new output only when the user is at the bottom, and /clear starts over.
// No timings here (those are `make bench-ui`'s); this checks behaviour.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, scratchDir } from "./lib/app.mjs";
import { sessionFile } from "./lib/session.mjs";

const MESSAGES = 10000;
/** Far fewer than the session: the viewport plus overscan. */
const MAX_ROWS = 60;

let app;
let s;
let dir;
before(async () => {
  dir = scratchDir("zot-e2e-session-");
  app = await startApp({ extraArgs: ["--session", sessionFile(dir, MESSAGES)] });
  s = app.s;
  await s.until("the session", () => s.exec(`return document.querySelectorAll('.row').length > 0`), 30000);
});
after(async () => {
  await app?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const frames = (n = 2) =>
  s.exec(`return new Promise(r => { let i = ${n}; const f = () => (--i ? requestAnimationFrame(f) : r(true)); requestAnimationFrame(f); });`);
const rowCount = () => s.exec(`return document.querySelectorAll('.transcript .row').length`);
const distanceFromBottom = () =>
  s.exec(`const sc = document.querySelector('[data-test=transcript]'); return sc.scrollHeight - sc.scrollTop - sc.clientHeight;`);
/** The first row whose top is inside the viewport: its text and its top. */
const topRow = () =>
  s.exec(`
    const sc = document.querySelector('[data-test=transcript]').getBoundingClientRect();
    const row = [...document.querySelectorAll('.transcript .row')].find(r => r.getBoundingClientRect().top >= sc.top);
    return row ? { text: row.textContent, top: row.getBoundingClientRect().top } : null;`);

test("a 10 000-message session opens at its end with only the rows near the viewport in the DOM", async () => {
  await s.until("the last answer", async () => (await s.texts(".row-assistant")).join("").includes(`Answer ${MESSAGES - 1}:`));
  assert.ok((await distanceFromBottom()) < 2, "the view is at the bottom");
  const rows = await rowCount();
  assert.ok(rows > 3 && rows < MAX_ROWS, `${rows} rows in the DOM`);
});

test("scrolling to the top reaches the first message with the DOM still small", async () => {
  await s.exec(`document.querySelector('[data-test=transcript]').scrollTop = 0;`);
  await s.until("the first message", async () => {
    await s.exec(`document.querySelector('[data-test=transcript]').scrollTop = 0;`);
    return (await s.texts(".row")).at(0)?.includes("question 0:");
  });
  const rows = await rowCount();
  assert.ok(rows < MAX_ROWS, `${rows} rows in the DOM`);
});

test("a row above the viewport that changes height does not move what is on screen", async () => {
  await s.exec(`const sc = document.querySelector('[data-test=transcript]'); sc.scrollTop = (sc.scrollHeight - sc.clientHeight) / 2;`);
  // A jump mounts only the viewport's rows; the overscan above it comes
  // back once scrolling has settled (150 ms and two quiet frames).
  await s.until("rows mounted above the viewport after the jump", () =>
    s.exec(`
      const sc = document.querySelector('[data-test=transcript]').getBoundingClientRect();
      return [...document.querySelectorAll('.transcript .slot')].some(e => e.getBoundingClientRect().bottom < sc.top - 20);`),
  );
  await frames(3);
  const shotDir = scratchDir("zot-e2e-shots-");
  fs.writeFileSync(path.join(shotDir, "long-session-middle.png"), await s.screenshot());
  const before = await topRow();
  // Grow a mounted slot that lies wholly above the viewport (in the overscan).
  const grown = await s.exec(`
    const sc = document.querySelector('[data-test=transcript]').getBoundingClientRect();
    const slot = [...document.querySelectorAll('.transcript .slot')].find(e => e.getBoundingClientRect().bottom < sc.top - 20);
    if (!slot) return false;
    slot.style.height = (slot.getBoundingClientRect().height + 300) + 'px';
    return true;`);
  assert.ok(grown, "a mounted row above the viewport");
  await frames(3);
  const after = await topRow();
  assert.equal(after.text, before.text);
  assert.ok(Math.abs(after.top - before.top) < 1, `moved from ${before.top} to ${after.top}`);
});

test("new output follows the bottom only while the user is there", async () => {
  await s.exec(`const sc = document.querySelector('[data-test=transcript]'); sc.scrollTop = sc.scrollHeight;`);
  await frames(3);
  await send(s, "hello at the end");
  await s.until("the answer", async () => (await s.texts(".row-assistant")).join("").includes("streamed world"));
  await s.until("the turn to end", async () => !(await s.exec(`return !!document.querySelector('[data-test=busy]')`)));
  await frames(3);
  assert.ok((await distanceFromBottom()) < 2, "followed the answer");

  await s.exec(`document.querySelector('[data-test=transcript]').scrollTop -= 3000;`);
  await frames(3);
  const before = await topRow();
  const asked = app.llm.requests.length;
  await send(s, "hello again");
  // The new rows are below the viewport (not mounted): watch the model instead.
  await s.until("the model to be asked", async () => app.llm.requests.length > asked);
  await s.until("the turn to end", async () => !(await s.exec(`return !!document.querySelector('[data-test=busy]')`)));
  await frames(3);
  const after = await topRow();
  assert.equal(after.text, before.text);
  assert.ok(Math.abs(after.top - before.top) < 1, `moved from ${before.top} to ${after.top}`);
});

test("/clear empties a long session and the list starts over", async () => {
  await send(s, "/clear");
  await s.until("an empty chat", async () => (await rowCount()) === 0);
  await send(s, "a fresh start");
  await s.until("the answer", async () => (await s.texts(".row-assistant")).join("").includes("streamed world"));
  const users = await s.texts(".row-user .bubble");
  assert.deepEqual(users, ["a fresh start"]);
  const top = await s.exec(`return document.querySelector('[data-test=transcript]').scrollTop`);
  assert.ok(top < 400, `scrollTop ${top}`);
});
