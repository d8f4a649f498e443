// The sessions sidebar in the real window: the project's sessions newest
// first with titles and counts, search by text, resume an older one,
// rename, delete to the trash after a confirmation; a damaged session has a
// warning badge, and one from a newer zot opens as a copy.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, scratchDir } from "./lib/app.mjs";

let app;
let s;
let dir;
// The OS trash of this run (freedesktop: $XDG_DATA_HOME/Trash).
const data = scratchDir("zot-e2e-data-");
before(async () => {
  app = await startApp({ extraArgs: ["--continue"], env: { XDG_DATA_HOME: data } });
  s = app.s;
});
after(async () => app?.stop());

const rows = () =>
  s.exec(`return [...document.querySelectorAll('[data-test=session-row]')].map((r) => ({
    title: r.querySelector('.session-title')?.textContent ?? r.querySelector('input')?.value,
    current: r.dataset.current === 'true',
    problem: !!r.querySelector('[data-test=session-problem]'),
  }))`);
const line = (v) => JSON.stringify(v) + "\n";
const msg = (role, text) => line({ type: "message", message: { role, content: [{ type: "text", text }] } });

function writeSession(name, version, body, ageS) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, line({ type: "session", version, cwd: "/x" }) + body);
  const t = new Date(Date.now() - ageS * 1000);
  fs.utimesSync(p, t, t);
  return p;
}

test("list, search, resume, rename, delete", async () => {
  await send(s, "hello there");
  await s.until("the answer", async () =>
    (await s.texts(".row-assistant")).join("").includes("streamed world"),
  );
  const root = path.join(app.home, "sessions");
  dir = path.join(root, fs.readdirSync(root)[0]);
  writeSession(
    "00000000000000000001-1.jsonl",
    1,
    msg("user", "rename the parser module") + msg("assistant", "renamed the parser"),
    3600,
  );
  writeSession("00000000000000000002-1.jsonl", 1, msg("user", "a damaged one") + "{not json\n", 7200);
  const newer = writeSession("00000000000000000003-1.jsonl", 2, msg("user", "from the future"), 10800);

  await s.click(await s.find("[data-test=nav-sessions]"));
  await s.until("four sessions", async () => (await rows()).length === 4);
  const listed = await rows();
  assert.deepEqual(
    listed.map((r) => r.title),
    ["hello there", "rename the parser module", "a damaged one", "from the future"],
  );
  assert.equal(listed[0].current, true);
  assert.deepEqual(
    listed.map((r) => r.problem),
    [false, false, true, true],
  );
  await shot(s, "sessions-sidebar.png");

  // Search reads message text, not only titles.
  await s.type(await s.find("[data-test=sessions-search]"), "renamed the parser");
  await s.until("one match", async () => (await rows()).length === 1);
  await s.exec(
    `const i = document.querySelector('[data-test=sessions-search]'); i.value = ''; i.dispatchEvent(new Event('input', { bubbles: true }))`,
  );
  await s.until("all four again", async () => (await rows()).length === 4);

  // Resume the older one: its conversation replaces the chat.
  await s.click((await s.findAll("[data-test=session-open]"))[1]);
  await s.until("the older conversation", async () =>
    (await s.texts(".transcript")).join("").includes("renamed the parser"),
  );
  await s.until("it is current", async () => (await rows())[1]?.current === true);

  // Rename it by keyboard.
  await s.click((await s.findAll("[data-test=session-rename]"))[1]);
  const input = await s.find("[data-test=session-title-input]");
  await s.exec(`arguments[0].select()`, [{ [s.elKey]: input }]);
  await s.type(input, "Parser work\uE007");
  await s.until("the new title", async () => (await rows()).some((r) => r.title === "Parser work"));

  // A session from a newer zot offers a copy; the original stays as it was.
  const before = fs.readFileSync(newer);
  await s.click((await s.findAll("[data-test=session-open]"))[3]);
  await s.until("the offer", () => s.exec(`return !!document.querySelector('[data-test=session-offer]')`));
  await s.click(await s.find("[data-test=session-open-copy]"));
  await s.until("the copy's conversation", async () =>
    (await s.texts(".transcript")).join("").includes("from the future"),
  );
  assert.deepEqual(fs.readFileSync(newer), before);

  // Delete a session that is not the current one, after confirming: it goes to the trash.
  const count = (await rows()).length;
  const first = (await rows()).findIndex((r) => !r.current);
  await s.exec(
    `[...document.querySelectorAll('[data-test=session-row]')][${first}].querySelector('[data-test=session-delete]').click()`,
  );
  await s.click(await s.find("[data-test=session-confirm-delete]"));
  await s.until("one fewer", async () => (await rows()).length === count - 1);
  assert.equal(fs.readdirSync(path.join(data, "Trash", "files")).length, 1);
});
