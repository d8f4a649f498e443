// Long tool calls: every handler gets a ToolCall (progress, AbortSignal);
// after tool_cancel nothing more is sent for that id.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import { Ext } from "./harness.mjs";

let ext;
beforeEach(async () => {
  ext = Ext.fixture("slow_tool.mjs");
  await ext.handshake();
});
afterEach(() => ext.kill());

test("progress frames, then the result", async () => {
  ext.send({ type: "tool_call", id: "t1", name: "build", args: { steps: 3 } });
  const frames = [];
  for (let i = 0; i < 4; i++) frames.push(await ext.recv());
  assert.deepEqual(frames[0], { type: "tool_progress", id: "t1", message: "step 1", progress: 1, total: 3, partial: "unit 1\n" });
  assert.deepEqual(frames.slice(0, 3).map((f) => f.progress), [1, 2, 3]);
  assert.equal(frames[3].type, "tool_result");
  assert.equal(frames[3].content[0].text, "built");
});

test("tool_cancel aborts the signal and nothing more is sent for that id", async () => {
  ext.send({ type: "tool_call", id: "t2", name: "build", args: {} });
  assert.equal((await ext.recv()).type, "tool_progress");
  ext.send({ type: "tool_cancel", id: "t2", reason: "aborted" });
  ext.send({ type: "tool_call", id: "q", name: "quick", args: {} });
  const seen = [];
  for (;;) {
    const f = await ext.recv();
    seen.push(f);
    if (f.type === "tool_result" && f.id === "q") break;
  }
  await new Promise((r) => setTimeout(r, 300));
  ext.send({ type: "shutdown" });
  for (;;) {
    const f = await ext.recv();
    if (f.type === "shutdown_ack") break;
    seen.push(f);
  }
  assert.deepEqual(seen.filter((f) => f.type === "tool_result" && f.id === "t2"), []);
});
