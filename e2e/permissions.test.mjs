// Permissions in the real app: the install summary lists what an extension
// may do in plain words (screenshot), its card shows the grant; a change
// that reaches further (more permissions, and its sandbox deleted from its
// own manifest) is not started, the card offers "Review changes…" listing
// each change in words, and accepting it starts it and remembers it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, shot, PROBE } from "./lib/app.mjs";
import { cardState, clickInCard, openDetail } from "./lib/cards.mjs";

let app;
let s;
before(async () => {
  app = await startApp({});
  s = app.s;
});
after(async () => app?.stop());

const state = (name) => cardState(s, name);
const clickIn = (name, test) => clickInCard(s, name, test);

test("the install summary lists permissions; an update asking for more waits for the user", async () => {
  // The probe, restricted to what its /note and panel need.
  const src = path.join(app.tmp, "perm-src", "probe");
  fs.cpSync(PROBE, src, { recursive: true });
  const manifest = JSON.parse(
    fs.readFileSync(path.join(src, "extension.json"), "utf8"),
  );
  manifest.permissions = ["commands", "notes", "panels", "events"];
  // It runs sandboxed (a bare python3, found on PATH inside).
  manifest.exec = "python3";
  manifest.args = ["./probe.py"];
  manifest.sandbox = {};
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
  // Its commands, from its manifest's contributes: nothing of it ran.
  const summary = (await s.texts("[data-test=install-summary]")).join("");
  assert.ok(summary.includes("/note"), summary);
  assert.ok(summary.includes("zot has not run it"), summary);
  await shot(s, "install-permissions.png");

  await s.click(await s.find("[data-test=enable-installed]"));
  await s.until(
    "a ready card",
    async () => (await state("probe")) === "ready",
    30000,
  );
  await openDetail(s, "probe");
  const perms = (
    await s.texts(
      `[data-test=ext-detail][data-name="probe"] [data-test=ext-permissions]`,
    )
  ).join("");
  // The card says what the install summary said, in the same words.
  assert.deepEqual(
    await s.texts(`[data-test=ext-detail][data-name="probe"] [data-test=ext-permission-line]`),
    lines,
  );
  assert.ok(perms.includes("can add slash commands"), perms);
  const book = JSON.parse(
    fs.readFileSync(path.join(app.home, "permissions.json"), "utf8"),
  );
  assert.deepEqual([...Object.values(book.accepted)[0].permissions].sort(), [
    "commands",
    "events",
    "notes",
    "panels",
  ]);

  // Its installed manifest (which a sandboxed extension can rewrite from
  // inside its own folder) now asks to submit prompts too, and has no
  // sandbox any more.
  const installed = path.join(
    app.home,
    "extensions",
    "probe",
    "extension.json",
  );
  const m2 = JSON.parse(fs.readFileSync(installed, "utf8"));
  m2.permissions = [...m2.permissions, "submit"];
  delete m2.sandbox;
  fs.writeFileSync(installed, JSON.stringify(m2, null, 2));
  await s.click(await s.find("[data-test=reload]"));
  await s.until(
    "a failed card",
    async () => (await state("probe")) === "failed",
    30000,
  );
  // What changed shows in its detail pane, with Accept.
  await openDetail(s, "probe");
  const dialog = (await s.texts("[data-test=permission-review]")).join("");
  assert.ok(
    dialog.includes("can submit prompts to the agent at any time"),
    dialog,
  );
  const changes = await s.texts("[data-test=review-change]");
  assert.ok(
    changes[0].startsWith("runs without its OS sandbox"),
    changes.join(" | "),
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
  const entry = Object.values(after.accepted)[0];
  assert.ok(entry.permissions.includes("submit"));
  assert.equal(entry.reach.sandbox, undefined, JSON.stringify(entry));
});
