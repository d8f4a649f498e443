// Supervision in the real app: an extension that crashes while its panel is
// open comes back on its own, keys typed meanwhile get a status instead of
// an error storm, the panel opens again, and the manager's "Running" view
// lists what each extension costs with a Restart on every row.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, shot, PROBE, TODO } from "./lib/app.mjs";

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
  await send(s, "/note warm");
  await s.until("a note", async () =>
    (await s.texts("[data-test=note]")).join("").includes("probe note warm"),
  );
  await send(s, "/probe");
  await s.until("the probe panel", panelOpen);
  await send(s, "/crash");
  await s.until("the panel to close", async () => !(await panelOpen()), 15000);
  // The chat says it crashed and will come back.
  await s.until("the restart notice", async () =>
    (await s.texts(".transcript"))
      .join("\n")
      .match(/probe crashed.*restarting in 0\.5 s \(attempt 1 of 3\)/s),
  );
  // Back after the 0.5 s backoff: its command works again. Until then the
  // command is unknown (its registrations left with the crashed run).
  let back = false;
  for (let i = 0; i < 20 && !back; i++) {
    await new Promise((r) => setTimeout(r, 750));
    await send(s, `/note back${i}`);
    back = await s
      .until(
        "the note",
        async () => (await s.texts("[data-test=note]")).join("").includes(`probe note back${i}`),
        1500,
      )
      .then(() => true)
      .catch(() => false);
  }
  assert.ok(back, "probe answered /note after its restart");
  await send(s, "/probe");
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
