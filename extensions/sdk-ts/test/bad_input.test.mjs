// Bad frames and throwing handlers never kill the extension.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import { Ext } from "./harness.mjs";

let ext;
beforeEach(async () => {
  ext = Ext.fixture();
  await ext.handshake();
});
afterEach(() => ext.kill());

const stillAlive = async () => {
  ext.send({ type: "command_invoked", id: "ok", name: "echo", args: "alive" });
  assert.equal((await ext.recv()).display, "alive");
};

test("a line that is not JSON is logged and skipped", async () => {
  ext.sendRaw("this is not json {");
  ext.sendRaw("[1,2]");
  await stillAlive();
  assert.match(ext.log(), /not JSON/);
});

test("an unknown frame type is logged and skipped", async () => {
  ext.send({ type: "from_the_future" });
  await stillAlive();
  assert.match(ext.log(), /unknown frame type "from_the_future"/);
});

test("a tool call for an unknown tool gets an error result", async () => {
  ext.send({ type: "tool_call", id: "u", name: "nope", args: {} });
  const r = await ext.recv();
  assert.equal(r.is_error, true);
  assert.match(r.content[0].text, /no tool named "nope"/);
  await stillAlive();
});

test("an unknown command gets an error response", async () => {
  ext.send({ type: "command_invoked", id: "u", name: "nope", args: "" });
  assert.match((await ext.recv()).error, /\/nope/);
  await stillAlive();
});

test("a throwing command becomes an error response with its message", async () => {
  ext.send({ type: "command_invoked", id: "b", name: "boom", args: "" });
  assert.match((await ext.recv()).error, /Error: kaboom in a command/);
  await stillAlive();
});

test("a rejecting tool becomes an error result with its message", async () => {
  ext.send({ type: "tool_call", id: "x", name: "explode", args: {} });
  const r = await ext.recv();
  assert.equal(r.is_error, true);
  assert.match(r.content[0].text, /tool blew up/);
  await stillAlive();
});

test("a throwing interceptor allows and says why", async () => {
  ext.send({ type: "event_intercept", id: "i", event: "tool_call", tool_name: "x", tool_args: { command: "panic" } });
  const r = await ext.recv();
  assert.equal(r.block, undefined);
  assert.match(r.reason, /interceptor blew up/);
});

test("stray console.log output goes to stderr, not the wire", async () => {
  ext.send({ type: "command_invoked", id: "p", name: "print", args: "zzz" });
  assert.equal((await ext.recv()).display, "printed");
  await stillAlive();
  assert.match(ext.log(), /stray stdout text zzz/);
});
