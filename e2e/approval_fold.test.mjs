// An answered approval folds into its tool card in the real window: after
// Allow or Deny, the big card leaves the transcript and the tool card
// carries one line saying what was decided, by whom and when. The
// transcript with folded lines passes axe.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot } from "./lib/app.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
let s;
before(async () => {
  app = await startApp({ approvals: null });
  s = app.s;
});
after(async () => app?.stop());

const waiting = () =>
  s.exec(
    `return document.querySelectorAll('[data-test=approval-card][data-state=waiting]').length`,
  );
const cardsInDom = () =>
  s.exec(`return document.querySelectorAll('[data-test=approval-card]').length`);
const folded = (tool) =>
  s.exec(
    `return [...document.querySelectorAll('[data-test=tool-card][data-tool=' + arguments[0] + '] [data-test=tool-approval]')]
       .map((l) => ({ state: l.dataset.state, text: l.textContent.trim() }))`,
    [tool],
  );

test("Allow folds the card into the tool card's line", async () => {
  const outside = path.join(app.tmp, "outside.txt");
  fs.writeFileSync(outside, "alpha\nbeta\ngamma\n");
  await send(s, `write outside ${outside}`);
  await s.until("the approval card", async () => (await waiting()) === 1, 30000);
  await s.click(await s.find("[data-test=approval-allow]"));
  await s.until("the folded line", async () => (await folded("write")).length === 1);
  const [line] = await folded("write");
  assert.equal(line.state, "allowed");
  assert.match(line.text, /^✓\s*Allowed once by you at \d\d:\d\d$/);
  await s.until("the turn to end", async () =>
    (await s.texts(".transcript")).join("").includes("The tool ran."),
  );
  assert.equal(await cardsInDom(), 0, "the answered card stayed in the transcript");
});

test("Deny folds too, and the transcript passes axe", async () => {
  await send(s, "run the command");
  await s.until("the bash card", async () => (await waiting()) === 1, 30000);
  await s.click(await s.find("[data-test=approval-deny]"));
  await s.until("the folded line", async () => (await folded("bash")).length === 1);
  const [line] = await folded("bash");
  assert.equal(line.state, "denied");
  assert.match(line.text, /^✗\s*Denied by you at \d\d:\d\d$/);
  assert.equal(await cardsInDom(), 0);
  await shot(s, "approval-folded.png");
  const v = await axeViolations(s);
  assert.equal(v.length, 0, describeViolations(v));
});
