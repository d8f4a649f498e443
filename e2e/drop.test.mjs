// Files dropped on the real window from another program: a GTK drag source
// (e2e/fixtures/drag-source) offers paths as a file manager does, and
// xdotool drags them into zot, so the window gets a real XDND drop. A
// folder opens as the project; images become chips; other files are
// refused by name; a folder with files is refused whole.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { startApp, shot, scratchDir, ROOT } from "./lib/app.mjs";

const SOURCE = path.join(ROOT, "e2e", "fixtures", "drag-source", "drag_source.py");
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

const xdo = (...args) => execFileSync("xdotool", args.map(String), { encoding: "utf8" }).trim();

/** The geometry of the first window whose title matches `name`. */
function geometry(name) {
  const id = xdo("search", "--sync", "--onlyvisible", "--name", name).split("\n")[0];
  const g = Object.fromEntries(
    xdo("getwindowgeometry", "--shell", id)
      .split("\n")
      .map((l) => l.split("="))
      .map(([k, v]) => [k, Number(v)]),
  );
  return { x: g.X, y: g.Y, w: g.WIDTH, h: g.HEIGHT };
}

/** Drags `paths` from a drag source window into the middle of zot's
 * window; `midway` runs while the files hover over it. */
async function drag(paths, midway) {
  const src = spawn("/usr/bin/python3", [SOURCE, "1150", "700", ...paths], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    await new Promise((resolve, reject) => {
      src.stdout.on("data", (d) => String(d).includes("ready") && resolve());
      src.on("exit", (code) => reject(new Error(`the drag source exited (${code})`)));
    });
    const from = geometry("^zot-drag-source$");
    const to = geometry("— zot$");
    const [sx, sy] = [from.x + from.w / 2, from.y + from.h / 2];
    const [tx, ty] = [to.x + to.w / 2, to.y + to.h / 2];
    xdo("mousemove", sx, sy);
    await sleep(150);
    xdo("mousedown", 1);
    // Small steps: GTK starts a drag past its threshold, and XDND follows
    // the pointer window by window.
    for (let i = 1; i <= 25; i++) {
      xdo("mousemove", Math.round(sx + ((tx - sx) * i) / 25), Math.round(sy + ((ty - sy) * i) / 25));
      await sleep(40);
    }
    if (midway) await midway();
    xdo("mouseup", 1);
    await sleep(300);
  } finally {
    src.kill();
  }
}

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
