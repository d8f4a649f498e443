// Tool approvals in the real window (its default mode is `ask`): a write
// outside the project shows a card with the file's diff, and the editor
// keeps the keyboard: letters and Enter typed there go to the editor, never
// to the card. Ctrl+Shift+A reaches the card; Enter then allows it once and
// the write happens. A bash command's card takes no key for "Always allow"
// (A does nothing): its button asks for a confirmation, and only that
// second button remembers the command in config.json; the same command then
// runs without a card. The window was started with --api-key, which is
// not in its /proc cmdline (docs/security.md "Secrets").
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
let s;
before(async () => {
  // No --approvals: the window's own default (`ask`) is under test.
  app = await startApp({ approvals: null });
  s = app.s;
});
after(async () => app?.stop());

// Open cards, and answered ones folded into their tool card's line.
const cards = () =>
  s.exec(
    `return [...document.querySelectorAll('[data-test=approval-card], [data-test=tool-approval]')].map((c) => c.dataset.state)`,
  );
const focusedCard = () =>
  s.exec(
    `return document.activeElement?.dataset?.test === 'approval-card' && document.activeElement.dataset.state === 'waiting'`,
  );
const editorFocused = () =>
  s.exec(
    `return document.activeElement === document.querySelector('[data-test=editor]')`,
  );
const editorText = () =>
  s.exec(`return document.querySelector('[data-test=editor]').value`);
const toolResults = () =>
  s.exec(
    `return [...document.querySelectorAll('[data-test=tool-card]')].map((c) => c.textContent)`,
  );
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

test("the window's command line holds no key", () => {
  const pid = fs.readFileSync(path.join(app.tmp, "pid"), "utf8").trim();
  const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  assert.ok(cmdline.includes("--base-url"), cmdline);
  assert.ok(!cmdline.includes("sk-e2e-"), `the key is in /proc/${pid}/cmdline`);
});

test("typing in the editor never answers a card; Ctrl+Shift+A reaches it and Enter allows once", async () => {
  const outside = path.join(app.tmp, "outside.txt");
  fs.writeFileSync(outside, "alpha\nbeta\ngamma\n");

  await send(s, `write outside ${outside}`);
  await s.until(
    "the approval card",
    async () => (await cards()).includes("waiting"),
    30000,
  );
  assert.ok(await editorFocused(), "the card took the focus from the editor");
  // A user still typing: what a card used to take as answers.
  await s.keys("y", "a", "n", "Y", "A");
  await pause(500);
  assert.deepEqual(
    await cards(),
    ["waiting"],
    "a key typed in the editor answered the card",
  );
  assert.equal(await editorText(), "yanYA");
  assert.equal(fs.readFileSync(outside, "utf8"), "alpha\nbeta\ngamma\n");
  for (let i = 0; i < 5; i++) await s.keys(Keys.backspace);

  await s.chord([Keys.control, Keys.shift], "a");
  await s.until("Ctrl+Shift+A to focus the card", focusedCard);
  const diff = await s.exec(
    `return document.querySelector('[data-test=approval-diff]')?.textContent ?? ''`,
  );
  assert.ok(diff.includes("- beta") && diff.includes("+ BETA"), diff);
  const reason = await s.exec(
    `return document.querySelector('[data-test=approval-reason]').textContent`,
  );
  assert.ok(reason.includes("outside the project"), reason);
  await shot(s, "approval-card.png");
  await s.keys(Keys.enter);
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
  assert.ok(
    await editorFocused(),
    "the answer hands the keyboard back to the editor",
  );
});

test("Always allow takes no key and asks to confirm; the confirmed command runs unasked next time", async () => {
  await send(s, "run the command");
  await s.until(
    "the bash card",
    async () => (await cards()).filter((c) => c === "waiting").length === 1,
    30000,
  );
  await s.chord([Keys.control, Keys.shift], "a");
  await s.until("the bash card to take focus", focusedCard);
  const cmd = await s.exec(
    `return document.querySelector('[data-state=waiting] [data-test=approval-command]').textContent`,
  );
  assert.equal(cmd, "echo e2e-approved");
  await s.keys("a");
  await pause(500);
  assert.ok((await cards()).includes("waiting"), "A answered the card");
  const cfg = path.join(app.home, "config.json");
  const rules = () =>
    fs.existsSync(cfg)
      ? JSON.parse(fs.readFileSync(cfg, "utf8")).approvals?.bash
      : undefined;
  assert.equal(rules(), undefined, "a key remembered a rule");

  await s.click(
    await s.find("[data-state=waiting] [data-test=approval-always]"),
  );
  await s.until("the confirmation", () =>
    s.exec(`return !!document.querySelector('[data-test=approval-confirm]')`),
  );
  assert.ok(
    (await cards()).includes("waiting"),
    "the first press answered the card",
  );
  assert.equal(rules(), undefined, "the first press remembered the rule");
  await shot(s, "approval-confirm.png");
  await s.click(await s.find("[data-test=approval-always-confirm]"));
  await s.until("the card to say always", async () =>
    (await cards()).includes("always"),
  );
  await s.until(
    "the command to run",
    async () =>
      // A finished card says "done"; a bash card says its exit status.
      (await toolResults()).filter(
        (t) => t.includes("done") || t.includes("exit 0"),
      ).length === 2,
    30000,
  );
  assert.deepEqual(rules(), ["echo e2e-approved"]);

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
    (await toolResults()).filter(
      (t) => t.includes("done") || t.includes("exit 0"),
    ).length,
    3,
  );
});

test("Always allow offers scopes: a folder remembered runs the next write there, and Settings › Permissions revokes it", async () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(app.tmp, "notes-")));
  const first = path.join(dir, "a.txt");
  await send(s, `write outside ${first}`);
  await s.until(
    "the write's card",
    async () => (await cards()).includes("waiting"),
    30000,
  );
  await s.click(
    await s.find("[data-state=waiting] [data-test=approval-always]"),
  );
  const scopes = await s.exec(
    `return [...document.querySelectorAll('[data-test^=approval-scope-]')].map((r) => [r.value, r.checked, r.closest('label').textContent.trim()])`,
  );
  assert.deepEqual(
    scopes.map(([v, c]) => [v, c]),
    [
      ["exact", true],
      ["folder", false],
      ["tool", false],
    ],
    "the narrowest scope is preselected",
  );
  assert.equal(scopes[1][2], `write in ${dir} and below`);
  await s.click(await s.find("[data-test=approval-scope-folder]"));
  await shot(s, "approval-scopes.png");
  const v = await axeViolations(s);
  assert.deepEqual(v, [], describeViolations(v));
  await s.click(await s.find("[data-test=approval-always-confirm]"));
  await s.until("the write to happen", () => fs.existsSync(first), 30000);
  const cfg = () =>
    JSON.parse(fs.readFileSync(path.join(app.home, "config.json"), "utf8"))
      .approvals;
  assert.deepEqual(cfg().folders, { write: [dir] });

  // Another file in that folder: no card.
  const second = path.join(dir, "b.txt");
  const waiting = (await cards()).filter((c) => c === "waiting").length;
  await send(s, `write outside ${second}`);
  await s.until("the second write", () => fs.existsSync(second), 30000);
  assert.equal(
    (await cards()).filter((c) => c === "waiting").length,
    waiting,
    "a write in a remembered folder asked",
  );

  await s.click(await s.find("[data-test=nav-settings]"));
  await s.until("the permissions", () =>
    s.exec(
      `return document.querySelectorAll('[data-test=permission-rule]').length === 2`,
    ),
  );
  const kinds = await s.exec(
    `return [...document.querySelectorAll('[data-test=permission-rule]')].map((r) => r.dataset.kind + ': ' + r.querySelector('.words').textContent)`,
  );
  assert.deepEqual(kinds, [
    'bash: the bash command "echo e2e-approved" runs without asking',
    `folder: write runs without asking in ${dir} and below`,
  ]);
  await s.exec(
    `document.querySelector('[data-test=permissions]').scrollIntoView()`,
  );
  await shot(s, "settings-permissions.png");
  const v2 = await axeViolations(s);
  assert.deepEqual(v2, [], describeViolations(v2));
  await s.click(
    (await s.findAll("[data-test=permission-rule][data-kind=folder] [data-test=permission-revoke]"))[0],
  );
  await s.until("the rule to go", () =>
    s.exec(
      `return document.querySelectorAll('[data-test=permission-rule]').length === 1`,
    ),
  );
  assert.deepEqual(cfg().folders, { write: [] });
  assert.deepEqual(cfg().bash, ["echo e2e-approved"], "the other rule stays");
});
