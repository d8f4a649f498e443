// The SDK's frame types are the protocol crate's (via ts-rs): src/protocol
// must match ui/src/lib/bindings exactly, or the SDK has drifted.
import assert from "node:assert/strict";
import { test } from "node:test";
import { stale } from "../scripts/sync-protocol.mjs";

test("src/protocol matches the bindings generated from the protocol crate", () => {
  assert.deepEqual(stale(), [], "run 'npm run sync-protocol' in extensions/sdk-ts and commit the result");
});
