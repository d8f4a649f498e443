// Responses, tools, interceptors, panels, ordering, concurrency, shutdown.
import assert from "node:assert/strict";
import { afterEach, beforeEach, test } from "node:test";
import { Ext } from "./harness.mjs";

let ext;
beforeEach(async () => {
  ext = Ext.fixture();
  await ext.handshake();
});
afterEach(() => ext.kill());

const call = async (name, args = "") => {
  ext.send({ type: "command_invoked", id: "c", name, args });
  return ext.recv();
};
const intercept = async (fields) => {
  ext.send({ type: "event_intercept", id: "i", ...fields });
  const r = await ext.recv();
  assert.equal(r.type, "event_intercept_response");
  assert.equal(r.id, "i");
  return r;
};

test("each response action has its own field", async () => {
  assert.deepEqual(await call("echo", "hi"), { type: "command_response", id: "c", action: "display", display: "hi" });
  assert.equal((await call("prompt", "go")).prompt, "go");
  assert.equal((await call("insert", "x")).insert, "x");
  assert.deepEqual(await call("fail"), { type: "command_response", id: "c", action: "noop", error: "it failed" });
  assert.deepEqual((await call("panel")).open_panel, { id: "p1", title: "Sink", lines: ["one"] });
  assert.equal((await call("ECHO", "case")).display, "case");
});

test("dialogs resolve with their one answer", async () => {
  ext.send({ type: "command_invoked", id: "c", name: "ask", args: "" });
  const answers = [
    { action: "accept", value: true },
    { action: "accept", value: "a" },
    { action: "decline" },
    { action: "cancel", reason: "timeout" },
  ];
  const kinds = [];
  for (const a of answers) {
    const req = await ext.recv();
    assert.equal(req.type, "ui_request");
    kinds.push(req.kind);
    // A stray answer is ignored; the request still waits for its own.
    ext.send({ type: "ui_response", id: "nobody", action: "accept" });
    ext.send({ type: "ui_response", id: req.id, ...a });
  }
  assert.deepEqual(kinds, ["confirm", "select", "input", "form"]);
  assert.equal(
    (await ext.recv()).display,
    'accept:true:undefined; accept:"a":undefined; decline:undefined:undefined; cancel:undefined:timeout',
  );
});

test("one-way frames arrive before the response", async () => {
  ext.send({ type: "command_invoked", id: "n", name: "noop", args: "" });
  assert.deepEqual(await ext.recv(), { type: "notify", level: "success", message: "did it" });
  assert.deepEqual(await ext.recv(), { type: "clear_notes" });
  assert.deepEqual(await ext.recv(), { type: "submit", text: "queued prompt" });
  assert.equal((await ext.recv()).action, "noop");
});

test("tools answer and activate deferred tools", async () => {
  ext.send({ type: "tool_call", id: "t", name: "add", args: { a: 2, b: 3 } });
  assert.deepEqual(await ext.recv(), { type: "tool_result", id: "t", content: [{ type: "text", text: "5" }] });
  ext.send({ type: "tool_call", id: "l", name: "loader", args: {} });
  assert.deepEqual((await ext.recv()).activate_tools, ["secret"]);
  ext.send({ type: "tool_call", id: "s", name: "secret", args: {} });
  assert.equal((await ext.recv()).content[0].text, "42");
});

test("events reach their handler", async () => {
  ext.send({ type: "event", event: "turn_end", stop: "end_turn" });
  assert.equal((await ext.recv()).message, "turn ended: end_turn");
});

test("interceptors allow, block, rewrite and replace", async () => {
  const tc = (command) => intercept({ event: "tool_call", tool_name: "bash", tool_args: { command } });
  assert.deepEqual(await tc("echo"), { type: "event_intercept_response", id: "i" });
  assert.equal((await tc("rm -rf /")).reason, "refused: rm -rf /");
  assert.deepEqual((await tc("ls")).modified_args, { command: "ls -la" });
  assert.equal((await intercept({ event: "turn_start", step: 10 })).block, true);
  assert.equal((await intercept({ event: "turn_start", step: 1 })).block, undefined);
  assert.equal((await intercept({ event: "assistant_message", text: "a SECRET" })).replace_text, "a [redacted]");
  assert.equal((await intercept({ event: "assistant_message", text: "BLOCK" })).block, true);
  assert.deepEqual(await intercept({ event: "session_start" }), { type: "event_intercept_response", id: "i" });
});

test("panel keys render, close, and keep their order", async () => {
  const keys = Array(5).fill(["up", "down", "left", "right", "enter", "tab", "home", "end"]).flat();
  for (const key of keys) ext.send({ type: "panel_key", panel_id: "p1", key });
  for (const key of keys) assert.deepEqual((await ext.recv()).lines, [key]);
  ext.send({ type: "panel_key", panel_id: "p1", key: "rune", text: "q" });
  assert.deepEqual(await ext.recv(), { type: "panel_close", panel_id: "p1" });
  ext.send({ type: "panel_close", panel_id: "p1" });
  assert.equal((await ext.recv()).message, "panel p1 closed");
});

test("panel mouse and resize reach their typed handlers in order", async () => {
  ext.send({ type: "panel_mouse", panel_id: "p1", action: "click", row: 2, col: 0 });
  ext.send({ type: "panel_mouse", panel_id: "p1", action: "wheel", delta: -3 });
  ext.send({ type: "panel_resize", panel_id: "p1", cols: 80, rows: 12 });
  ext.send({ type: "panel_mouse", panel_id: "p1", action: "double_click", row: 2, col: 5 });
  assert.deepEqual((await ext.recv()).lines, ["click 2:0"]);
  assert.deepEqual((await ext.recv()).lines, ["wheel -3"]);
  assert.deepEqual(await ext.recv(), { type: "panel_render", panel_id: "p1", lines: ["size 80x12"], placement: "side" });
  assert.deepEqual((await ext.recv()).lines, ["double_click 2:5"]);
});

test("a page's message reaches onPanelMessage and postMessage answers the page", async () => {
  ext.send({ type: "panel_message", panel_id: "c1", data: { clicked: 3 } });
  assert.deepEqual(await ext.recv(), { type: "panel_message", panel_id: "c1", data: { echo: { clicked: 3 } } });
});

test("openHtmlPanel answers with the page, no lines, and the placement asked for", async () => {
  const { Response } = await import("../dist/index.js");
  assert.deepEqual(Response.openHtmlPanel("c1", "Chart", "<p>hi</p>", "side"), {
    action: "open_panel",
    open_panel: { id: "c1", title: "Chart", html: "<p>hi</p>", lines: [], placement: "side" },
  });
});

test("a blocked tool does not delay a panel key", async () => {
  // No clock: /release is what lets the tool finish, so a serial SDK would
  // answer the tool first (after its 10 s timeout) and fail here.
  ext.send({ type: "tool_call", id: "slow", name: "block", args: {} });
  ext.send({ type: "panel_key", panel_id: "p1", key: "down" });
  assert.equal((await ext.recv()).type, "panel_render");
  ext.send({ type: "command_invoked", id: "r", name: "release", args: "" });
  const got = [await ext.recv(), await ext.recv()].sort((a, b) => a.type.localeCompare(b.type));
  assert.equal(got[1].content[0].text, "released");
});

test("shutdown is acknowledged and the process exits 0", async () => {
  ext.send({ type: "shutdown" });
  assert.deepEqual(await ext.recv(), { type: "shutdown_ack" });
  assert.equal(await ext.exited, 0);
});
