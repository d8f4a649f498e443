// What the desktop around the app is, for the notification tests: a private
// D-Bus session bus with a fake notification daemon on it (it records each
// Notify call), and X11 focus moved with xdotool to a second small window,
// so "the window is not focused" is real. Needs dbus-daemon, Debian's
// python3 with python3-dbus and python3-gi, xdotool and xmessage (x11-utils).
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "./app.mjs";

const FIXTURE = path.join(ROOT, "e2e", "fixtures", "notify-daemon");
const DAEMON = path.join(FIXTURE, "daemon.py");

/** The first line `child` prints on stdout (or a failure when it exits first). */
function firstLine(child, what) {
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        child.stdout.off("data", onData);
        resolve(out.slice(0, nl).trim());
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}) before it was ready`)));
  });
}

/**
 * Starts a private session bus and the fake daemon on it. `address` is the
 * bus for the app's DBUS_SESSION_BUS_ADDRESS; `received()` lists the
 * notifications so far, oldest first, as `{app_name, summary, body}`.
 */
export async function startNotificationServer(dir) {
  const log = path.join(dir, "notifications.jsonl");
  const bus = spawn("dbus-daemon", [`--config-file=${path.join(FIXTURE, "session.conf")}`, "--nofork", "--print-address=1"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () => {
    for (const p of [daemon, bus]) if (p && p.exitCode === null) p.kill("SIGTERM");
  };
  let daemon;
  try {
    const address = await firstLine(bus, "dbus-daemon");
    daemon = spawn("/usr/bin/python3", [DAEMON, log], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const said = await firstLine(daemon, "the notification daemon");
    if (said !== "ready") throw new Error(`the notification daemon said ${JSON.stringify(said)}`);
    return {
      address,
      received() {
        if (!fs.existsSync(log)) return [];
        return fs.readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
      },
      stop,
    };
  } catch (e) {
    stop();
    throw e;
  }
}

const xdotool = (...args) => execFileSync("xdotool", args, { encoding: "utf8", timeout: 10000 }).trim();

/** The app's mapped top-level X window (GTK sets _NET_WM_PID on it). */
export function appWindow(pid) {
  const ids = xdotool("search", "--onlyvisible", "--pid", String(pid)).split("\n").filter(Boolean);
  if (ids.length === 0) throw new Error(`no visible X window of pid ${pid}`);
  return ids[0];
}

/** Opens a small second X window to move the focus to; `close()` ends it. */
export async function otherWindow() {
  const title = `zot-e2e-other-${process.pid}`;
  const child = spawn("xmessage", ["-title", title, "-geometry", "+900+650", "another window"], { stdio: "ignore" });
  const id = xdotool("search", "--sync", "--onlyvisible", "--name", `^${title}$`).split("\n")[0];
  return {
    id,
    close() {
      if (child.exitCode === null) child.kill("SIGTERM");
    },
  };
}

/** Gives `id` the X input focus (there is no window manager under Xvfb,
 * so it is set directly rather than asked for with `windowactivate`). */
export function focus(id) {
  xdotool("windowfocus", "--sync", id);
}
