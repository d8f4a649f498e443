// The app's process tree as Linux's /proc shows it: the bench sums memory
// over it, and the renderer test reads the WebKit processes' environment.
import fs from "node:fs";

/** The fields of a /proc/…/stat line after the command, which may hold
 * spaces and parentheses itself: index 0 is field 3 (the state), so field
 * N of proc(5) is at N - 3. */
export function statFields(stat) {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** `pid` and every process below it, each with its command line's words. */
export function processTree(pid) {
  const info = new Map();
  for (const d of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(statFields(stat)[1]);
      const argv = fs.readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0");
      info.set(Number(d), { ppid, argv });
    } catch {
      // It ended while we looked.
    }
  }
  const all = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, v] of info) if (!all.has(p) && all.has(v.ppid)) (all.add(p), (grew = true));
  }
  return [...all].filter((p) => info.has(p)).map((p) => ({ pid: p, argv: info.get(p).argv }));
}

/** A process's environment at its start, as a Map. */
export function environ(pid) {
  const env = new Map();
  for (const kv of fs.readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")) {
    const i = kv.indexOf("=");
    if (i > 0) env.set(kv.slice(0, i), kv.slice(i + 1));
  }
  return env;
}

/** The pid of the first WebKitWebProcess under `pid`: the process that
 * runs the page's script, style, layout and paint. */
export function webProcess(pid) {
  const web = processTree(pid).find((p) => p.argv[0].endsWith("WebKitWebProcess"));
  if (!web) throw new Error(`no WebKitWebProcess under pid ${pid}`);
  return web.pid;
}

/** `name` in the environment of the first WebKitWebProcess under `pid`
 * (undefined if unset): what zot chose for WebKit before its window. */
export function webProcessEnv(pid, name) {
  return environ(webProcess(pid)).get(name);
}

/** Bytes process `pid` has read through read() and the like, files and
 * /proc included (its /proc/PID/io `rchar`). */
export function bytesRead(pid) {
  return Number(/^rchar:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/io`, "utf8"))[1]);
}

/** The pid of the X server (Xvfb) for `display` (`:99`): the window's
 * pixels go through it, so a frame can wait on it. */
export function xServer(display = process.env.DISPLAY) {
  for (const d of fs.readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const argv = fs.readFileSync(`/proc/${d}/cmdline`, "utf8").split("\0");
      if (argv[0].endsWith("Xvfb") && argv.includes(display)) return Number(d);
    } catch {
      // It ended while we looked.
    }
  }
  throw new Error(`no Xvfb serves display ${display}`);
}
