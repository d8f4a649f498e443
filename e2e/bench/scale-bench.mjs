// `make bench-ui`, second part: the desktop at scale (#20, #18), in the
// real app (release build) under Xvfb, each figure a ratio against a floor
// measured in the same run; writes the "Desktop at scale" block of
// docs/performance.md.
//   1. 20 Python and 20 Node extensions installed (ext-copies.mjs): idle
//      PSS of zot and all its children with all 40 `on_use`, with none,
//      and with the same 40 eager; exec → editor usable (the page's
//      `zot-started` mark, set once the backend answered the first loads)
//      with 40 `on_use` against none. Launches alternate between the three.
//   2. Switching project (`project_open`) → the reloaded page's
//      `zot-started`, to a project with 5 project-local extensions (on_use,
//      then eager) against a project with none, each from the same empty
//      project.
//   3. Opening the session sidebar with 1 000 sessions (click → rows shown,
//      in the page), with no index.json (every file read, as before the
//      catalog's cache) and with a fresh one, against the sidebar with 1
//      session; plus `session_list` alone, and what a non-windowed list of
//      the 1 000 rows costs to lay out.
// ZOT_E2E_BIN names the binary. SCALE_BENCH_ONLY=ext,switch,sidebar runs a
// subset and prints it without touching docs/performance.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp } from "../lib/app.mjs";
import { sessionFile } from "../lib/session.mjs";
import { processTree } from "../lib/proc.mjs";
import { copyExtensions } from "./ext-copies.mjs";
import { sleep, median, ms, mb, memory, writeBlock } from "./measure.mjs";

const ROUNDS = Number(process.env.SCALE_BENCH_ROUNDS ?? 5);
const IDLE_MS = 3000;
const SESSIONS = 1000;
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), "zot-scale-bench-"));

/** Wall-clock ms of the page's `zot-started` mark ("editor usable"), in
 * the page now open (not one marked `__benchOld`). */
async function startedAt(s, timeout = 60000) {
  return s.until(
    "the page's zot-started mark",
    () =>
      s.exec(`
        if (window.__benchOld) return null;
        const m = performance.getEntriesByName('zot-started')[0];
        return m ? performance.timeOrigin + m.startTime : null;`),
    timeout,
  );
}

const extList = (s) =>
  s.exec(`return window.__TAURI_INTERNALS__.invoke('rpc', { cmd: { type: 'ext_list' } }).then(r => r.extensions.map(e => e.state))`);

/** Processes under the app that are extensions (not zot, not WebKit). */
const extProcs = (pid) =>
  processTree(pid).filter((p) => p.pid !== pid && !/WebKit/.test(p.argv[0]) && p.argv[0] !== "").length;

// ---------------------------------------------------------------- 1. extensions

/** A ZOT_HOME with these extensions installed (or none). */
function homeWith(kind) {
  const home = path.join(TMP, `home-${kind}`);
  if (kind !== "none") copyExtensions(path.join(home, "extensions"), { python: 20, node: 20, activation: kind });
  else fs.mkdirSync(home, { recursive: true });
  return home;
}

async function launchOnce(kind, home) {
  const app = await startApp({ env: { ZOT_HOME: home } });
  const { s } = app;
  try {
    const started = (await startedAt(s)) - app.launchedAt;
    let allReady = null;
    const t0 = Date.now();
    if (kind !== "none") {
      // Every extension settled: idle (on_use) or ready (eager).
      const want = kind === "on_use" ? "idle" : "ready";
      const states = await s.until(
        `40 extensions ${want}`,
        async () => {
          const st = await extList(s);
          return st.length === 40 && st.every((x) => x !== "loading") ? st : null;
        },
        120000,
      );
      const off = states.filter((x) => x !== want);
      if (off.length) throw new Error(`${kind}: not all ${want}: ${JSON.stringify(states)}`);
      allReady = Date.now() - t0 + started;
    }
    // Where the start went: exec → the page's time origin (process,
    // WebKit, navigation), then the page's own part up to the mark (its
    // script, and the first loads waiting on the backend); and what one
    // `ext_list` costs now, against a `ping`.
    const split = await s.exec(`
      const rpc = async (type) => { const t0 = performance.now(); await window.__TAURI_INTERNALS__.invoke('rpc', { cmd: { type } }); return performance.now() - t0; };
      const ping = []; const list = [];
      for (let i = 0; i < 5; i++) { ping.push(await rpc('ping')); list.push(await rpc('ext_list')); }
      const med = (xs) => xs.sort((a, b) => a - b)[2];
      return { origin: performance.timeOrigin, page: performance.getEntriesByName('zot-started')[0].startTime, ping: med(ping), extList: med(list) };`);
    await sleep(IDLE_MS);
    return {
      started,
      toPage: split.origin - app.launchedAt,
      inPage: split.page,
      ping: split.ping,
      extList: split.extList,
      allReady,
      pss: memory(app.pid),
      extProcs: extProcs(app.pid),
    };
  } finally {
    await app.stop();
  }
}

async function extBench() {
  const homes = { none: homeWith("none"), on_use: homeWith("on_use"), eager: homeWith("eager") };
  // One unmeasured launch each: unpacks the SDKs into each ZOT_HOME and
  // warms the page cache, so no measured launch pays a one-off.
  for (const k of Object.keys(homes)) await launchOnce(k, homes[k]);
  const runs = { none: [], on_use: [], eager: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const k of i % 2 ? ["eager", "on_use", "none"] : ["none", "on_use", "eager"]) {
      runs[k].push(await launchOnce(k, homes[k]));
    }
  }
  const sum = (k) => ({
    started: median(runs[k].map((r) => r.started)),
    startedAll: runs[k].map((r) => r.started),
    kb: median(runs[k].map((r) => r.pss.kb)),
    kbAll: runs[k].map((r) => r.pss.kb),
    procs: runs[k][0].pss.names.length,
    extProcs: runs[k][0].extProcs,
    allReady: k === "none" ? null : median(runs[k].map((r) => r.allReady)),
    toPage: median(runs[k].map((r) => r.toPage)),
    inPage: median(runs[k].map((r) => r.inPage)),
    ping: median(runs[k].map((r) => r.ping)),
    extList: median(runs[k].map((r) => r.extList)),
  });
  return { none: sum("none"), on_use: sum("on_use"), eager: sum("eager") };
}

// ---------------------------------------------------------------- 2. switching project

/** A project folder with `n` project-local extensions (`activation`). */
function projectWith(name, n, activation) {
  const dir = path.join(TMP, name);
  fs.mkdirSync(dir, { recursive: true });
  if (n) copyExtensions(path.join(dir, ".zot", "extensions"), { python: 3, node: 2, activation });
  return fs.realpathSync(dir);
}

/** Switches the window to `dir` and answers the ms from the call to the
 * new page's `zot-started`; both ends are wall-clock times in the page. */
async function switchTo(s, dir) {
  const t0 = await s.exec(`
    window.__benchOld = true;
    const t0 = performance.timeOrigin + performance.now();
    window.__TAURI_INTERNALS__.invoke('project_open', { path: ${JSON.stringify(dir)} }).catch(e => { window.__benchError = JSON.stringify(e); });
    return t0;`);
  const at = await startedAt(s);
  return at - t0;
}

async function switchBench() {
  const home = path.join(TMP, "home-switch");
  fs.mkdirSync(home, { recursive: true });
  const targets = {
    none: projectWith("p-none", 0),
    on_use: projectWith("p-five-on-use", 5, "on_use"),
    eager: projectWith("p-five-eager", 5, "eager"),
  };
  // Trusted, so their extensions run (or wait for their first use) at once.
  fs.writeFileSync(
    path.join(home, "trust.json"),
    JSON.stringify({ version: 1, trusted: Object.values(targets).sort() }),
  );
  const app = await startApp({ env: { ZOT_HOME: home } });
  const { s } = app;
  const back = fs.realpathSync(app.project);
  try {
    await startedAt(s);
    const runs = { none: [], on_use: [], eager: [] };
    const leave = { none: [], on_use: [], eager: [] };
    const states = {};
    // One unmeasured switch each first (SDK unpack, page cache).
    for (let i = -1; i < ROUNDS; i++) {
      for (const k of i % 2 ? ["eager", "on_use", "none"] : ["none", "on_use", "eager"]) {
        const t = await switchTo(s, targets[k]);
        if (k !== "none") {
          const want = k === "on_use" ? "idle" : "ready";
          states[k] = await s.until(
            `5 extensions ${want}`,
            async () => {
              const st = await extList(s);
              return st.length === 5 && st.every((x) => x !== "loading") ? st : null;
            },
            60000,
          );
          if (!states[k].every((x) => x === want)) throw new Error(`${k}: ${JSON.stringify(states[k])}`);
        }
        // Back to the empty project the app started in: the target's
        // backend (and its running extensions) is shut down beside the
        // page's reload, not before it.
        const l = await switchTo(s, back);
        if (i >= 0) (runs[k].push(t), leave[k].push(l));
      }
    }
    return {
      none: median(runs.none),
      on_use: median(runs.on_use),
      eager: median(runs.eager),
      leave: { none: median(leave.none), on_use: median(leave.on_use), eager: median(leave.eager) },
      all: runs,
    };
  } finally {
    await app.stop();
  }
}

// ---------------------------------------------------------------- 3. the session sidebar

/** `session::cwd_key`: the project's directory name under sessions/. */
const cwdKey = (cwd) => cwd.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^-+|-+$/g, "") || "root";

/** A session directory holding `n` sessions of 20 messages each (a
 * distinct first prompt, then the same 19 messages), one a minute apart. */
function sessionsDir(name, n) {
  const dir = path.join(TMP, name);
  fs.mkdirSync(dir, { recursive: true });
  const body = fs.readFileSync(sessionFile(TMP, 20), "utf8").split("\n").filter(Boolean);
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const at = now - i * 60000;
    const lines = [
      body[0],
      JSON.stringify({ type: "message", message: { role: "user", content: [{ type: "text", text: `session ${i}: refactor module ${i}` }] } }),
      ...body.slice(2),
    ];
    const p = path.join(dir, `${String(at).padStart(20, "0")}-1.jsonl`);
    fs.writeFileSync(p, lines.join("\n") + "\n");
    fs.utimesSync(p, new Date(at), new Date(at));
  }
  return dir;
}

/** Click on the Sessions button → the sidebar's rows shown (the frame after
 * the rows of a list of `n` sessions, newest first, are in the DOM); the
 * sidebar is closed again after. */
async function openSidebar(s, n) {
  const r = await s.exec(`
    return new Promise(resolve => {
      const t0 = performance.now();
      document.querySelector('[data-test=nav-sessions]').click();
      const check = () => {
        const rows = document.querySelectorAll('[data-test=session-row]');
        if (rows.length && rows[0].getAttribute('aria-setsize') === '${n}' && rows[0].textContent.includes('session 0:'))
          requestAnimationFrame(() => resolve({ shown: performance.now() - t0, rows: rows.length,
            height: document.querySelector('.session-scroller ul').scrollHeight }));
        else requestAnimationFrame(check);
      };
      check();
    });`);
  await s.exec(`document.querySelector('[data-test=nav-sessions]').click()`);
  await s.until("the sidebar closed", () => s.exec(`return !document.querySelector('[data-test=sessions]')`));
  return r;
}

/** `session_list` alone: the page's invoke → its answer. */
const listOnly = (s) =>
  s.exec(`
    const t0 = performance.now();
    return window.__TAURI_INTERNALS__.invoke('rpc', { cmd: { type: 'session_list' } })
      .then(r => ({ ms: performance.now() - t0, n: r.sessions.length }));`);

/** What the sidebar without windowing would at least cost: every row of
 * the list as static HTML (the mounted rows' markup repeated to `n`), laid
 * into a copy of the sidebar's list, up to the next frame. No Svelte work
 * is counted, so the real cost was higher. */
async function staticRows(s, n) {
  await s.exec(`document.querySelector('[data-test=nav-sessions]').click()`);
  await s.until("rows", () => s.exec(`return document.querySelectorAll('[data-test=session-row]').length > 0`));
  const r = await s.exec(`
    return new Promise(resolve => {
      const ul = document.querySelector('.session-scroller ul');
      const rows = [...ul.querySelectorAll('[data-test=session-row]')].map(li => li.outerHTML);
      const html = Array.from({ length: ${n} }, (_, i) => rows[i % rows.length]).join('');
      const copy = ul.cloneNode(false);
      copy.style.cssText = 'padding:0';
      const t0 = performance.now();
      copy.innerHTML = html;
      ul.parentElement.append(copy);
      void copy.offsetHeight;
      requestAnimationFrame(() => {
        const t = performance.now() - t0;
        copy.remove();
        resolve({ ms: t, rows: ${n} });
      });
    });`);
  await s.exec(`document.querySelector('[data-test=nav-sessions]').click()`);
  return r;
}

async function sidebarBench() {
  const home = path.join(TMP, "home-sidebar");
  fs.mkdirSync(home, { recursive: true });
  const one = sessionsDir("sessions-1", 1);
  const many = sessionsDir(`sessions-${SESSIONS}`, SESSIONS);
  const app = await startApp({ env: { ZOT_HOME: home } });
  const { s } = app;
  const live = path.join(home, "sessions", cwdKey(fs.realpathSync(app.project)));
  fs.mkdirSync(path.dirname(live), { recursive: true });
  fs.rmSync(live, { recursive: true, force: true });
  /** Puts `dir` in place as the project's session directory for `fn`. */
  const withDir = async (dir, fn) => {
    fs.renameSync(dir, live);
    try {
      return await fn();
    } finally {
      fs.renameSync(live, dir);
    }
  };
  const index = path.join(many, "index.json");
  try {
    await startedAt(s);
    const runs = { one: [], cold: [], warm: [], listOne: [], listCold: [], listWarm: [] };
    // The first round is not counted (page cache, the renderer's first use).
    for (let i = -1; i < ROUNDS; i++) {
      const keep = (k, v) => i >= 0 && runs[k].push(v);
      // The sidebar shows its last list until the new one arrives, so
      // every open alternates between the two directories: the rows
      // waited for are always the new list's.
      const floor = () =>
        withDir(one, async () => {
          keep("one", await openSidebar(s, 1));
          keep("listOne", await listOnly(s));
        });
      await floor();
      await withDir(many, async () => {
        fs.rmSync(path.join(live, "index.json"), { force: true });
        keep("cold", await openSidebar(s, SESSIONS));
      });
      await floor();
      await withDir(many, async () => {
        keep("warm", await openSidebar(s, SESSIONS));
        fs.rmSync(path.join(live, "index.json"), { force: true });
        keep("listCold", await listOnly(s));
        keep("listWarm", await listOnly(s));
      });
    }
    const indexKb = fs.existsSync(index) ? fs.statSync(index).size / 1024 : 0;
    const filesMb = fs.readdirSync(many).reduce((a, f) => a + fs.statSync(path.join(many, f)).size, 0) / 1048576;
    const unwindowed = await withDir(many, () => staticRows(s, SESSIONS));
    const m = (k, f = (x) => x.shown) => median(runs[k].map(f));
    return {
      one: m("one"),
      cold: m("cold"),
      warm: m("warm"),
      rows: runs.warm[0].rows,
      height: runs.warm[0].height,
      listOne: m("listOne", (x) => x.ms),
      listCold: m("listCold", (x) => x.ms),
      listWarm: m("listWarm", (x) => x.ms),
      listed: runs.listWarm[0].n,
      unwindowed,
      indexKb,
      filesMb,
      all: runs,
    };
  } finally {
    await app.stop();
  }
}

// ---------------------------------------------------------------- run and write

const only = process.env.SCALE_BENCH_ONLY?.split(",");
const want = (part) => !only || only.includes(part);
const loadBefore = os.loadavg();
const ext = want("ext") ? await extBench() : null;
const sw = want("switch") ? await switchBench() : null;
const sb = want("sidebar") ? await sidebarBench() : null;
const loadAfter = os.loadavg();
fs.rmSync(TMP, { recursive: true, force: true });

if (only) {
  console.log(JSON.stringify({ ext, switch: sw, sidebar: sb && { ...sb, all: undefined } }, null, 1));
  process.exit(0);
}

const met = (ok) => (ok ? "met" : "**not met**");
const x = (a, b) => `${(a / b).toFixed(2)}×`;
const list = (xs, f) => xs.map(f).join(", ");

const memOnUse = ext.on_use.kb / ext.none.kb;
const startOnUse = ext.on_use.started / ext.none.started;
const section = `<!-- scale-bench:start -->
Measured by \`make bench-ui\` (\`e2e/bench/scale-bench.mjs\`, after \`ui-bench.mjs\`): the release binary with its page
embedded, under Xvfb through tauri-driver, ${new Date().toISOString().slice(0, 10)}; load average ${loadBefore[0].toFixed(2)} before,
${loadAfter[0].toFixed(2)} after (2 vCPUs, shared). Every figure is a median of ${ROUNDS} alternating runs after one unmeasured
warm-up each, against a floor measured in the same run. "Editor usable" is the page's \`zot-started\` mark
(\`ui/src/lib/app.svelte.ts\`: the backend answered the first loads — extensions, settings, session, trust, projects — and
the editor takes input), read as wall-clock time in the page.

**40 installed extensions** (\`e2e/bench/ext-copies.mjs\`: 10 hello-py, 10 todo, 10 clock, 10 scratchpad, each under its own
name in \`$ZOT_HOME/extensions\`; \`on_use\` copies declare their commands and tools under distinct names):

| what | none | 40 \`on_use\` | 40 eager | \`on_use\` / none | target | | eager / \`on_use\` |
|---|---|---|---|---|---|---|---|
| idle PSS, zot + every child, ${IDLE_MS / 1000} s after the extensions settled | ${mb(ext.none.kb)} (${ext.none.procs} processes) | ${mb(ext.on_use.kb)} (${ext.on_use.procs}) | ${mb(ext.eager.kb)} (${ext.eager.procs}) | ${memOnUse.toFixed(2)}× | ≤ 1.1× | ${met(memOnUse <= 1.1)} | ${x(ext.eager.kb, ext.on_use.kb)} |
| exec → editor usable (\`zot-started\`) | ${ms(ext.none.started)} | ${ms(ext.on_use.started)} | ${ms(ext.eager.started)} | ${startOnUse.toFixed(2)}× | ≤ 1.05× | ${met(startOnUse <= 1.05)} | ${x(ext.eager.started, ext.on_use.started)} |
| ↳ exec → the page's time origin (process, WebKit, navigation) | ${ms(ext.none.toPage)} | ${ms(ext.on_use.toPage)} | ${ms(ext.eager.toPage)} | ${x(ext.on_use.toPage, ext.none.toPage)} | | | |
| ↳ time origin → \`zot-started\` (page script, first loads) | ${ms(ext.none.inPage)} | ${ms(ext.on_use.inPage)} | ${ms(ext.eager.inPage)} | ${x(ext.on_use.inPage, ext.none.inPage)} | | | |
| exec → all 40 settled (\`idle\` / \`ready\` in \`ext_list\`) | | ${ms(ext.on_use.allReady)} | ${ms(ext.eager.allReady)} | | | | ${x(ext.eager.allReady, ext.on_use.allReady)} |
| one \`ext_list\` afterwards (invoke → answer; a \`ping\`: ${ms(ext.none.ping)} / ${ms(ext.on_use.ping)} / ${ms(ext.eager.ping)}) | ${ms(ext.none.extList)} | ${ms(ext.on_use.extList)} | ${ms(ext.eager.extList)} | ${x(ext.on_use.extList, ext.none.extList)} | | | |

Extension processes running while idle: ${ext.none.extProcs} with none, ${ext.on_use.extProcs} with 40 \`on_use\`, ${ext.eager.extProcs} with 40 eager.
Every launch, in order — none: ${list(ext.none.startedAll, ms)}; ${list(ext.none.kbAll, mb)}. 40 \`on_use\`: ${list(ext.on_use.startedAll, ms)};
${list(ext.on_use.kbAll, mb)}. 40 eager: ${list(ext.eager.startedAll, ms)}; ${list(ext.eager.kbAll, mb)}.

**Switching project** (\`project_open\` from the page → the reloaded page's \`zot-started\`; each switch from the same empty
project; the targets are trusted; their 5 extensions are 3 Python and 2 Node copies in \`.zot/extensions\`):

| switch to | editor usable after | / floor | leaving it again (back to the empty project) | / floor |
|---|---|---|---|---|
| floor: a project with no extensions | ${ms(sw.none)} | 1.00× | ${ms(sw.leave.none)} | 1.00× |
| a project with 5 \`on_use\` extensions | ${ms(sw.on_use)} | ${x(sw.on_use, sw.none)} | ${ms(sw.leave.on_use)} | ${x(sw.leave.on_use, sw.leave.none)} |
| a project with 5 eager extensions | ${ms(sw.eager)} | ${x(sw.eager, sw.none)} | ${ms(sw.leave.eager)} | ${x(sw.leave.eager, sw.leave.none)} |

Every switch — none: ${list(sw.all.none, ms)}; 5 \`on_use\`: ${list(sw.all.on_use, ms)}; 5 eager: ${list(sw.all.eager, ms)}.

**The session sidebar with ${SESSIONS} sessions** (20 messages each, ${sb.filesMb.toFixed(1)} MB in all; click on Sessions → the frame
after the newest row is shown, in the page):

| what | ${SESSIONS} sessions | floor: 1 session | / floor |
|---|---|---|---|
| open the sidebar, \`index.json\` fresh | ${ms(sb.warm)} | ${ms(sb.one)} | ${x(sb.warm, sb.one)} |
| open the sidebar, no \`index.json\` (every file read, as before the cache; the index is written) | ${ms(sb.cold)} | ${ms(sb.one)} | ${x(sb.cold, sb.one)} |
| \`session_list\` alone (invoke → answer), index fresh | ${ms(sb.listWarm)} | ${ms(sb.listOne)} | ${x(sb.listWarm, sb.listOne)} |
| \`session_list\` alone, no index | ${ms(sb.listCold)} | ${ms(sb.listOne)} | ${x(sb.listCold, sb.listOne)} |

Windowed, the open sidebar holds ${sb.rows} of its ${sb.listed} rows in the DOM (the list is ${(sb.height / 1000).toFixed(0)} 000 px tall); the
index is ${sb.indexKb.toFixed(0)} kB. Without windowing, the ${SESSIONS} rows' markup alone, as static HTML laid into the same list, takes
${ms(sb.unwindowed.ms)} to the next frame (no Svelte work counted).
<!-- scale-bench:end -->`;

writeBlock("scale-bench", "Desktop at scale", section);
console.log(section);
