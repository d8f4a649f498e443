// The manager's catalog ("Available") and "Develop a folder…" in the real
// app: one-click install of a catalog entry with its summary and card, a
// screenshot of the catalog, and a working copy developed with live reload
// (the native folder picker is bypassed by ZOT_TEST_PICK_FOLDER, which only
// debug builds read). Other runs: a catalog whose entry is broken shows it
// unavailable with the reason; `--ext DIR --watch` folders are marked dev.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, scratchDir, shot, PROBE } from "./lib/app.mjs";
import { cardState, openDetail } from "./lib/cards.mjs";

let app;
let s;
let devDir;
before(async () => {
  // The folder "Develop a folder…" will get from the (bypassed) picker.
  devDir = path.join(scratchDir("zot-e2e-dev-"), "probe");
  fs.cpSync(PROBE, devDir, { recursive: true });
  app = await startApp({ env: { ZOT_TEST_PICK_FOLDER: devDir } });
  s = app.s;
});
after(async () => app?.stop());

const card = (name) => cardState(s, name);
const entry = (name) => `[data-test=catalog-entry][data-name="${name}"]`;
const entryDetail = (name) => `[data-test=catalog-detail][data-name="${name}"]`;
/** Opens catalog entry `name` in the detail pane (a click on its row). */
async function openEntry(t, name) {
  await t.click(await t.find(entry(name)));
  await t.until(`the detail of ${name}`, () => t.exec(`return !!document.querySelector('${entryDetail(name)}')`));
}

test("the Available section lists zot's catalog and installs an entry in one click", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the todo entry", () => s.exec(`return !!document.querySelector('${entry("todo")}')`));
  const names = await s.exec(
    `return [...document.querySelectorAll('[data-test=catalog-entry]')].map(e => e.dataset.name + ':' + e.dataset.status)`,
  );
  for (const n of ["todo:available", "hello-py:available", "dusk:available"]) assert.ok(names.includes(n), names.join(" "));
  // The Available view lists only the catalog; a row opens its detail.
  await s.click(await s.find("[data-test=view-available]"));
  await openEntry(s, "dusk");
  assert.deepEqual(
    await s.texts(`${entryDetail("dusk")} [data-test=catalog-permission-line]`),
    ["theme: runs no code (it only adds colour themes)"],
  );
  await openEntry(s, "todo");
  const todo = (await s.texts(entryDetail("todo"))).join("");
  assert.match(todo, /persistent todo panel/);
  assert.match(todo, /Adds: .*\/todo.*todo_manage/);
  // What it may do, in the words the install summary and the card use.
  const catalogWords = await s.texts(`${entryDetail("todo")} [data-test=catalog-permission-line]`);
  assert.ok(catalogWords.includes("can open interactive panels that read your keys while focused"), catalogWords.join(" | "));
  assert.ok(catalogWords.includes("has no network access"), catalogWords.join(" | "));
  // zot's catalog is signed by zot's key (docs/extensions.md "The catalog's signatures").
  assert.equal((await s.texts(`${entryDetail("todo")} [data-test=catalog-signer]`)).join("").trim(), "Signed by zot.");
  await shot(s, "catalog.png");

  await s.click(await s.find(`${entryDetail("todo")} [data-test=catalog-install]`));
  const summary = await s.until("the install summary", async () => {
    const t = (await s.texts("[data-test=install-summary]")).join("");
    return t.includes("todo") && t.includes("todo_manage") ? t : null;
  }, 30000);
  assert.match(summary, /\/todo/);
  assert.equal((await s.texts("[data-test=install-signature]")).join("").trim(), "Signed by zot.");
  assert.deepEqual(await s.texts("[data-test=install-summary] [data-test=permission-line]"), catalogWords);
  assert.ok(fs.existsSync(path.join(app.home, "extensions", "todo", "extension.json")));
  // Back to every row: the installed todo is listed above the catalog.
  await s.click(await s.find("[data-test=view-all]"));
  await s.until("a disabled todo card", async () => (await card("todo")) === "disabled");
  await s.until("the entry marked installed", () =>
    s.exec(`return document.querySelector('${entry("todo")}')?.dataset.status === 'installed'`));
  await s.click(await s.find("[data-test=enable-installed]"));
  // todo starts on first use (activation on_use): enabled, it waits idle.
  await s.until("an idle todo card", async () => (await card("todo")) === "idle", 30000);
});

test("Develop a folder… loads a working copy marked dev and reloads it on save", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("the develop button", () =>
    s.exec(`const b = document.querySelector('[data-test=develop]'); return !!b && !b.disabled;`));
  await s.click(await s.find("[data-test=develop]"));
  const said = await s.until("the develop summary", async () => (await s.texts("[data-test=develop-summary]")).join(""));
  assert.ok(said.includes(fs.realpathSync(devDir)), said);
  await s.until("a ready probe card", async () => (await card("probe")) === "ready", 30000);
  await openDetail(s, "probe");
  await s.until("the dev mark", () =>
    s.exec(`return !!document.querySelector('[data-test=ext-detail][data-name="probe"] [data-test=dev-badge]')`));
  await shot(s, "manager-dev.png");
  // Installed extensions carry no dev mark.
  await openDetail(s, "todo");
  assert.equal(
    await s.exec(`return !!document.querySelector('[data-test=ext-detail][data-name="todo"] [data-test=dev-badge]')`),
    false,
  );
  await openDetail(s, "probe");

  // A save of the working copy: the card shows the new manifest once the
  // watcher has reloaded it.
  const manifest = path.join(devDir, "extension.json");
  const m = JSON.parse(fs.readFileSync(manifest, "utf8"));
  m.description = "edited while developing";
  fs.writeFileSync(manifest, JSON.stringify(m, null, 2));
  await s.until("the reloaded card", async () =>
    (await s.texts('[data-test=ext-detail][data-name="probe"]')).join("").includes("edited while developing"), 30000);
  await s.until("a ready probe card again", async () => (await card("probe")) === "ready", 30000);
  // Nothing was installed: a dev folder runs from where it is.
  assert.equal(fs.existsSync(path.join(app.home, "extensions", "probe")), false);
});

test("a catalog entry whose source is missing is shown unavailable with the reason", async () => {
  const dir = scratchDir("zot-e2e-catalog-");
  const none = { registers: { commands: [], tools: [], panels: [], themes: [] }, permissions: [] };
  fs.cpSync(PROBE, path.join(dir, "probe"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "index.json"),
    JSON.stringify({
      catalog: 1,
      extensions: [
        { name: "probe", version: "0.1.0", description: "works", source: "probe", ...none },
        { name: "ghost", version: "1.0.0", description: "its folder is gone", source: "ghost", ...none },
      ],
    }),
  );
  const other = await startApp({ env: { ZOT_CATALOG: path.join(dir, "index.json") } });
  try {
    const t = other.s;
    await t.click(await t.find("[data-test=nav-manager]"));
    await t.until("the ghost entry", () => t.exec(`return !!document.querySelector('${entry("ghost")}')`));
    assert.equal(await t.exec(`return document.querySelector('${entry("ghost")}').dataset.status`), "unavailable");
    await openEntry(t, "ghost");
    assert.equal(await t.exec(`return !!document.querySelector('${entryDetail("ghost")} [data-test=catalog-install]')`), false);
    const reason = (await t.texts(`${entryDetail("ghost")} [data-test=catalog-reason]`)).join("");
    assert.match(reason, /ghost/);
    assert.equal(await t.exec(`return document.querySelector('${entry("probe")}').dataset.status`), "available");
  } finally {
    await other.stop();
  }
});

test("an --ext folder of a zot started with --watch is marked dev too", async () => {
  const other = await startApp({ exts: [PROBE], extraArgs: ["--no-session", "--watch"] });
  try {
    const t = other.s;
    await t.click(await t.find("[data-test=nav-manager]"));
    await openDetail(t, "probe");
    await t.until("the dev mark on probe", () =>
      t.exec(`return !!document.querySelector('[data-test=ext-detail][data-name="probe"] [data-test=dev-badge]')`));
  } finally {
    await other.stop();
  }
});
