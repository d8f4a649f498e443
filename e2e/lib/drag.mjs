// Drags files from another window into zot's, the way a user does: a
// small GTK drag source (e2e/fixtures/drag-source) offers the files and
// xdotool moves the real pointer across, so the drop goes through X's drag
// and drop (XDND), WebKit and zot's drop handler.
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "./app.mjs";

const SOURCE = path.join(ROOT, "e2e", "fixtures", "drag-source", "drag_source.py");

export const xdo = (...args) => execFileSync("xdotool", args.map(String), { encoding: "utf8" }).trim();

/** The geometry of the first window whose title matches `name`. */
export function geometry(name) {
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
export async function drag(paths, midway) {
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
