// What every bench under e2e/bench measures with: percentiles, units,
// the page's first paint, the PSS of a process tree, frame statistics, and
// the marked block of docs/performance.md a bench rewrites. One place, so
// two benches never disagree on what "p95" or "memory" means.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../lib/app.mjs";
import { processTree } from "../lib/proc.mjs";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
export const median = (xs) => pct(xs, 50);
export const ms = (x) => `${x.toFixed(1)} ms`;
export const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;

/** The page's first contentful paint, in wall-clock ms. */
export async function firstPaint(s) {
  // The page can be ready a moment before its first paint is recorded.
  const p = await s.until(
    "a paint timing entry (does this WebKit report paint timing?)",
    () =>
      s.exec(`
        const all = performance.getEntriesByType('paint');
        const p = all.find(e => e.name === 'first-contentful-paint') || all[0];
        return p ? { origin: performance.timeOrigin, at: p.startTime, name: p.name } : null;`),
    5000,
  );
  // `origin` (wall clock) and `at` (page time) split the start into the
  // process's part before the page exists and the page's own part.
  return { wall: p.origin + p.at, origin: p.origin, at: p.at, name: p.name };
}

/** PSS (kB) of the app's process and all its descendants (the WebKit
 * processes, and any extension it started). */
export function memory(rootPid) {
  let kb = 0;
  const names = [];
  for (const { pid, argv } of processTree(rootPid)) {
    try {
      const roll = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      kb += Number(/^Pss:\s+(\d+)/m.exec(roll)[1]);
      names.push(argv[0].split("/").pop());
    } catch {}
  }
  return { kb, names };
}

/** Longest, p95, p50 and frames over 50 and 33 ms of a list of frame times. */
export function fstats(frames) {
  const over = (ms) => frames.filter((f) => f > ms).length;
  // Over 33 ms (two frames' budget) as well: many more frames than over
  // 50, so two runs compare on more than a handful.
  return { max: Math.max(...frames), p50: pct(frames, 50), p95: pct(frames, 95), over50: over(50), over33: over(33), n: frames.length };
}

/** Replaces the `<!-- NAME:start -->…<!-- NAME:end -->` block of
 * docs/performance.md with `block` (which carries the markers), or appends
 * it under a `## heading` the first time. */
export function writeBlock(name, heading, block) {
  const perf = path.join(ROOT, "docs", "performance.md");
  let doc = fs.existsSync(perf) ? fs.readFileSync(perf, "utf8") : "# Performance\n";
  const marked = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`);
  if (marked.test(doc)) doc = doc.replace(marked, () => block);
  else doc = doc.trimEnd() + `\n\n## ${heading}\n\n` + block + "\n";
  fs.writeFileSync(perf, doc);
}

/** The in-page probe of the panel benches (key path, click path): from
 * each `trigger` event (`keydown`, `click`) to the panel's next DOM change,
 * with when the page sent its IPC (its fetch) and when the `ext_panel_render`
 * event reached the page (Tauri's callback map) on the way, so the time
 * splits into the page's own work and everything between. Samples land in
 * `window.__bench.samples` and `.parts`. */
export function renderProbe(trigger) {
  return `
      const b = window.__bench = { t0: 0, cur: null, samples: [], parts: [] };
      const panel = document.querySelector('[data-test=panel]');
      document.addEventListener('${trigger}', () => { b.t0 = performance.now(); b.cur = {}; }, true);
      const fetch0 = window.fetch;
      window.fetch = function (...args) {
        if (b.cur && b.cur.sent === undefined) b.cur.sent = performance.now() - b.t0;
        return fetch0.apply(this, args);
      };
      const cbs = window.__TAURI_INTERNALS__ && window.__TAURI_INTERNALS__.callbacks;
      if (cbs) {
        const wrap = (fn) => (data) => {
          if (b.cur && b.cur.event === undefined && data && data.payload && data.payload.type === 'ext_panel_render')
            b.cur.event = performance.now() - b.t0;
          return fn(data);
        };
        for (const [k, v] of cbs) cbs.set(k, wrap(v));
      }
      new MutationObserver(() => {
        if (b.t0) {
          const t = performance.now() - b.t0;
          b.samples.push(t);
          b.parts.push({ ...b.cur, dom: t });
          b.t0 = 0; b.cur = null;
        }
      }).observe(panel, { subtree: true, childList: true, characterData: true, attributes: true });`;
}

/** The page's frames, timed by a requestAnimationFrame loop that records
 * each frame's length from when `window.__frames.on` is set, and when each
 * frame over 50 ms began (wall-clock ms). Lengths are rounded to the
 * clock's 1 ms, so that 50 ms and a float's error is not over 50. */
export const FRAME_PROBE = `
  const f = window.__frames = { on: false, list: [], long: [] };
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    const len = Math.round(now - last);
    if (f.on) {
      f.list.push(len);
      if (len > 50) f.long.push({ at: performance.timeOrigin + last, len });
    }
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);`;
