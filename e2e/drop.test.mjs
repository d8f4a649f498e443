// Files dropped on the real window from another program: a GTK drag source
// (e2e/fixtures/drag-source) offers paths as a file manager does, and
// xdotool drags them into zot, so the window gets a real XDND drop. A
// folder opens as the project; images become chips; other files are
// refused by name; a folder with files is refused whole.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, shot, scratchDir } from "./lib/app.mjs";
import { drag } from "./lib/drag.mjs";

// A 1×1 PNG.
const DOT = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

let app;
let s;
let scratch;
before(async () => {
  scratch = scratchDir("zot-e2e-drop-");
  app = await startApp({});
  s = app.s;
});
after(async () => app?.stop());

const chips = () => s.texts("[data-test=image-chip]");
const refused = async () => (await s.texts("[data-test=image-refused]")).join("");
const header = () => s.exec(`return document.querySelector('[data-test=project-name]')?.textContent ?? null`);

test("dropped images become chips; other files are refused by name", async () => {
  await s.until("the editor", () => s.exec(`return !!document.querySelector('[data-test=editor]')`));
  const png = path.join(scratch, "dot.png");
  fs.writeFileSync(png, DOT);
  const txt = path.join(scratch, "notes.txt");
  fs.writeFileSync(txt, "not an image");
  await drag([png, txt], async () => {
    await s.until("the drop hint", () => s.exec(`return !!document.querySelector('[data-test=drop-hint]')`));
    await shot(s, "drop-hint.png");
  });
  await s.until("the chip", async () => (await chips()).length === 1);
  assert.ok((await chips()).join("").includes("dot.png"));
  assert.ok((await refused()).includes("notes.txt: images must be PNG, JPEG, GIF or WebP"), await refused());
  assert.equal(await s.exec(`return !!document.querySelector('[data-test=drop-hint]')`), false);
});

test("a folder with files is refused whole, and nothing changes", async () => {
  const png = path.join(scratch, "dot.png");
  await drag([scratch, png]);
  await s.until("the refusal", async () => (await refused()).includes("not both"));
  assert.equal(await header(), "project");
});

test("a dropped folder opens as the project", async () => {
  const other = path.join(scratch, "dropped-project");
  fs.mkdirSync(other, { recursive: true });
  await drag([other]);
  await s.until("the new project's header", async () => (await header()) === "dropped-project", 30000);
  assert.equal(await s.exec(`return document.title`), "dropped-project — zot");
});
