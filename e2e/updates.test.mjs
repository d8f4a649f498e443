// Updates in the real window: an extension installed from a folder shows
// where it came from; "Check for updates" finds the folder's new version
// (an Updates count, old → new and the changelog on its card); Update
// installs it and offers "Roll back", which puts the old copy back. Then a
// .zotx bundle dropped on the window (a real XDND drop from a GTK drag
// source, as in drop.test.mjs) opens the manager and installs it, the
// summary saying it is unsigned.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { startApp, shot, scratchDir, ROOT, PROBE } from "./lib/app.mjs";
import { cardState, clickInCard, detailText } from "./lib/cards.mjs";
import { drag } from "./lib/drag.mjs";

const BIN = process.env.ZOT_E2E_BIN ?? path.join(ROOT, "target", "e2e", "zot");

let app;
let s;
let scratch;
let src;
before(async () => {
  scratch = scratchDir("zot-e2e-updates-");
  // The probe fixture, installed from a folder by the CLI before the app starts.
  src = path.join(scratch, "probe-src");
  fs.cpSync(PROBE, src, { recursive: true });
  setVersion(src, "1.0.0");
  const home = path.join(scratch, "home");
  fs.mkdirSync(home);
  execFileSync(BIN, ["ext", "install", src], { env: { ...process.env, ZOT_HOME: home }, stdio: "ignore" });
  app = await startApp({ home });
  s = app.s;
});
after(async () => app?.stop());

function setVersion(dir, version) {
  const file = path.join(dir, "extension.json");
  const m = JSON.parse(fs.readFileSync(file, "utf8"));
  m.version = version;
  fs.writeFileSync(file, JSON.stringify(m, null, 2));
}

const text = async (sel) => (await s.texts(sel)).join(" ");
const inCard = (name, test) => detailText(s, name, test);
const version = (name) => detailText(s, name, "detail-version");

test("check, update and roll back from the manager", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the probe card", async () => (await cardState(s, "probe")) !== null);
  assert.equal(await inCard("probe", "ext-source"), `from the folder ${fs.realpathSync(src)}`);

  setVersion(src, "1.1.0");
  fs.writeFileSync(path.join(src, "CHANGELOG.md"), "# Changes\n## 1.1.0\n- answers faster\n## 1.0.0\n- first\n");
  await s.click(await s.find("[data-test=check-updates]"));
  await s.until("the Updates count", async () => (await text("[data-test=updates]")).includes("Updates (1)"));
  assert.ok((await text("[data-test=update-chip]")).includes("probe 1.0.0 → 1.1.0"));
  assert.equal(await inCard("probe", "ext-update-versions"), "1.0.0 → 1.1.0");
  // The changelog is rendered as markdown (the chat's sanitising
  // renderer): a heading and a list item, no raw "#" or "-".
  await inCard("probe", "ext-update");
  const rendered = await s.until("the changelog rendered", async () => {
    const r = await s.exec(`const c = document.querySelector('[data-test=ext-detail][data-name="probe"] [data-test=ext-changelog]');
      return c ? [...c.querySelectorAll('h1, h2, li')].map((e) => e.tagName + ':' + e.textContent.trim()) : [];`);
    return r.length ? r : null;
  });
  assert.deepEqual(rendered, ["H1:Changes", "H2:1.1.0", "LI:answers faster"]);
  const block = await inCard("probe", "ext-update");
  assert.ok(block.includes("answers faster") && !block.includes("first"), block);
  assert.ok(!block.includes("#") && !block.includes("- answers"), block);
  await shot(s, "manager-updates.png");

  await clickInCard(s, "probe", "update");
  await s.until("the new version on the card", async () => (await version("probe")) === "v1.1.0");
  await s.until("a ready card", async () => (await cardState(s, "probe")) === "ready", 30000);
  // Roll back is one of the rarer actions, in the pane's "⋯" menu.
  await s.click(await s.find('[data-test=ext-detail][data-name="probe"] [data-test=more-actions]'));
  assert.equal((await inCard("probe", "rollback")).trim(), "Roll back to 1.0.0");
  assert.equal(await s.exec(`return !!document.querySelector('[data-test=updates]')`), false, "no update left");

  await clickInCard(s, "probe", "rollback");
  await s.until("the old version back", async () => (await version("probe")) === "v1.0.0");
  await s.until("a ready card", async () => (await cardState(s, "probe")) === "ready", 30000);
  await shot(s, "manager-rolled-back.png");
});

test("a .zotx dropped on the window installs from the manager, saying it is unsigned", async () => {
  const folder = path.join(scratch, "bundled");
  fs.cpSync(PROBE, folder, { recursive: true });
  const m = JSON.parse(fs.readFileSync(path.join(folder, "extension.json"), "utf8"));
  m.name = "bundled";
  fs.writeFileSync(path.join(folder, "extension.json"), JSON.stringify(m));
  const bundle = path.join(scratch, "bundled.zotx");
  execFileSync(BIN, ["ext", "pack", folder, "-o", bundle], { env: { ...process.env, ZOT_HOME: app.home }, stdio: "ignore" });
  // Start from the chat: the drop brings the manager up.
  await s.click(await s.find("[data-test=nav-chat]")).catch(() => {});
  await drag([bundle]);
  await s.until("the install summary", async () => (await text("[data-test=install-summary]")).includes("bundled"), 30000);
  assert.equal((await text("[data-test=install-signature]")).trim().startsWith("Unsigned."), true);
  await s.until("a disabled card", async () => (await cardState(s, "bundled")) === "disabled");
  assert.ok((await inCard("bundled", "ext-source")).includes("bundled.zotx"));
  await shot(s, "manager-dropped-bundle.png");
});
