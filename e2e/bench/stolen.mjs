// What the machine took from the threads a frame depends on, frame by
// frame. This is a shared virtual machine: now and then the hypervisor
// takes a vCPU away for tens of ms (steal), and a frame that was waiting
// on it grows by that much whatever the page does. A poll once a second
// (the bench's old rule) cannot tell whether a second's steal fell inside
// a given frame, so this samples /proc every INTERVAL_MS: each vCPU's
// steal, and for each thread which vCPU it last ran on and its schedstat
// (time on a CPU, time runnable but waiting for one). A thread's steal in
// a frame is then the steal of the vCPU it was on, counted only between
// samples that both lie inside the frame (so, to /proc/stat's 10 ms
// ticks, never more than happened in it).
import fs from "node:fs";
import { statFields } from "../lib/proc.mjs";

const INTERVAL_MS = 10;

/** Reads a /proc file afresh through a descriptor kept open: opening it
 * every sample costs the sampler more than the reading. */
function procFile(file) {
  const fd = fs.openSync(file, "r");
  const buf = Buffer.alloc(64 * 1024);
  return {
    read: () => buf.toString("latin1", 0, fs.readSync(fd, buf, 0, buf.length, 0)),
    close: () => fs.closeSync(fd),
  };
}

/** Steal so far, ms, from /proc/stat's text: the machine's (`all`) and
 * each vCPU's (cpu0, cpu1, … in order). */
function stealOf(text) {
  const perCpu = [];
  let all = 0;
  // "cpu  user nice system idle iowait irq softirq steal …" (the machine's
  // line has two spaces after its name), then "cpu0 …", "cpu1 …".
  for (const m of text.matchAll(/^cpu(\d*) +(\d+(?: \d+){7})/gm)) {
    const ms = Number(m[2].split(" ")[7]) * 10;
    if (m[1] === "") all = ms;
    else perCpu[Number(m[1])] = ms;
  }
  return { all, perCpu };
}

/** CPU time (ms) the hypervisor has taken from this virtual machine's
 * CPUs so far: time the page could not run whatever it did. */
export function stealMs() {
  return stealOf(fs.readFileSync("/proc/stat", "utf8")).all;
}

/** Starts sampling `threads`, an object of named `[pid, tid]` pairs (the
 * page's thread, and those it waits on: the UI process's main thread, the
 * X server). `during(from, to)` (wall-clock ms, as `performance.timeOrigin +
 * performance.now()` gives them in the page) says, for that span: `cpus`,
 * the ms the hypervisor took from each vCPU; and for each thread, `steal`,
 * the ms it took from the vCPU the thread was on, `run`, the ms the
 * thread was on a CPU, and `wait`, the ms it was runnable but waiting for
 * a CPU (the machine's other work, ours included). Null when fewer than
 * two samples fell inside the span: the sampler itself could not run. */
export function sampleThreads(threads) {
  const names = Object.keys(threads);
  const stat = procFile("/proc/stat");
  const files = names.map((n) => {
    const [pid, tid] = threads[n];
    return [procFile(`/proc/${pid}/task/${tid}/stat`), procFile(`/proc/${pid}/task/${tid}/schedstat`)];
  });
  const samples = [];
  const take = () => {
    try {
      const steal = stealOf(stat.read()).perCpu;
      const of = files.map(([task, sched]) => {
        // Field 39 of proc(5): the processor it last ran on.
        const cpu = Number(statFields(task.read())[36]);
        const [run, wait] = sched.read().split(" ").map((ns) => Number(ns) / 1e6);
        return { cpu, run, wait };
      });
      samples.push({ at: performance.timeOrigin + performance.now(), steal, of });
    } catch {
      // A process is gone: nothing more to sample.
      stop();
    }
  };
  const timer = setInterval(take, INTERVAL_MS);
  let open = true;
  const stop = () => {
    clearInterval(timer);
    if (open) for (const f of [stat, ...files.flat()]) f.close();
    open = false;
  };
  take();
  return {
    stop,
    during(from, to) {
      const inside = samples.filter((s) => s.at >= from && s.at <= to);
      if (inside.length < 2) return null;
      const [a, b] = [inside[0], inside[inside.length - 1]];
      const cpus = b.steal.map((ms, cpu) => ms - a.steal[cpu]);
      const threads = Object.fromEntries(
        names.map((n, k) => {
          let steal = 0;
          for (let i = 1; i < inside.length; i++) {
            const cpu = inside[i].of[k].cpu;
            steal += inside[i].steal[cpu] - inside[i - 1].steal[cpu];
          }
          return [n, { steal, run: b.of[k].run - a.of[k].run, wait: b.of[k].wait - a.of[k].wait }];
        }),
      );
      return { cpus, threads };
    },
  };
}
