// Stopping a turn in the real app: Esc in the editor while an answer is
// still streaming ends the turn at once, keeps what already arrived, closes
// the model's stream, and the next prompt works.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send } from "./lib/app.mjs";

let app;
let s;
before(async () => {
  app = await startApp({});
  s = app.s;
});
after(async () => app?.stop());

const answer = async () => (await s.texts(".row-assistant")).join("");
const busy = () => s.exec(`return !!document.querySelector('[data-test=busy]')`);

test("Esc mid-stream aborts the turn, keeps the partial answer and closes the stream", async () => {
  await send(s, "please stream slowly");
  await s.until("the first words", async () => (await answer()).includes("word2"));
  assert.equal(await busy(), true);
  // The editor still has focus after sending; Esc there aborts.
  await s.keys("\uE00C");
  await s.until("the turn to end", async () => !(await busy()), 5000);
  await s.until("the aborted status", async () => (await s.texts(".row-status")).join(" ").includes("aborted"));
  const kept = await answer();
  assert.match(kept, /Slow start\./);
  assert.doesNotMatch(kept, /word119/, "the answer was cut short");
  // Nothing more arrives once aborted, and the server saw the stream closed.
  await new Promise((r) => setTimeout(r, 600));
  assert.equal(await answer(), kept);
  const slow = app.llm.requests.find((r) => JSON.stringify(r.body).includes("stream slowly"));
  await s.until("the server to see the stream closed", async () => slow.cut === true, 5000);

  await send(s, "hello after the abort");
  await s.until("the next answer", async () => (await answer()).includes("streamed world"));
});
