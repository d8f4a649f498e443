// `make bench-html-panel`: HTML panels in the real app (docs/performance.md,
// "HTML panels"), against floors measured in the same window in the same
// run. The page is the toolchart example's chart plus a small bench script.
//   1. open → first paint: from the moment the panel's element is in the
//      window (the UI has the `ext_panel_open`) to the page's second
//      animation frame (it has painted once), against the same HTML loaded
//      as a plain page in the same webview: a bare sandboxed iframe on the
//      same `zotpanel:` URL, handed over beforehand, appended by the bench.
//      Medians of ROUNDS alternating opens after WARM of each.
//   2. message round trip page → extension → page (through the window,
//      the backend, the host and a Python extension that echoes), TRIPS
//      in a row, p50/p95, against page → window → page (postMessage
//      alone) in the plain frame. Goal: p95 within one display frame.
// Times are the window's performance.now() (open) and the page's (round
// trips). ZOT_E2E_BIN names the binary; HTML_BENCH_PRINT=1 prints the
// block without touching docs/performance.md.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startApp, send, ROOT } from "../lib/app.mjs";
import { sleep, pct, median, ms, writeBlock } from "./measure.mjs";

const ROUNDS = 12;
const WARM = 2;
const TRIPS = 300;
const FRAME_MS = 1000 / 60;
const BENCHPAGE = path.join(ROOT, "e2e", "fixtures", "benchpage");

const BENCH_SCRIPT = `<script>
(function () {
  requestAnimationFrame(() => requestAnimationFrame(() => parent.postMessage({ benchPainted: true }, "*")));
  let pending = null;
  addEventListener("message", (e) => {
    if (e.source !== parent) return;
    const d = e.data;
    if (!d || typeof d !== "object") return;
    if (d.go) run(d.go, d.kind);
    else if ((d.rt !== undefined || d.floor !== undefined) && pending) pending();
  });
  const trip = (msg) => new Promise((res) => { pending = res; parent.postMessage(msg, "*"); });
  async function run(n, kind) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      await trip({ [kind]: i });
      out.push(performance.now() - t);
    }
    parent.postMessage({ benchTrips: { kind, out } }, "*");
  }
})();
</script>`;

const chart = fs.readFileSync(path.join(ROOT, "examples", "extensions", "toolchart", "chart.html"), "utf8");
const PAGE = chart.replace("</body>", `${BENCH_SCRIPT}\n</body>`);

const app = await startApp({ exts: [BENCHPAGE] });
const s = app.s;
fs.writeFileSync(path.join(app.tmp, "exts", "benchpage", "page.html"), PAGE);
const loadBefore = os.loadavg()[0];

try {
  // The window's side of the bench: when each panel appeared, when each
  // page painted, the floor frame's echo, and the pages' trip results.
  await s.exec(`
    window.__hb = { t0: {}, painted: {}, trips: {} };
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-test=panel][data-panel-id]')) {
        const id = el.dataset.panelId;
        if (!(id in __hb.t0)) __hb.t0[id] = performance.now();
      }
    }).observe(document.body, { subtree: true, childList: true });
    addEventListener('message', (e) => {
      const d = e.data;
      if (!d || typeof d !== 'object') return;
      if (d.benchPainted) {
        for (const f of document.querySelectorAll('iframe'))
          if (f.contentWindow === e.source) __hb.painted[f.dataset.panelId || f.dataset.floorId] = performance.now();
      }
      const floor = document.querySelector('iframe[data-floor-id]');
      if (d.floor !== undefined && floor && e.source === floor.contentWindow) e.source.postMessage(d, '*');
      if (d.benchTrips) __hb.trips[d.benchTrips.kind] = d.benchTrips.out;
    });`);

  /** Opens HTML panel `id` through its extension; ms from its element to its page's first paint. */
  async function panelOpen(id) {
    await send(s, `/benchpage ${id}`);
    const r = await s.until(`panel ${id} painted`, () =>
      s.exec(`const h = __hb; return h.painted[arguments[0]] !== undefined && h.t0[arguments[0]] !== undefined
        ? h.painted[arguments[0]] - h.t0[arguments[0]] : null;`, [id]),
    );
    return r;
  }

  async function closePanel(id) {
    await s.exec(`document.querySelector('[data-test=panel][data-panel-id="' + arguments[0] + '"] .panel-close')?.click()`, [id]);
    await s.until(`panel ${id} closed`, () =>
      s.exec(`return !document.querySelector('[data-test=panel][data-panel-id="' + arguments[0] + '"]')`, [id]),
    );
  }

  /** The floor: the same page handed over beforehand, then a bare
   * sandboxed iframe on its URL; ms from append to first paint. */
  async function floorOpen(id) {
    const token = `floor-${id}-${Date.now()}-0000`;
    await s.execAsync(
      `const [html, token, done] = arguments;
       const st = document.documentElement.style; let theme = '';
       for (let i = 0; i < st.length; i++) if (st[i].startsWith('--zot-') || st[i] === 'color-scheme') theme += st[i] + ': ' + st.getPropertyValue(st[i]) + ';';
       window.__TAURI_INTERNALS__.invoke('panel_frame_open', { frame: { token, html, net: false, esc_leaves: true, theme } }).then(() => done(true), (e) => done(String(e)));`,
      [PAGE, token],
    );
    await s.exec(
      `const [id, token] = arguments;
       const f = document.createElement('iframe');
       f.setAttribute('sandbox', 'allow-scripts');
       f.dataset.floorId = id;
       f.style.cssText = 'position:fixed;left:40px;top:60px;width:900px;height:300px;border:0;z-index:5';
       __hb.t0[id] = performance.now();
       f.src = 'zotpanel://localhost/' + token;
       document.body.append(f);`,
      [id, token],
    );
    const r = await s.until(`floor ${id} painted`, () =>
      s.exec(`const h = __hb; return h.painted[arguments[0]] !== undefined ? h.painted[arguments[0]] - h.t0[arguments[0]] : null;`, [id]),
    );
    return { ms: r, token };
  }

  async function floorClose(id, token) {
    await s.execAsync(
      `const [id, token, done] = arguments;
       document.querySelector('iframe[data-floor-id="' + id + '"]')?.remove();
       window.__TAURI_INTERNALS__.invoke('panel_frame_close', { token }).then(() => done(true), () => done(false));`,
      [id, token],
    );
  }

  const panel = [];
  const floor = [];
  for (let i = 0; i < WARM + ROUNDS; i++) {
    const order = i % 2 ? ["floor", "panel"] : ["panel", "floor"];
    for (const kind of order) {
      const id = `${kind}-${i}`;
      if (kind === "panel") {
        const t = await panelOpen(id);
        await closePanel(id);
        if (i >= WARM) panel.push(t);
      } else {
        const { ms: t, token } = await floorOpen(id);
        await floorClose(id, token);
        if (i >= WARM) floor.push(t);
      }
      await sleep(150);
    }
  }

  // Round trips: the panel's page through the extension, the floor's
  // through the window only, one after the other.
  await panelOpen("trips");
  await s.exec(`document.querySelector('[data-test=panel-frame][data-panel-id=trips]').contentWindow.postMessage({ go: ${TRIPS}, kind: 'rt' }, '*')`);
  const rt = await s.until("the panel's round trips", () => s.exec(`return __hb.trips.rt ?? null`), 120000);
  const { token } = await floorOpen("trips-floor");
  await s.exec(`document.querySelector('iframe[data-floor-id="trips-floor"]').contentWindow.postMessage({ go: ${TRIPS}, kind: 'floor' }, '*')`);
  const fl = await s.until("the floor's round trips", () => s.exec(`return __hb.trips.floor ?? null`), 120000);
  await floorClose("trips-floor", token);

  const loadAfter = os.loadavg()[0];
  const ratio = median(panel) / median(floor);
  const p95 = pct(rt, 95);
  const met = (ok) => (ok ? "met" : "**not met**");
  const bin = process.env.ZOT_E2E_BIN ?? "";
  const build = /release/.test(bin) ? "the release binary" : "a debug binary";
  const block = `<!-- html-panel-bench:start -->
Measured by \`make bench-html-panel\` (\`e2e/bench/html-panel-bench.mjs\`): ${build} with its page embedded, under Xvfb through
tauri-driver, ${new Date().toISOString().slice(0, 10)}; load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (${os.cpus().length} vCPUs, shared).
The page is the toolchart example's chart with a bench script (${(PAGE.length / 1024).toFixed(1)} KiB); the extension is a Python
echo (\`e2e/fixtures/benchpage\`). Open times: the window's \`performance.now()\`, medians of ${ROUNDS} alternating opens after ${WARM} of each.

| what | HTML panel | floor | ratio | goal | |
|---|---|---|---|---|---|
| open → the page's first paint (the panel's element in the window → its page's second animation frame), median | ${ms(median(panel))} | ${ms(median(floor))} (the same page handed over beforehand, in a bare sandboxed iframe on its \`zotpanel:\` URL) | ${ratio.toFixed(2)}× | ≤ 1.3× | ${met(ratio <= 1.3)} |
| ↳ p95 of the opens | ${ms(pct(panel, 95))} | ${ms(pct(floor, 95))} | | | |
| message round trip page → extension → page, p50 | ${ms(median(rt))} | ${ms(median(fl))} (page → window → page, postMessage only) | | | |
| message round trip page → extension → page, p95 (${TRIPS} in a row) | ${ms(p95)} | ${ms(pct(fl, 95))} | | ≤ one frame (${ms(FRAME_MS)}) | ${met(p95 <= FRAME_MS)} |

<!-- html-panel-bench:end -->`;
  console.log(block);
  if (!process.env.HTML_BENCH_PRINT) writeBlock("html-panel-bench", "HTML panels", block);
} finally {
  await app.stop();
}
