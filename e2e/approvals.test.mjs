// Tool approvals in the real window (its default mode is `ask`): a write
// outside the project shows a card with the file's diff, focus moves to it,
// Enter allows it once and the write happens; a bash command's card takes
// "Always allow" by its key (A), config.json then holds the command, and
// the same command runs next time without a card.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot } from "./lib/app.mjs";

let app;
let s;
before(async () => {
  // No --approvals: the window's own default (`ask`) is under test.
  app = await startApp({ approvals: null });
  s = app.s;
});
after(async () => app?.stop());

const cards = () =>
  s.exec(
    `return [...document.querySelectorAll('[data-test=approval-card]')].map((c) => c.dataset.state)`,
  );
const focusedCard = () =>
  s.exec(
    `return document.activeElement?.dataset?.test === 'approval-card' && document.activeElement.dataset.state === 'waiting'`,
  );
const toolResults = () =>
  s.exec(
    `return [...document.querySelectorAll('[data-test=tool-card]')].map((c) => c.textContent)`,
  );
/** The card ignores Enter, Y and A for 400 ms after it took focus. */
const pastGuard = () => new Promise((r) => setTimeout(r, 600));

test("a card by keyboard: Allow once runs the write; Always allow remembers a command", async () => {
  const outside = path.join(app.tmp, "outside.txt");
  fs.writeFileSync(outside, "alpha\nbeta\ngamma\n");

  await send(s, `write outside ${outside}`);
  await s.until("the approval card to take focus", focusedCard, 30000);
  const diff = await s.exec(
    `return document.querySelector('[data-test=approval-diff]')?.textContent ?? ''`,
  );
  assert.ok(diff.includes("- beta") && diff.includes("+ BETA"), diff);
  const reason = await s.exec(
    `return document.querySelector('[data-test=approval-reason]').textContent`,
  );
  assert.ok(reason.includes("outside the project"), reason);
  assert.equal(
    fs.readFileSync(outside, "utf8"),
    "alpha\nbeta\ngamma\n",
    "nothing is written before the answer",
  );
  await shot(s, "approval-card.png");
  await pastGuard();
  await s.keys("\uE007");
  await s.until(
    "the write to happen",
    () => fs.readFileSync(outside, "utf8") === "alpha\nBETA\ngamma\n",
    30000,
  );
  await s.until("the card to say allowed", async () =>
    (await cards()).includes("allowed"),
  );
  await s.until("the turn to end", async () =>
    (await s.texts(".transcript")).join("").includes("The tool ran."),
  );

  await send(s, "run the command");
  await s.until("the bash card to take focus", focusedCard, 30000);
  const cmd = await s.exec(
    `return document.querySelector('[data-state=waiting] [data-test=approval-command]').textContent`,
  );
  assert.equal(cmd, "echo e2e-approved");
  await pastGuard();
  await s.keys("a");
  await s.until("the card to say always", async () =>
    (await cards()).includes("always"),
  );
  await s.until(
    "the command to run",
    async () =>
      // A finished card says "done"; a bash card says its exit status.
      (await toolResults()).filter((t) => t.includes("done") || t.includes("exit 0")).length === 2,
    30000,
  );
  const config = JSON.parse(
    fs.readFileSync(path.join(app.home, "config.json"), "utf8"),
  );
  assert.deepEqual(config.approvals.bash, ["echo e2e-approved"]);

  const before = (await cards()).length;
  await send(s, "run the command");
  await s.until(
    "the third turn to end",
    async () =>
      (await s.texts(".transcript")).join("").split("The tool ran.").length ===
      4,
    30000,
  );
  assert.equal(
    (await cards()).length,
    before,
    "a remembered command runs without a card",
  );
  assert.equal(
    (await toolResults()).filter((t) => t.includes("done") || t.includes("exit 0")).length,
    3,
  );
});
