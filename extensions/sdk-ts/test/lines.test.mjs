// Line splitting over arbitrary chunks: many frames in one chunk, one frame
// split across chunks, CRLF endings. In-process, with run()'s stream options.
import assert from "node:assert/strict";
import { PassThrough, Writable } from "node:stream";
import { test } from "node:test";
import { Extension, ToolResult } from "../dist/index.js";

test("frames are split correctly whatever the chunking", async () => {
  const input = new PassThrough();
  const frames = [];
  let wake;
  const output = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split("\n").filter(Boolean)) frames.push(JSON.parse(l));
      wake?.();
      cb();
    },
  });
  const until = async (n) => {
    while (frames.length < n) await new Promise((r) => (wake = r));
  };
  const done = new Extension("lines", "1")
    .tool("echo", "", { type: "object" }, (_c, a) => ToolResult.text(a.t))
    .run({ input, output, exitOnShutdown: false });
  const call = (i) => JSON.stringify({ type: "tool_call", id: `t${i}`, name: "echo", args: { t: `n${i}` } });
  input.write(JSON.stringify({ type: "hello_ack", protocol_version: 1, zot_version: "", provider: "", model: "", cwd: "/", extension_dir: "/", data_dir: "/" }) + "\n");
  await until(3); // hello, register_tool, ready
  input.write(`${call(1)}\n${call(2)}\r\n${call(3)}\n${call(4).slice(0, 10)}`);
  input.write(`${call(4).slice(10)}\n`);
  await until(7);
  assert.deepEqual(frames.slice(3).map((f) => [f.id, f.content[0].text]), [["t1", "n1"], ["t2", "n2"], ["t3", "n3"], ["t4", "n4"]]);
  input.write(JSON.stringify({ type: "shutdown" }) + "\n");
  await done;
  assert.deepEqual(frames.at(-1), { type: "shutdown_ack" });
});
