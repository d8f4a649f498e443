// Drives an extension process over its real pipes: frames written to its
// stdin, every stdout line parsed as a frame (a line that is not JSON fails
// the test: stdout must carry frames only).
import { spawn } from "node:child_process";
import { mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const here = dirname(fileURLToPath(import.meta.url));

// One directory of stderr logs per test process, removed when every test
// passed and kept (for reading) when one failed.
const logDir = mkdtempSync(join(tmpdir(), "zot-ext-ts-"));
let logs = 0;
process.on("exit", (code) => {
  if (code === 0 && !process.exitCode) rmSync(logDir, { recursive: true, force: true });
});

export class Ext {
  constructor(argv) {
    this.logPath = join(logDir, `ext-${++logs}.log`);
    this.proc = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", openSync(this.logPath, "w")] });
    this.frames = [];
    this.waiters = [];
    this.closed = false;
    let pending = "";
    this.proc.stdout.setEncoding("utf8");
    this.proc.stdout.on("data", (chunk) => {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf("\n")) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        let v;
        try {
          v = JSON.parse(line);
        } catch {
          v = new Error(`non-frame line on stdout: ${JSON.stringify(line)}`);
        }
        this.push(v);
      }
    });
    this.proc.stdout.on("end", () => this.push(new Error("stdout closed")));
    this.exited = new Promise((r) => this.proc.on("exit", (code) => r(code)));
  }

  static fixture(name = "kitchen_sink.mjs") {
    return new Ext([process.execPath, join(here, "fixtures", name)]);
  }

  push(v) {
    const w = this.waiters.shift();
    if (w) w(v);
    else this.frames.push(v);
  }

  sendRaw(line) {
    this.proc.stdin.write(line + "\n");
  }

  send(frame) {
    this.sendRaw(JSON.stringify(frame));
  }

  async recv() {
    const v = this.frames.length
      ? this.frames.shift()
      : await new Promise((resolve, reject) => {
          const t = setTimeout(() => reject(new Error("no frame within 20 s")), 20_000);
          this.waiters.push((x) => {
            clearTimeout(t);
            resolve(x);
          });
        });
    if (v instanceof Error) throw v;
    return v;
  }

  async handshake(cwd = "/proj", config = undefined, state = undefined) {
    const hello = await this.recv();
    if (hello.type !== "hello") throw new Error(`first frame was ${JSON.stringify(hello)}`);
    const ack = { type: "hello_ack", protocol_version: 1, zot_version: "0.1.0", provider: "test", model: "m", cwd, extension_dir: "/tmp", data_dir: "/tmp" };
    if (config !== undefined) ack.config = config;
    if (state !== undefined) ack.state = state;
    this.send(ack);
    const regs = [];
    for (;;) {
      const f = await this.recv();
      if (f.type === "ready") return { hello, regs };
      regs.push(f);
    }
  }

  log() {
    return readFileSync(this.logPath, "utf8");
  }

  kill() {
    this.proc.kill("SIGKILL");
  }
}
