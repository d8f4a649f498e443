// Session state (`ctx.state`): hello_ack.state is there from the start,
// `set` sends state_set with the typed value, an over-limit value is an
// error before anything is sent, and state_restored replaces the values.
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";
import { Ext } from "./harness.mjs";

let ext;
afterEach(() => ext?.kill());

const call = async (name, args = "") => {
  ext.send({ type: "command_invoked", id: "c", name, args });
  return ext.recv();
};

test("state from hello_ack is read, set sends state_set, state_restored replaces it", async () => {
  ext = Ext.fixture("state.mjs");
  await ext.handshake("/proj", undefined, { plan: ["read"] });
  assert.equal((await call("show")).display, '["read"]');
  assert.deepEqual(await call("add", "write"), { type: "state_set", key: "plan", value: ["read", "write"] });
  assert.equal((await ext.recv()).display, "2");
  assert.equal((await call("show")).display, '["read","write"]');

  const huge = await call("huge");
  assert.match(huge.display, /over the limit of 65536 per value/);

  ext.send({ type: "state_restored", state: { plan: ["older"] } });
  assert.deepEqual(await ext.recv(), { type: "notify", level: "info", message: 'restored {"plan":["older"]}' });
  assert.equal((await call("show")).display, '["older"]');
});

test("no state in hello_ack (an older zot) reads as empty", async () => {
  ext = Ext.fixture("state.mjs");
  await ext.handshake();
  assert.equal((await call("show")).display, "null");
});
