// Where a long frame comes from: streams the streaming bench's long answer
// (ui-bench.mjs, case 4) while `perf record` watches the whole machine
// (scheduler switches and 1 kHz CPU samples), and prints, for each frame
// over LONG ms (40), what the page's script did in it and what the web
// process's main thread, zot's main thread and the machine did meanwhile.
// This is how the 30-second stall of WebKit's memory check was found
// (docs/performance.md). Needs perf (Debian's linux-perf) and root or
// perf_event_paranoid ≤ 0. Not part of `make bench`.
//   ZOT_E2E_BIN=target/release/zot xvfb-run -a node e2e/bench/stream-trace.mjs
// TOKENS (50000) sets the answer's length.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import { startApp, send } from "../lib/app.mjs";
import { webProcess } from "../lib/proc.mjs";
import { sleep, fstats } from "./measure.mjs";

const TOKENS = Number(process.env.TOKENS ?? 50000);
const RATE = 200;
const LONG = Number(process.env.LONG ?? 40);

/** Frames with their wall-clock start, and per frame the time spent in
 * requestAnimationFrame callbacks. (Not in Tauri's event handlers: Tauri
 * 2.12 defines `__TAURI_INTERNALS__.runCallback` read-only, so the page
 * cannot wrap it, and an assignment to it is silently ignored.) */
const PROBE = `
  const raf = window.requestAnimationFrame.bind(window);
  const f = window.__trace = { on: false, frames: [], cb: 0 };
  window.requestAnimationFrame = (cb) => raf((t) => { const a = performance.now(); try { cb(t); } finally { f.cb += performance.now() - a; } });
  let last = performance.now();
  const tick = () => {
    const now = performance.now();
    if (f.on) f.frames.push({ at: performance.timeOrigin + last, len: now - last, cb: f.cb });
    f.cb = 0;
    last = now;
    raf(tick);
  };
  raf(tick);`;

/** perf script's lines: scheduler switches and CPU samples, times in ms. */
function readPerf(file) {
  const text = execFileSync("perf", ["script", "-i", file, "-F", "comm,tid,cpu,time,event,trace,ip,sym,dso"], {
    maxBuffer: 1 << 30,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const switches = [];
  const samples = [];
  const head = /^\s*(.+?)\s+(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+([\w:-]+):\s*(.*)$/;
  for (const line of text.split("\n")) {
    const m = head.exec(line);
    if (!m) continue;
    const [, comm, tid, , t, ev, rest] = m;
    const at = Number(t) * 1000;
    if (ev === "sched:sched_switch") {
      const p = /prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=.* next_pid=(\d+)/.exec(rest);
      if (p) switches.push({ at, prev: Number(p[1]), state: p[2], next: Number(p[3]) });
    } else if (ev === "cpu-clock") {
      samples.push({ at, comm: comm.trim(), tid: Number(tid), where: rest.replace(/^\s*[0-9a-f]+\s+/, "").trim() });
    }
  }
  return { switches, samples };
}

/** ms that thread `tid` spent running, runnable but not running, and
 * asleep between `a` and `b`, from the scheduler's switches. */
function threadStates({ switches }, tid, a, b) {
  const acc = {};
  let cur = "?";
  let since = a;
  const stateAfter = (s) => (s.next === tid ? "running" : s.state.startsWith("R") ? "preempted" : "asleep");
  for (const s of switches) {
    if (s.prev !== tid && s.next !== tid) continue;
    if (s.at <= a) {
      cur = stateAfter(s);
      continue;
    }
    if (s.at > b) break;
    acc[cur] = (acc[cur] ?? 0) + s.at - since;
    since = s.at;
    cur = stateAfter(s);
  }
  acc[cur] = (acc[cur] ?? 0) + b - since;
  return Object.entries(acc)
    .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
    .join(", ");
}

/** The most frequent values of `key` among the samples between `a` and `b`. */
function top({ samples }, a, b, key, tid, n) {
  const c = new Map();
  for (const s of samples) if (s.at >= a && s.at <= b && (tid === undefined || s.tid === tid)) c.set(s[key], (c.get(s[key]) ?? 0) + 1);
  return [...c].sort((x, y) => y[1] - x[1]).slice(0, n).map(([k, v]) => `${v}× ${k}`).join("; ");
}

const app = await startApp({ unset: ["WEBKIT_DISABLE_COMPOSITING_MODE"] });
const { s } = app;
const out = fs.mkdtempSync(path.join(os.tmpdir(), "zot-trace-"));
try {
  const web = webProcess(app.pid);
  await send(s, "hello");
  await s.until("the first answer", () => s.exec(`return !!document.querySelector('.row-assistant .markdown:not(.pending) pre')`));
  await s.exec(PROBE);
  const perfData = path.join(out, "perf.data");
  // perf's clock here is CLOCK_MONOTONIC (the kernel refuses the realtime one), node's hrtime.
  const perf = spawn("perf", ["record", "-q", "-a", "-k", "CLOCK_MONOTONIC", "-e", "sched:sched_switch", "-e", "cpu-clock", "-F", "1000", "-o", perfData], {
    stdio: "ignore",
  });
  await sleep(1500);
  if (perf.exitCode !== null) throw new Error("perf record exited: is perf installed, and may it record the whole machine?");
  const wallMinusMono = performance.timeOrigin + performance.now() - Number(process.hrtime.bigint()) / 1e6;
  await s.exec(`window.__trace.on = true`);
  await send(s, `stream a long answer of ${TOKENS} tokens at ${RATE} tokens/s`);
  for (;;) {
    await sleep(1000);
    if (!(await s.exec(`return !!document.querySelector('[data-test=busy]')`))) break;
  }
  await sleep(1000);
  const frames = await s.exec(`window.__trace.on = false; return window.__trace.frames`);
  perf.kill("SIGINT");
  if (perf.exitCode === null) await new Promise((r) => perf.on("exit", r));
  const st = fstats(frames.map((f) => f.len));
  console.log(`${st.n} frames: p50 ${st.p50.toFixed(0)} ms, p95 ${st.p95.toFixed(0)} ms, longest ${st.max.toFixed(0)} ms, ${st.over50} over 50 ms`);
  const trace = readPerf(perfData);
  const t0 = frames[0].at;
  for (const f of frames.filter((f) => f.len > LONG)) {
    const a = f.at - wallMinusMono;
    const b = a + f.len;
    console.log(`\n${((f.at - t0) / 1000).toFixed(1)} s into the stream: ${f.len.toFixed(0)} ms; page script: rAF callbacks ${f.cb.toFixed(0)} ms`);
    console.log(`  web process main thread: ${threadStates(trace, web, a, b)}; samples: ${top(trace, a, b, "where", web, 4)}`);
    console.log(`  zot main thread: ${threadStates(trace, app.pid, a, b)}; samples: ${top(trace, a, b, "where", app.pid, 3)}`);
    console.log(`  the machine (samples per command, 2 CPUs at 1 kHz): ${top(trace, a, b, "comm", undefined, 6)}`);
  }
} finally {
  await app.stop();
  fs.rmSync(out, { recursive: true, force: true });
}
