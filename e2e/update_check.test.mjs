// The daily update check in the real window (#36): off by default (nothing
// is checked, nothing is remembered); turned on in Settings, the check runs
// (running nothing of the extensions) and its result is the manager's
// Updates count; a restart within the day shows the same count from the
// remembered check without checking again.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { startApp, shot, scratchDir, ROOT, PROBE } from "./lib/app.mjs";

const BIN = process.env.ZOT_E2E_BIN ?? path.join(ROOT, "target", "e2e", "zot");

let app;
let s;
let home;
let src;
before(async () => {
  const scratch = scratchDir("zot-e2e-daily-");
  src = path.join(scratch, "probe-src");
  fs.cpSync(PROBE, src, { recursive: true });
  setVersion("1.0.0");
  home = path.join(scratch, "home");
  fs.mkdirSync(home);
  execFileSync(BIN, ["ext", "install", src], { env: { ...process.env, ZOT_HOME: home }, stdio: "ignore" });
  setVersion("1.1.0");
  app = await startApp({ home });
  s = app.s;
});
after(async () => app?.stop());

function setVersion(version) {
  const file = path.join(src, "extension.json");
  const m = JSON.parse(fs.readFileSync(file, "utf8"));
  m.version = version;
  fs.writeFileSync(file, JSON.stringify(m, null, 2));
}

const remembered = () => path.join(home, "update-check.json");
const updatesText = () => s.exec(`return document.querySelector('[data-test=updates]')?.textContent ?? null`);

test("off by default; on, the check feeds the Updates count; a restart within the day reuses it", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the probe row", () => s.exec(`return !!document.querySelector('[data-test=ext-row][data-name="probe"]')`));
  assert.equal(await updatesText(), null, "nothing checked while the switch is off");
  assert.equal(fs.existsSync(remembered()), false);

  await s.click(await s.find("[data-test=nav-settings]"));
  const box = await s.find("[data-test=update-check]");
  assert.equal(await s.exec(`return document.querySelector('[data-test=update-check]').checked`), false);
  await s.click(box);
  await s.until("saved", async () => (await s.texts("[data-test=update-check-message]")).join("").includes("Saved"));
  await s.exec(`document.querySelector('[data-test=update-check-section]').scrollIntoView({ block: 'center' })`);
  await shot(s, "settings-update-check.png");
  assert.equal(JSON.parse(fs.readFileSync(path.join(home, "config.json"), "utf8")).update_check, true);
  await s.until("the remembered check", () => fs.existsSync(remembered()));
  const first = JSON.parse(fs.readFileSync(remembered(), "utf8"));
  assert.equal(first.updates[0].to, "1.1.0");

  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the Updates count", async () => ((await updatesText()) ?? "").includes("Updates (1)"));
  assert.ok((await updatesText()).includes("probe 1.0.0 → 1.1.0"));
  // It installed nothing.
  const installed = JSON.parse(fs.readFileSync(path.join(home, "extensions", "probe", "extension.json"), "utf8"));
  assert.equal(installed.version, "1.0.0");

  // A restart within the day: the count comes from the remembered check,
  // which is not run again (a newer version at the source is not seen).
  setVersion("1.2.0");
  await app.stop();
  app = await startApp({ home });
  s = app.s;
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the Updates count again", async () => ((await updatesText()) ?? "").includes("probe 1.0.0 → 1.1.0"));
  assert.deepEqual(JSON.parse(fs.readFileSync(remembered(), "utf8")), first);
});
