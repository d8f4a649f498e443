// The extension manager in the real app: install from a folder, enable,
// disable, enable, remove; screenshots of the manager in both themes; an
// install (folder or git URL) runs nothing of the extension before Enable.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
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

const card = (name) => cardState(s, name);
const clickIn = (name, test) => clickInCard(s, name, test);

test("install from a folder, disable, enable, remove", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  const input = await s.find("[data-test=install-source]");
  await s.type(input, PROBE);
  await s.click(await s.find("[data-test=install]"));
  await s.until("the install summary", async () => (await s.texts("[data-test=install-summary]")).join("").includes("probe"));
  // The summary lists what it registers, from its manifest's contributes.
  const summary = (await s.texts("[data-test=install-summary]")).join("");
  assert.ok(summary.includes("/probe") && summary.includes("/note"), summary);
  await shot(s, "manager-install-summary.png");
  const dir = path.join(app.home, "extensions", "probe");
  assert.ok(fs.existsSync(path.join(dir, "extension.json")));
  await s.until("a disabled card", async () => (await card("probe")) === "disabled");
  await s.click(await s.find("[data-test=enable-installed]"));
  await s.until("a ready card", async () => (await card("probe")) === "ready", 30000);
  await shot(s, "manager-dark.png");
  await s.click(await s.find("[data-test=nav-settings]"));
  await s.click(await s.find("[data-test=theme-light]"));
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the manager", () => s.exec(`return !!document.querySelector('[data-test=manager]')`));
  await s.until("the light theme", async () => (await s.exec(`return document.documentElement.dataset.theme`)) === "light");
  await openDetail(s, "probe");
  await shot(s, "manager-light.png");
  const config = JSON.parse(fs.readFileSync(path.join(app.home, "config.json"), "utf8"));
  assert.equal(config.theme, "light");

  // The doctor opens in a dialog over the manager; Close gives it back.
  await s.click(await s.find("[data-test=doctor]"));
  await s.until("the doctor report", async () => (await s.texts("[data-test=doctor-report]")).join("").includes("probe (global)"));
  await s.click(await s.find("[data-test=doctor-close]"));
  await s.until("the dialog to close", () => s.exec(`return !document.querySelector('[data-test=doctor-dialog]')`));
  await clickIn("probe", "logs");
  // The log opens in probe's detail pane, where the user is looking.
  await s.until("the log viewer", () =>
    s.exec(`return !!document.querySelector('[data-test=ext-detail][data-name="probe"] [data-test=log-viewer]')`));

  await clickIn("probe", "disable");
  await s.until("a disabled card", async () => (await card("probe")) === "disabled");
  assert.equal(JSON.parse(fs.readFileSync(path.join(dir, "extension.json"), "utf8")).enabled, false);
  await clickIn("probe", "enable");
  await s.until("a ready card", async () => (await card("probe")) === "ready", 30000);
  await clickIn("probe", "remove");
  await clickIn("probe", "confirm-remove");
  await s.until("the card to go", async () => (await card("probe")) === null);
  assert.equal(fs.existsSync(dir), false);
});

test("install from a git URL; a URL that fails says why and leaves nothing", async () => {
  const repo = path.join(app.tmp, "git-src", "probe");
  fs.cpSync(PROBE, repo, { recursive: true });
  const git = (...a) => execFileSync("git", ["-C", repo, ...a], { stdio: "pipe" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.name=e2e", "-c", "user.email=e2e@localhost", "commit", "-qm", "probe");
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.type(await s.find("[data-test=install-source]"), `file://${repo}`);
  await s.click(await s.find("[data-test=install]"));
  await s.until("the install summary", async () => (await s.texts("[data-test=install-summary]")).join("").includes("/probe"), 30000);
  const extensions = path.join(app.home, "extensions");
  assert.ok(fs.existsSync(path.join(extensions, "probe", "extension.json")));
  await s.until("a disabled card", async () => (await card("probe")) === "disabled");
  await clickIn("probe", "remove");
  await clickIn("probe", "confirm-remove");
  await s.until("the card to go", async () => (await card("probe")) === null);

  await s.type(await s.find("[data-test=install-source]"), "file:///nonexistent/zot-e2e-repo.git");
  await s.click(await s.find("[data-test=install]"));
  const error = await s.until("the error", async () => (await s.texts("[data-test=manager-error]"))[0]);
  assert.match(error, /install failed/);
  assert.match(error, /nonexistent\/zot-e2e-repo/);
  assert.deepEqual(fs.readdirSync(extensions), [], "nothing is left under extensions/");
});

/** An extension whose program writes `marker` as soon as it runs. */
function markingExt(dir, marker) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "run.sh"),
    `#!/bin/sh\necho ran > '${marker}'\nprintf '%s\\n' '{"type":"hello","name":"marks"}' '{"type":"ready"}'\nexec cat >/dev/null\n`,
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(dir, "extension.json"),
    JSON.stringify({ name: "marks", version: "1.0.0", exec: "./run.sh" }),
  );
}

test("installing from a folder or a git URL runs nothing of it before Enable", async () => {
  const marker = path.join(app.tmp, "marks-ran");
  const src = path.join(app.tmp, "marks-src", "marks");
  markingExt(src, marker);
  const repo = path.join(app.tmp, "marks-git", "marks");
  markingExt(repo, marker);
  const git = (...a) => execFileSync("git", ["-C", repo, ...a], { stdio: "pipe" });
  git("init", "-q");
  git("add", ".");
  git("-c", "user.name=e2e", "-c", "user.email=e2e@localhost", "commit", "-qm", "marks");
  await s.click(await s.find("[data-test=nav-manager]"));
  for (const source of [src, `file://${repo}`]) {
    // The failed URL of the test before may still be in the box.
    const input = await s.find("[data-test=install-source]");
    await s.cmd("POST", `/element/${input}/clear`, {});
    await s.type(input, source);
    await s.click(await s.find("[data-test=install]"));
    await s.until("the install summary", async () =>
      (await s.texts("[data-test=install-summary]")).join("").includes("marks"),
      30000,
    );
    const summary = (await s.texts("[data-test=install-registers-unknown]")).join("");
    assert.match(summary, /unknown until enabled/);
    await s.until("a disabled card", async () => (await card("marks")) === "disabled");
    assert.equal(fs.existsSync(marker), false, `installing ${source} ran the extension`);
    if (source === src) {
      await shot(s, "install-registers-unknown.png");
      // "Later" closes the summary, so the next one is the git install's.
      await s.exec(`[...document.querySelectorAll('[data-test=install-summary] button')]
        .find((b) => b.textContent.trim() === "Later").click(); return true;`);
      await s.until("the summary to close", async () => (await s.texts("[data-test=install-summary]")).length === 0);
      await clickIn("marks", "remove");
      await clickIn("marks", "confirm-remove");
      await s.until("the card to go", async () => (await card("marks")) === null);
    }
  }
  // Enable runs it (the fixture does mark when it runs).
  await s.click(await s.find("[data-test=enable-installed]"));
  await s.until("a ready card", async () => (await card("marks")) === "ready", 30000);
  assert.equal(fs.existsSync(marker), true);
  await clickIn("marks", "remove");
  await clickIn("marks", "confirm-remove");
  await s.until("the card to go", async () => (await card("marks")) === null);
});
