// Drives main.js over the protocol, as zot would: hello, registration, the
// command and the tool. Run: node --test (after zot ran once, so its SDK is
// unpacked; or set ZOT_SDK_DIR).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import assert from "node:assert/strict";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

function sdkDir() {
  if (process.env.ZOT_SDK_DIR) return process.env.ZOT_SDK_DIR;
  const home = process.env.ZOT_HOME || join(process.env.XDG_STATE_HOME || join(homedir(), ".local/state"), "zot");
  const root = join(home, "sdk");
  if (!existsSync(root)) return null;
  const trees = readdirSync(root).filter((d) => !d.startsWith(".")).map((d) => join(root, d));
  trees.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  return trees.at(-1) ?? null;
}

test("the command and the tool answer", async (t) => {
  const sdk = sdkDir();
  if (!sdk && !existsSync(join(here, "node_modules", "zot-ext"))) return t.skip("zot's SDK not found: start zot once, or set ZOT_SDK_DIR");
  const env = { ...process.env };
  if (sdk) env.NODE_OPTIONS = `${env.NODE_OPTIONS ?? ""} --import=${pathToFileURL(join(sdk, "node", "register.mjs")).href}`;
  const p = spawn(process.execPath, [join(here, "main.js")], { cwd: here, env, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: p.stdout })[Symbol.asyncIterator]();
  const send = (f) => p.stdin.write(JSON.stringify(f) + "\n");
  const until = async (type) => {
    for (;;) {
      const { value, done } = await lines.next();
      assert.ok(!done, `no ${type} frame`);
      const f = JSON.parse(value);
      if (f.type === type) return f;
    }
  };
  assert.equal((await until("hello")).name, "{{name}}");
  send({ type: "hello_ack", protocol_version: 1, zot_version: "test", provider: "p", model: "m", cwd: here, extension_dir: here, data_dir: here });
  await until("ready");
  send({ type: "command_invoked", id: "c1", name: "{{name}}", args: "hi" });
  assert.equal((await until("command_response")).display, "hello from {{name}}: hi");
  send({ type: "tool_call", id: "t1", name: "{{tool}}", args: { text: "echo me" } });
  assert.equal((await until("tool_result")).content[0].text, "echo me");
  send({ type: "shutdown" });
  await new Promise((r) => p.on("exit", r));
});
