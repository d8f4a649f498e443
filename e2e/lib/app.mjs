// Starts the real zot binary under tauri-driver with a temp ZOT_HOME, the
// fake LLM and the given --ext paths, and hands back a WebDriver session.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import { fileURLToPath } from "node:url";
import { Session } from "./webdriver.mjs";
import { startFakeLlm } from "./fake-llm.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** Where `shot()` saves: target/e2e-screenshots (git-ignored), so a test run
 * leaves the checkout as it found it; `make screenshots` copies them into
 * docs/screenshots on purpose. ZOT_E2E_SHOTS moves them elsewhere. */
export const SHOTS = process.env.ZOT_E2E_SHOTS ?? path.join(ROOT, "target", "e2e-screenshots");

async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Scratch directories (ZOT_HOME, copies of extensions, logs) are removed
// when the test file's process ends with every test passed, and kept for
// reading when one failed.
const scratch = [];
process.on("exit", (code) => {
  if (code !== 0 || process.exitCode) return;
  // A process that outlives the app by a moment (an extension's last log
  // line) can refill a folder while it is removed (ENOTEMPTY): retry, and
  // never let tidying up fail a file whose tests all passed.
  for (const dir of scratch) {
    try {
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    } catch (err) {
      console.error(`# left ${dir}: ${err.message}`);
    }
  }
});

/** A new temp directory, cleaned up as above. */
export function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** Launches zot; call `stop()` when done. `approvals` is passed as
 * `--approvals` ("auto" unless a test is about approvals: the window's
 * own default is "ask"); `null` passes no flag, so the window's default
 * applies. `home` reuses an earlier run's ZOT_HOME (a restart). */
export async function startApp({
  exts = [],
  projectExts = [],
  theme,
  extraArgs = [],
  env: extraEnv = {},
  unset = [],
  approvals = "auto",
  home: keepHome,
} = {}) {
  const bin = process.env.ZOT_E2E_BIN ?? path.join(ROOT, "target", "e2e", "zot");
  if (!fs.existsSync(bin)) throw new Error(`no E2E binary at ${bin}: run \`make e2e-bin\``);
  const tmp = scratchDir("zot-e2e-");
  // `home`: a ZOT_HOME an earlier startApp used, to start the app again
  // with what it remembered.
  const home = keepHome ?? path.join(tmp, "home");
  const project = path.join(tmp, "project");
  if (!keepHome) fs.mkdirSync(home);
  fs.mkdirSync(project);
  if (theme) fs.writeFileSync(path.join(home, "config.json"), JSON.stringify({ theme }));
  // The project's own extensions (`.zot/extensions`), which wait for trust.
  for (const e of projectExts) {
    fs.cpSync(e, path.join(project, ".zot", "extensions", path.basename(e)), { recursive: true });
  }
  const llm = await startFakeLlm();
  const args = ["--provider", "anthropic", "--model", "fake-model", "--api-key", "sk-e2e-000000001234", "--base-url", llm.url, "--cwd", project];
  args.push(...(extraArgs.length ? extraArgs : ["--no-session"]));
  if (approvals) args.push("--approvals", approvals);
  // Extensions run from copies, so their data (todos.json, frames.jsonl)
  // stays in the temp dir and never touches the checkout.
  for (const e of exts) {
    const copy = path.join(tmp, "exts", path.basename(e));
    fs.cpSync(e, copy, { recursive: true });
    args.push("--ext", copy);
  }
  const env = {
    ZOT_HOME: home,
    PYTHONPATH: path.join(ROOT, "extensions", "sdk-py"),
    ...extraEnv,
  };
  const win = await launchWindow({
    bin,
    args,
    env,
    unset: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", ...unset],
    tmp,
    ready: ["the editor", `return !!document.querySelector('[data-test=editor]');`],
  }).catch(async (e) => {
    await llm.close();
    throw e;
  });
  return {
    ...win,
    home,
    project,
    llm,
    async stop() {
      await win.stop();
      await llm.close();
    },
  };
}

/**
 * Starts any Tauri binary the way the tests start zot: through a wrapper
 * script (its environment and arguments) under tauri-driver in its own
 * process group. The wrapper records its pid (the app's, after `exec`) and
 * the wall-clock time just before `exec`, for the bench's start-up and
 * memory figures. Resolves once `ready` (a label and a page script) holds.
 */
export async function launchWindow({ bin, args = [], env = {}, unset = [], tmp, ready }) {
  if (!fs.existsSync(bin)) throw new Error(`no binary at ${bin}`);
  const wrapper = path.join(tmp, "app");
  const q = (s) => `'${s.replace(/'/g, "'\\''")}'`;
  const lines = ["#!/bin/sh"];
  for (const [k, v] of Object.entries(env)) lines.push(`export ${k}=${q(v)}`);
  if (unset.length) lines.push(`unset ${unset.join(" ")}`);
  lines.push(`echo $$ > ${q(path.join(tmp, "pid"))}`);
  lines.push(`date +%s%N > ${q(path.join(tmp, "launched"))}`);
  lines.push(`exec ${q(bin)} ${args.map(q).join(" ")} "$@"`);
  fs.writeFileSync(wrapper, lines.join("\n") + "\n", { mode: 0o755 });

  const port = await freePort();
  const nativePort = await freePort();
  const log = fs.openSync(path.join(tmp, "tauri-driver.log"), "a");
  // Its own process group: stopping the group also ends WebKitWebDriver.
  const driver = spawn("tauri-driver", ["--port", String(port), "--native-port", String(nativePort)], {
    detached: true,
    stdio: ["ignore", log, log],
  });
  const base = `http://127.0.0.1:${port}`;
  const stopDriver = () => {
    try {
      process.kill(-driver.pid, "SIGTERM");
    } catch {}
  };
  try {
    const deadline = Date.now() + 15000;
    for (;;) {
      try {
        const r = await fetch(`${base}/status`);
        if (r.ok) break;
      } catch {}
      if (Date.now() > deadline) throw new Error("tauri-driver did not start");
      await new Promise((r) => setTimeout(r, 100));
    }
    const s = await Session.create(base, wrapper);
    await s.until(ready[0], () => s.exec(ready[1]));
    return {
      s,
      tmp,
      /** The app's pid (the wrapper exec'd it). */
      pid: Number(fs.readFileSync(path.join(tmp, "pid"), "utf8")),
      /** Wall-clock ms just before the app was exec'd. */
      launchedAt: Number(fs.readFileSync(path.join(tmp, "launched"), "utf8").trim()) / 1e6,
      async stop() {
        await s.close();
        stopDriver();
      },
    };
  } catch (e) {
    stopDriver();
    throw e;
  }
}

/** Types into the editor and sends with Enter. */
export async function send(s, text) {
  const editor = await s.find("[data-test=editor]");
  await s.click(editor);
  await s.type(editor, text);
  await s.keys("\uE007");
}

/** Saves a screenshot into SHOTS (target/e2e-screenshots). */
export async function shot(s, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  fs.writeFileSync(path.join(SHOTS, name), await s.screenshot());
}

/** Frames the probe fixture received. */
export function probeFrames(app) {
  const f = path.join(app.tmp, "exts", "probe", "frames.jsonl");
  if (!fs.existsSync(f)) return [];
  return fs.readFileSync(f, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

export const PROBE = path.join(ROOT, "e2e", "fixtures", "probe");
export const TODO = path.join(ROOT, "examples", "extensions", "todo");
