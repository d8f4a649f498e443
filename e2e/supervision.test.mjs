// Supervision in the real app: an extension that crashes while its panel is
// open gets one row in the chat that says what happened in words and
// follows its automatic restart ("Running again since …"); its "Reopen
// panel" runs the command that had opened the panel; the manager's
// "Running" view lists what each extension costs with a Restart on every row.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, shot, PROBE, TODO } from "./lib/app.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [PROBE, TODO] });
  s = app.s;
});
after(async () => app?.stop());

const panelOpen = () => s.exec(`return !!document.querySelector('[data-test=panel]')`);
const row = (name) =>
  s.exec(`const r = document.querySelector('[data-test=running-row][data-name="${name}"]');
    return r ? [...r.children].map((c) => c.textContent.trim()) : null;`);

test("a crash while a panel is open: restarted, and the panel opens again", async () => {
  // probe answers once it is ready; on a loaded machine that can take a
  // while after the window is up, and a command sent before is unknown.
  let ready = false;
  for (let i = 0; i < 20 && !ready; i++) {
    await send(s, `/note warm${i}`);
    ready = await s
      .until("a note", async () => (await s.texts("[data-test=note]")).join("").includes(`probe note warm${i}`), 1500)
      .then(() => true)
      .catch(() => false);
  }
  assert.ok(ready, "probe never answered /note");
  await send(s, "/probe");
  await s.until("the probe panel", panelOpen);
  await send(s, "/crash");
  await s.until("the panel to close", async () => !(await panelOpen()), 15000);
  // One row in the chat says it crashed, in words, and that it comes back.
  const crash = () =>
    s.exec(`const r = document.querySelector('[data-test=ext-error]');
      return r ? { recovery: r.dataset.recovery, text: r.textContent } : null;`);
  await s.until("the crash row to say it restarts", async () => {
    const r = await crash();
    return r?.recovery === "restarting" && /Restarting in 0\.5 s \(attempt 1 of 3\)/.test(r.text);
  });
  assert.match((await crash()).text, /probe\s*exited with status \d+\.\s*Its panel was closed\./);
  assert.equal(
    await s.exec(`return document.querySelectorAll('[data-test=ext-error]').length`),
    1,
    "one row per crash",
  );
  // Back after the 0.5 s backoff: the row says so and offers the panel again.
  await s.until("the row to say it is back", async () => (await crash())?.recovery === "back", 15000);
  assert.match((await crash()).text, /Running again since \d\d:\d\d\./);
  await shot(s, "crash-row.png");
  const v = await axeViolations(s);
  assert.deepEqual(v, [], describeViolations(v));
  await s.click(await s.find("[data-test=crash-reopen]"));
  await s.until("the probe panel again", panelOpen);
  await s.keys("\uE00C");
  await s.until("the panel to close", async () => !(await panelOpen()));
});

test("the Running view: cost per extension, sorted, with Restart", async () => {
  for (const i of [1, 2, 3]) {
    await send(s, `/todo item ${i}`);
    await s.until(`todo item ${i}`, async () =>
      (await s.exec(`return document.body.textContent`)).includes(`added #${i}: item ${i}`),
    );
  }
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.click(await s.find("[data-test=tab-running]"));
  await s.until("both rows", async () => (await row("probe")) !== null && (await row("todo")) !== null);
  // Memory is read from /proc for each running extension's process tree.
  await s.until("memory for probe", async () => /[KM]iB/.test((await row("probe"))?.[5] ?? ""));
  await s.until("todo's three commands", async () => (await row("todo"))?.[3] === "3");
  const probe = await row("probe");
  assert.equal(probe[1], "ready");
  assert.equal(probe[7], "1", `one automatic restart in the window: ${probe}`);
  await shot(s, "manager-running.png");

  // Sorting by memory changes nothing but the order; both rows stay.
  await s.exec(`const sel = document.querySelector('[data-test=running-order]');
    sel.value = 'memory'; sel.dispatchEvent(new Event('change'));`);
  const names = await s.exec(
    `return [...document.querySelectorAll('[data-test=running-row]')].map((r) => r.dataset.name)`,
  );
  assert.deepEqual([...names].sort(), ["probe", "todo"]);

  // Restart from the row: a fresh budget, so the restart count goes to 0.
  await s.click(await s.find(`[data-test=running-row][data-name="todo"] button`));
  await s.until("todo ready again", async () => (await row("todo"))?.[1] === "ready", 30000);
});
