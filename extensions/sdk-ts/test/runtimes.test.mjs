// The SDK's TypeScript source runs under TypeScript runtimes: tsx always
// (a dev dependency), and Bun and Deno when they are installed.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import { Ext, here } from "./harness.mjs";

const fixture = join(here, "fixtures", "hello.ts");
const has = (cmd) => {
  try {
    execFileSync(cmd, ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

async function exercise(argv) {
  const ext = new Ext(argv);
  try {
    const { hello } = await ext.handshake("/work");
    assert.equal(hello.name, "hello-ts");
    ext.send({ type: "command_invoked", id: "1", name: "hello", args: "there" });
    assert.deepEqual(await ext.recv(), { type: "command_response", id: "1", action: "display", display: "hi there from /work" });
    ext.send({ type: "tool_call", id: "2", name: "double", args: { n: 21 } });
    assert.equal((await ext.recv()).content[0].text, "42");
    ext.send({ type: "shutdown" });
    assert.deepEqual(await ext.recv(), { type: "shutdown_ack" });
    assert.equal(await ext.exited, 0);
  } finally {
    ext.kill();
  }
}

test("runs from TypeScript source under tsx", () => exercise([join(here, "..", "node_modules", ".bin", "tsx"), fixture]));
test("runs from TypeScript source under Bun", { skip: !has("bun") && "bun is not installed" }, () => exercise(["bun", fixture]));
test("runs from TypeScript source under Deno", { skip: !has("deno") && "deno is not installed" }, () =>
  exercise(["deno", "run", "--allow-read", "--allow-env", fixture]),
);
