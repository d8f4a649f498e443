// Startup order: hello first, registrations (incl. onHello's), then ready.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Ext } from "./harness.mjs";

test("hello comes first and ready after every registration", async () => {
  const ext = Ext.fixture();
  try {
    const { hello, regs } = await ext.handshake();
    assert.equal(hello.name, "kitchen-sink");
    assert.deepEqual(hello.capabilities, ["commands", "tools", "events", "panels", "panel_mouse", "panel_resize"]);
    assert.ok(regs.some((f) => f.type === "register_command" && f.name === "cwd"));
    assert.equal(regs.find((f) => f.name === "secret").deferred, true);
    assert.deepEqual(regs.find((f) => f.name === "add").schema.properties.a, { type: "number" });
    assert.deepEqual(regs.find((f) => f.type === "subscribe"), {
      type: "subscribe", events: ["turn_end"], intercept: ["tool_call", "turn_start", "assistant_message"],
    });
  } finally {
    ext.kill();
  }
});

test("a command registered in onHello sees the host cwd", async () => {
  const ext = Ext.fixture();
  try {
    await ext.handshake("/somewhere");
    ext.send({ type: "command_invoked", id: "1", name: "cwd", args: "" });
    assert.deepEqual(await ext.recv(), { type: "command_response", id: "1", action: "display", display: "/somewhere" });
  } finally {
    ext.kill();
  }
});

test("config arrives in hello_ack and config_changed replaces it", async () => {
  const ext = Ext.fixture();
  try {
    await ext.handshake("/proj", { units: "metric", token: "tok-123" });
    ext.send({ type: "command_invoked", id: "1", name: "units", args: "" });
    assert.equal((await ext.recv()).display, "metric");
    ext.send({ type: "config_changed", config: { units: "imperial", token: "tok-123" } });
    const note = await ext.recv();
    assert.equal(note.type, "notify");
    assert.equal(note.message, "units now imperial; token set: true");
    ext.send({ type: "command_invoked", id: "2", name: "units", args: "" });
    assert.equal((await ext.recv()).display, "imperial");
  } finally {
    ext.kill();
  }
});

test("shutdown before hello_ack is acknowledged and the process exits 0", async () => {
  const ext = Ext.fixture();
  assert.equal((await ext.recv()).type, "hello");
  ext.send({ type: "shutdown" });
  assert.deepEqual(await ext.recv(), { type: "shutdown_ack" });
  assert.equal(await ext.exited, 0);
});
