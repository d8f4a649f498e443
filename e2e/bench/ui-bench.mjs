// `make bench-ui`: measures the real app (release build, UI embedded) under
// Xvfb through tauri-driver, and writes the "Desktop" section of
// docs/performance.md. Times are taken inside the page with
// performance.now(), so WebDriver round trips do not count.
//   1. keypress → repainted panel with the Python todo example (p50/p95),
//      against a floor: keydown → the next animation frame, no IPC;
//   2. cold start: launch → first contentful paint;
//   3. idle memory: PSS summed over zot and its WebKit processes;
//   4. a 10 000-message session: page start → rows shown, and the longest
//      frame while scrolling through it.
import fs from "node:fs";
import path from "node:path";
import { startApp, send, ROOT, TODO } from "../lib/app.mjs";

const KEYS = 200;

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
}
const ms = (x) => `${x.toFixed(1)} ms`;

async function keypressBench() {
  const launched = Date.now();
  const app = await startApp({ exts: [TODO] });
  const { s } = app;
  try {
    const start = await s.exec(`
      const p = performance.getEntriesByType('paint').find(e => e.name === 'first-contentful-paint')
             || performance.getEntriesByType('paint')[0];
      return { origin: performance.timeOrigin, paint: p ? p.startTime : null, now: performance.now() };`);
    for (let i = 0; i < 12; i++) await send(s, `/todo item ${i}`);
    await send(s, "/todo");
    await s.until("the todo panel", () => s.exec(`return !!document.querySelector('[data-test=panel]')`));
    await s.click(await s.find("[data-test=panel]"));
    // Instrument: keydown time, then the first DOM mutation of the panel after it.
    await s.exec(`
      const b = window.__bench = { t0: 0, samples: [], floor: [] };
      const panel = document.querySelector('[data-test=panel]');
      document.addEventListener('keydown', () => { b.t0 = performance.now(); }, true);
      new MutationObserver(() => {
        if (b.t0) { b.samples.push(performance.now() - b.t0); b.t0 = 0; }
      }).observe(panel, { subtree: true, childList: true, characterData: true, attributes: true });`);
    for (let i = 0; i < KEYS; i++) {
      const n = i;
      await s.keys(i % 40 < 20 ? "\uE015" : "\uE013");
      await s.until("a repaint", async () => (await s.exec(`return window.__bench.samples.length`)) > n, 5000);
    }
    const samples = await s.exec(`return window.__bench.samples`);
    // Floor: keydown → next animation frame, in the same page, no IPC.
    const floor = await s.exec(`
      return new Promise(resolve => {
        const out = []; let i = 0;
        const step = () => {
          const t0 = performance.now();
          requestAnimationFrame(() => { out.push(performance.now() - t0); if (++i < ${KEYS}) setTimeout(step, 5); else resolve(out); });
        };
        step();
      });`);
    await new Promise((r) => setTimeout(r, 3000));
    const pss = memory(app.tmp);
    return { samples, floor, start, launched, pss };
  } finally {
    await app.stop();
  }
}

/** PSS (kB) of every process whose command line mentions the app's temp dir, plus their descendants. */
function memory(tmp) {
  const procs = fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  const info = new Map();
  for (const pid of procs) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
      info.set(Number(pid), { ppid, cmd });
    } catch {}
  }
  const roots = [...info].filter(([, v]) => v.cmd.includes("target") && v.cmd.includes("zot") && v.cmd.includes(tmp)).map(([p]) => p);
  const all = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, v] of info) if (!all.has(pid) && all.has(v.ppid)) (all.add(pid), (grew = true));
  }
  let pss = 0;
  const names = [];
  for (const pid of all) {
    try {
      const roll = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      pss += Number(/^Pss:\s+(\d+)/m.exec(roll)[1]);
      names.push(info.get(pid).cmd.split(" ")[0].split("/").pop());
    } catch {}
  }
  return { kb: pss, names };
}

function sessionFile(dir, n) {
  const file = path.join(dir, "big-session.jsonl");
  const lines = [JSON.stringify({ type: "session", version: 1, cwd: dir })];
  for (let i = 0; i < n; i++) {
    const role = i % 2 ? "assistant" : "user";
    const text = role === "user" ? `question ${i}: how does part ${i} work?` : `Answer ${i}: it **works** like this.\n\n\`\`\`rust\nfn part_${i}() -> u32 { ${i} }\n\`\`\`\n\n- one\n- two`;
    lines.push(JSON.stringify({ type: "message", message: { role, content: [{ type: "text", text }] } }));
  }
  fs.writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

async function sessionBench() {
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR || "/tmp", "zot-bench-session-"));
  const file = sessionFile(dir, 10000);
  const app = await startApp({ extraArgs: ["--session", file] });
  const { s } = app;
  try {
    await s.until("the session", () => s.exec(`return performance.getEntriesByName('zot-session-loaded').length > 0 && document.querySelectorAll('.row').length > 0`), 30000);
    const open = await s.exec(`
      return new Promise(r => requestAnimationFrame(() => r({
        loaded: performance.getEntriesByName('zot-session-loaded')[0].startTime,
        shown: performance.now(), rows: document.querySelectorAll('.row').length })));`);
    // Scroll to the top and back down, one step per frame, timing every frame.
    const scroll = await s.exec(`
      return new Promise(resolve => {
        const sc = document.querySelector('[data-test=transcript]');
        const frames = []; let last = performance.now(); let n = 0; let dir = -1;
        const tick = () => {
          const now = performance.now(); frames.push(now - last); last = now;
          sc.scrollTop += dir * 1500;
          if (dir < 0 && sc.scrollTop <= 0 && n > 10) dir = 1;
          if (++n < 600 && !(dir > 0 && sc.scrollTop + sc.clientHeight >= sc.scrollHeight - 2)) requestAnimationFrame(tick);
          else resolve({ frames: frames.slice(1), rows: document.querySelectorAll('.row').length });
        };
        requestAnimationFrame(tick);
      });`);
    return { open, scroll };
  } finally {
    await app.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const k = await keypressBench();
const sess = await sessionBench();
const p95 = pct(k.samples, 95);
const fp95 = pct(k.floor, 95);
const longest = Math.max(...sess.scroll.frames);
const long = sess.scroll.frames.filter((f) => f > 50).length;
const startup = k.start.paint === null ? null : k.start.origin + k.start.paint - k.launched;

const section = `<!-- desktop-bench:start -->
Measured by \`make bench-ui\` (\`e2e/bench/ui-bench.mjs\`): the release binary with the UI embedded, under Xvfb
through tauri-driver, ${new Date().toISOString().slice(0, 10)}. Times are taken in the page with \`performance.now()\`.

| what | p50 | p95 | floor p50 / p95 | p95 / floor p95 | target |
|---|---|---|---|---|---|
| keypress → panel DOM updated after \`panel_render\` (Python todo, ${KEYS} keys) | ${ms(pct(k.samples, 50))} | ${ms(p95)} | ${ms(pct(k.floor, 50))} / ${ms(fp95)} (keydown → next frame, no IPC) | ${(p95 / fp95).toFixed(2)}× | p95 ≤ 16 ms |

| what | result | target |
|---|---|---|
| launch (WebDriver session request) → first contentful paint | ${startup === null ? "not reported by this WebKit" : `${(startup / 1000).toFixed(2)} s (includes starting WebKitWebDriver)`} | ≤ 1.1× a bare Tauri window (0.65–0.77 s here, not rebuilt in this run) |
| idle PSS, zot + its WebKit processes (${k.pss.names.length} processes, todo loaded) | ${(k.pss.kb / 1024).toFixed(0)} MB | ≤ 1.15× a bare window (277 MB here, not rebuilt in this run) |
| open a 10 000-message session: page start → session rows shown | ${ms(sess.open.shown)} (transcript read ${ms(sess.open.loaded)}) | ≤ 1000 ms |
| scroll through it (top and back, ${sess.scroll.frames.length} frames) | longest frame ${ms(longest)}, ${long} frames over 50 ms | no long frames |
<!-- desktop-bench:end -->`;

const perf = path.join(ROOT, "docs", "performance.md");
let doc = fs.existsSync(perf) ? fs.readFileSync(perf, "utf8") : "# Performance\n";
if (doc.includes("<!-- desktop-bench:start -->")) {
  doc = doc.replace(/<!-- desktop-bench:start -->[\s\S]*<!-- desktop-bench:end -->/, section);
} else {
  doc = doc.trimEnd() + "\n\n## Desktop\n\n" + section + "\n";
}
fs.writeFileSync(perf, doc);
console.log(section);
