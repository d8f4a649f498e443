// The field tables of docs/protocol.md are generated from the protocol
// crate's bindings; a stale reference fails here (and in `make test`).
import assert from "node:assert/strict";
import { test } from "node:test";
import { render, updated } from "../scripts/protocol-doc.mjs";

test("docs/protocol.md carries the current field tables", () => {
  const { doc, fresh } = updated();
  assert.ok(doc === fresh, "run 'node extensions/sdk-ts/scripts/protocol-doc.mjs' and commit docs/protocol.md");
});

test("the reference lists every frame in both directions with its fields", () => {
  const r = render();
  for (const t of ["hello", "register_command", "register_tool", "ready", "tool_result", "subscribe", "event_intercept_response",
    "command_response", "submit", "panel_render", "panel_close", "notify", "clear_notes", "shutdown_ack",
    "hello_ack", "command_invoked", "tool_call", "event", "event_intercept", "panel_key", "shutdown"]) {
    assert.match(r, new RegExp(`\\| \`${t}\` \\|`), `missing frame ${t}`);
  }
  assert.match(r, /`deferred\?: boolean`/);
  assert.match(r, /`activate_tools\?: Array<string>`/);
  assert.match(r, /`data_dir: string`/);
});
