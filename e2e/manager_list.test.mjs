// The manager's list and detail pane (#40 items 4 and 6) in the real
// window: by keyboard (the listbox takes focus, the arrows move, Enter
// opens the detail and puts focus on its heading, Esc goes back, Space
// turns the active extension off and on), by mouse (a row opens its
// detail, its switch turns it off and on, the search narrows the list),
// axe-core clean with the doctor's dialog open too, screenshots at
// 1280×800 and 800×600; and a Rust extension without its binary shows
// "needs setup" with the step, never an idle one with an Enable button.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { startApp, shot, scratchDir, ROOT, PROBE } from "./lib/app.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";
import { cardState, openDetail } from "./lib/cards.mjs";

const BIN = process.env.ZOT_E2E_BIN ?? path.join(ROOT, "target", "e2e", "zot");
const GUARD_LAUNCHER = path.join(ROOT, "examples", "extensions", "guard", "launch.sh");

let app;
let s;
let unbuilt;
before(async () => {
  const scratch = scratchDir("zot-e2e-list-");
  const home = path.join(scratch, "home");
  fs.mkdirSync(home);
  // Two installed extensions (the probe under two names), so the list has
  // rows to move between.
  for (const name of ["probe", "second"]) {
    const src = path.join(scratch, name);
    fs.cpSync(PROBE, src, { recursive: true });
    const file = path.join(src, "extension.json");
    const m = JSON.parse(fs.readFileSync(file, "utf8"));
    m.name = name;
    fs.writeFileSync(file, JSON.stringify(m));
    execFileSync(BIN, ["ext", "install", src], { env: { ...process.env, ZOT_HOME: home }, stdio: "ignore" });
    execFileSync(BIN, ["ext", "enable", name], { env: { ...process.env, ZOT_HOME: home }, stdio: "ignore" });
  }
  // A Rust extension shipped as source whose binary was never built
  // (startApp copies it out of its workspace, as an install would).
  const ws = path.join(scratch, "ws");
  unbuilt = path.join(ws, "examples", "extensions", "rusty");
  fs.mkdirSync(unbuilt, { recursive: true });
  fs.writeFileSync(path.join(ws, "Cargo.toml"), "[workspace]\nmembers = []\n");
  fs.writeFileSync(path.join(unbuilt, "Cargo.toml"), '[package]\nname = "zot-example-rusty"\nversion.workspace = true\n');
  fs.writeFileSync(
    path.join(unbuilt, "launch.sh"),
    fs.readFileSync(GUARD_LAUNCHER, "utf8").replaceAll("zot-example-guard", "zot-example-rusty"),
    { mode: 0o755 },
  );
  fs.writeFileSync(
    path.join(unbuilt, "extension.json"),
    JSON.stringify({ name: "rusty", version: "0.1.0", exec: "./launch.sh", description: "a Rust example", sandbox: {} }),
  );
  app = await startApp({ home, exts: [unbuilt] });
  s = app.s;
});
after(async () => app?.stop());

const active = () => s.exec(`const l = document.querySelector('[data-test=ext-list]');
  const id = l.getAttribute('aria-activedescendant'); return id ? document.getElementById(id).dataset.name : null;`);
const focused = () => s.exec(`return document.activeElement?.dataset?.test ?? document.activeElement?.tagName`);
const rowNames = () => s.exec(`return [...document.querySelectorAll('[data-test=ext-list] [role=option]')].map((r) => r.dataset.name)`);

async function axeClean(what) {
  const v = await axeViolations(s);
  assert.deepEqual(v, [], `${what}:\n${describeViolations(v)}`);
}

test("by keyboard: arrows move, Enter opens the detail, Esc goes back, Space turns it off and on", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the rows", async () => (await cardState(s, "second")) === "ready", 30000);
  // The catalog's rows arrive with their own answer (each entry's
  // signature checked), which may come after the installed ones.
  await s.until("the catalog's rows", () => s.exec(`return !!document.getElementById('ext-group-available')`), 30000);
  // The listbox and its options, as a screen reader sees them.
  assert.equal(await s.exec(`return document.querySelector('[data-test=ext-list]').getAttribute('role')`), "listbox");
  // Installed first (the --ext one, then the global ones by name), then
  // zot's catalog.
  const names = await rowNames();
  assert.deepEqual(names.slice(0, 3), ["rusty", "probe", "second"], names.join(" "));
  await s.exec(`document.querySelector('[data-test=ext-list]').focus()`);
  assert.equal(await focused(), "ext-list");
  // Focus on the list starts at the first row; the arrows move from there.
  assert.equal(await active(), "rusty");
  await s.keys("\uE015"); // ArrowDown
  await s.keys("\uE015");
  assert.equal(await active(), "second");
  await s.keys("\uE011"); // Home
  await s.keys("\uE013"); // ArrowUp
  assert.equal(await active(), "rusty", "never above the first row");
  await s.keys("\uE010"); // End
  assert.equal(await active(), names[names.length - 1]);
  await s.keys("\uE011");
  await s.keys("\uE015");
  await s.keys("\uE015");
  await s.keys("\uE007"); // Enter
  await s.until("the detail of second", () =>
    s.exec(`return !!document.querySelector('[data-test=ext-detail][data-name="second"]')`));
  assert.equal(await s.exec(`return document.querySelector('[data-test=ext-row][data-name="second"]').getAttribute('aria-selected')`), "true");
  await s.until("focus on the detail's heading", async () => (await focused()) === "detail-heading");
  await s.keys("\uE00C"); // Escape
  await s.until("focus back on the list", async () => (await focused()) === "ext-list");
  assert.equal(await active(), "second");
  // Space turns the active extension off, and on again.
  await s.keys(" ");
  await s.until("second disabled", async () => (await cardState(s, "second")) === "disabled", 30000);
  const manifest = path.join(app.home, "extensions", "second", "extension.json");
  assert.equal(JSON.parse(fs.readFileSync(manifest, "utf8")).enabled, false);
  // Once the manager is done (a key while it is busy does nothing, as a
  // disabled button would), Space turns it on again.
  await s.until("the manager idle", () =>
    s.exec(`return document.querySelector('[data-test=ext-detail] [role=switch]')?.disabled === false`));
  await s.keys(" ");
  await s.until("second ready", async () => (await cardState(s, "second")) === "ready", 30000);
});

test("by mouse: a row opens its detail, its switch turns it off, the search narrows the list", async () => {
  await s.click(await s.find('[data-test=ext-row][data-name="probe"]'));
  await s.until("the detail of probe", () =>
    s.exec(`return !!document.querySelector('[data-test=ext-detail][data-name="probe"]')`));
  // The detail: what it may do, its health, the rarer actions in a menu.
  const detail = (await s.texts('[data-test=ext-detail][data-name="probe"]')).join("");
  assert.match(detail, /What it may do/);
  assert.match(detail, /Health/);
  assert.equal(await s.exec(`return !!document.querySelector('[data-test=ext-detail] [data-test=remove]')`), false);
  await s.click(await s.find("[data-test=ext-detail] [data-test=more-actions]"));
  await s.until("the menu", () => s.exec(`return !!document.querySelector('[data-test=ext-detail] [data-test=remove]')`));
  await s.keys("\uE00C");
  // The row's switch.
  await s.click(await s.find('[data-test=ext-row][data-name="probe"] [data-test=row-toggle]'));
  await s.until("probe disabled", async () => (await cardState(s, "probe")) === "disabled", 30000);
  await s.until("the pane's switch off", () =>
    s.exec(`return document.querySelector('[data-test=ext-detail] [role=switch]')?.getAttribute('aria-checked') === 'false'`));
  await s.until("the manager idle", () =>
    s.exec(`return document.querySelector('[data-test=ext-detail] [role=switch]')?.disabled === false`));
  await s.click(await s.find('[data-test=ext-row][data-name="probe"] [data-test=row-toggle]'));
  await s.until("probe ready", async () => (await cardState(s, "probe")) === "ready", 30000);

  // The search: every word must match a name, description or command.
  await s.type(await s.find("[data-test=ext-search]"), "seco");
  await s.until("one row", async () => (await rowNames()).join(" ") === "second");
  await s.cmd("POST", `/element/${await s.find("[data-test=ext-search]")}/clear`, {});
  await s.exec(`document.querySelector('[data-test=ext-search]').dispatchEvent(new Event('input', {bubbles: true}))`);
  await s.until("every row again", async () => (await rowNames()).length >= 3);
});

test("a Rust extension without its binary needs setup, says the step, and the doctor agrees", async () => {
  await s.until("rusty's badge", async () => (await cardState(s, "rusty")) === "needs setup", 30000);
  await openDetail(s, "rusty");
  const step = (await s.texts("[data-test=ext-setup]")).join("");
  assert.ok(step.includes("cargo build -p zot-example-rusty"), step);
  await shot(s, "manager-needs-setup.png");
  await s.click(await s.find("[data-test=doctor]"));
  const report = await s.until("the doctor's report", async () => {
    const t = (await s.texts("[data-test=doctor-report]")).join("");
    return t.includes("rusty") ? t : null;
  });
  assert.ok(report.includes("rusty needs setup") && report.includes("cargo build -p zot-example-rusty"), report);
  await axeClean("manager with the doctor's dialog");
  await s.keys("\uE00C");
  await s.until("the dialog to close", () => s.exec(`return !document.querySelector('[data-test=doctor-dialog]')`));
});

test("axe-clean, with screenshots at 1280×800 and 800×600", async () => {
  await openDetail(s, "probe");
  await axeClean("manager list and detail");
  await shot(s, "manager-list-detail.png");
  await s.cmd("POST", "/window/rect", { width: 800, height: 600 });
  await s.until("an 800 px page", () => s.exec(`return Math.abs(window.innerWidth - 800) < 40`));
  // Nothing wider than the window; the list and the pane side by side.
  const wide = await s.exec(`return [...document.querySelectorAll('[data-test=manager] *')]
    .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).map((el) => el.className || el.tagName)`);
  assert.deepEqual(wide, []);
  const [list, pane] = await s.exec(`return ['[data-test=ext-list]', '[data-test=detail-pane]']
    .map((q) => document.querySelector(q).getBoundingClientRect()).map((r) => [r.left, r.width])`);
  assert.ok(list[0] < pane[0] && pane[1] > 300, JSON.stringify([list, pane]));
  await axeClean("manager at 800×600");
  await shot(s, "manager-list-detail-800x600.png");
  await s.cmd("POST", "/window/rect", { width: 1280, height: 800 });
});
