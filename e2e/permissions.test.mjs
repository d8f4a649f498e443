// Permissions in the real app: the install summary lists what an extension
// may do in plain words (screenshot), its card shows the grant; an update
// that asks for more is not started, the card offers "Review permissions…",
// and accepting it in the dialog starts it and remembers the new list.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, shot, PROBE } from "./lib/app.mjs";

let app;
let s;
before(async () => {
  app = await startApp({});
  s = app.s;
});
after(async () => app?.stop());

const state = (name) =>
  s.exec(`const c = document.querySelector('[data-test=ext-card][data-name="${name}"]');
  return c ? c.querySelector('[data-test=ext-state]').textContent : null;`);

async function clickIn(name, test) {
  const sel = `[data-test=ext-card][data-name="${name}"] [data-test=${test}]`;
  await s.until(`${test} on ${name} to be clickable`, () =>
    s.exec(
      `const b = document.querySelector('${sel}'); return !!b && !b.disabled;`,
    ),
  );
  await s.click(await s.find(sel));
}

test("the install summary lists permissions; an update asking for more waits for the user", async () => {
  // The probe, restricted to what its /note and panel need.
  const src = path.join(app.tmp, "perm-src", "probe");
  fs.cpSync(PROBE, src, { recursive: true });
  const manifest = JSON.parse(
    fs.readFileSync(path.join(src, "extension.json"), "utf8"),
  );
  manifest.permissions = ["commands", "notes", "panels", "events"];
  fs.writeFileSync(
    path.join(src, "extension.json"),
    JSON.stringify(manifest, null, 2),
  );

  await s.click(await s.find("[data-test=nav-manager]"));
  await s.type(await s.find("[data-test=install-source]"), src);
  await s.click(await s.find("[data-test=install]"));
  await s.until("the install summary", async () =>
    (await s.texts("[data-test=install-summary]")).join("").includes("probe"),
  );
  const lines = await s.texts("[data-test=permission-line]");
  assert.ok(lines.includes("can add slash commands"), lines.join(" | "));
  assert.ok(lines.includes("can show notes in the chat"), lines.join(" | "));
  assert.ok(
    lines.some((l) =>
      l.startsWith("can read every tool call and its arguments"),
    ),
    lines.join(" | "),
  );
  assert.ok(!lines.some((l) => l.includes("submit")), lines.join(" | "));
  // Its trial start (before it was disabled) found its commands.
  const summary = (await s.texts("[data-test=install-summary]")).join("");
  assert.ok(summary.includes("/note"), summary);
  await shot(s, "install-permissions.png");

  await s.click(await s.find("[data-test=enable-installed]"));
  await s.until(
    "a ready card",
    async () => (await state("probe")) === "ready",
    30000,
  );
  const perms = (
    await s.texts(
      `[data-test=ext-card][data-name="probe"] [data-test=ext-permissions]`,
    )
  ).join("");
  assert.ok(perms.includes("commands, events, panels, notes"), perms);
  const book = JSON.parse(
    fs.readFileSync(path.join(app.home, "permissions.json"), "utf8"),
  );
  assert.deepEqual([...Object.values(book.accepted)[0].permissions].sort(), [
    "commands",
    "events",
    "notes",
    "panels",
  ]);

  // An update (here: its installed manifest) now asks to submit prompts too.
  const installed = path.join(
    app.home,
    "extensions",
    "probe",
    "extension.json",
  );
  const m2 = JSON.parse(fs.readFileSync(installed, "utf8"));
  m2.permissions = [...m2.permissions, "submit"];
  fs.writeFileSync(installed, JSON.stringify(m2, null, 2));
  await s.click(await s.find("[data-test=reload]"));
  await s.until(
    "a failed card",
    async () => (await state("probe")) === "failed",
    30000,
  );
  await clickIn("probe", "review-permissions");
  const dialog = (await s.texts("[data-test=permission-review]")).join("");
  assert.ok(
    dialog.includes("can submit prompts to the agent at any time"),
    dialog,
  );
  await shot(s, "permission-review.png");
  await clickIn("probe", "accept-permissions");
  await s.until(
    "a ready card again",
    async () => (await state("probe")) === "ready",
    30000,
  );
  const after = JSON.parse(
    fs.readFileSync(path.join(app.home, "permissions.json"), "utf8"),
  );
  assert.ok(Object.values(after.accepted)[0].permissions.includes("submit"));
});
