// Project trust in the real app: a folder with its own extension opens with
// the banner naming what would run; "Trust and run" (by keyboard) starts it,
// its command works, and Settings lists the folder with Revoke.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, PROBE } from "./lib/app.mjs";

let app;
let s;
before(async () => {
  app = await startApp({ projectExts: [PROBE] });
  s = app.s;
});
after(async () => app?.stop());

const banner = () => s.exec(`return document.querySelector('[data-test=trust-banner]')?.textContent ?? null`);

test("banner, trust by keyboard, then the project's command works; Settings revokes", async () => {
  await s.until("the trust banner", async () => ((await banner()) ?? "").includes("probe"));
  const text = await banner();
  assert.ok(text.includes("probe.py"), text);
  assert.ok(text.includes("E2E fixture"), text);
  // Nothing of it ran: it registered no command.
  await send(s, "/note");
  await s.until("an unknown-command error", async () =>
    (await s.texts(".transcript")).join("").includes("no extension command '/note'"),
  );
  await shot(s, "trust-banner.png");

  await s.exec(`document.querySelector('[data-test=trust-run]').focus()`);
  await s.keys("\uE007");
  await s.until("the banner to go", async () => (await banner()) === null, 30000);
  await send(s, "/note");
  await s.until("the project's note", async () => (await s.texts("[data-test=note]")).join("").includes("probe note"));
  const trust = JSON.parse(fs.readFileSync(path.join(app.home, "trust.json"), "utf8"));
  assert.deepEqual(trust.trusted, [fs.realpathSync(app.project)]);

  await s.click(await s.find("[data-test=nav-settings]"));
  await s.until("the trusted folder", async () => (await s.texts("[data-test=trusted-folder]")).length === 1);
  // Settings grew (notifications) above this list: show it, not the form.
  await s.exec(`document.querySelector('[data-test=trusted-folder]').scrollIntoView({ block: 'center' })`);
  await shot(s, "trust-settings.png");
  await s.click(await s.find("[data-test=trust-revoke]"));
  await s.until("no trusted folders", () => s.exec(`return !!document.querySelector('[data-test=trusted-none]')`));
  await s.until("the banner again", async () => ((await banner()) ?? "").includes("probe"));
});
