// Dialogs in the real window (docs/desktop.md "Dialogs"), each kind by
// keyboard alone, asked by a Python fixture extension through the SDK: a
// dialog raised while the editor has the focus leaves it there (typing
// goes on in the editor), Ctrl+Shift+A reaches it, Enter/Escape/arrows
// answer, a long select filters as the user types, a form checks each
// field as the user types and refuses OK until it fits, and focus goes
// back to the editor after. Two at once show one with "1 more waiting".
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { startApp, send, shot, ROOT } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

const ASKER = path.join(ROOT, "e2e", "fixtures", "asker");

let app;
let s;
before(async () => {
  app = await startApp({ exts: [ASKER] });
  s = app.s;
});
after(async () => app?.stop());

const dialogKind = () => s.exec(`return document.querySelector('[data-test=dialog]')?.dataset.kind ?? null`);
const inDialog = () =>
  s.exec(`return !!document.querySelector('[data-test=dialog]')?.contains(document.activeElement)`);
const editorFocused = () =>
  s.exec(`return document.activeElement === document.querySelector('[data-test=editor]')`);
const notes = () => s.texts("[data-test=note]");
const answered = (text) => s.until(`the note "${text}"`, async () => (await notes()).some((n) => n.includes(text)));

/** Raises a dialog from the editor and brings the keyboard into it. */
async function ask(command, kind) {
  await send(s, command);
  await s.until(`the ${kind} dialog`, async () => (await dialogKind()) === kind);
  assert.ok(await editorFocused(), "the dialog took the focus from the editor");
  await s.chord([Keys.control, Keys.shift], "a");
  await s.until("Ctrl+Shift+A to reach the dialog", inDialog);
}

test("a confirm: Enter says yes, and the keyboard goes back to the editor", async () => {
  await ask("/ask-confirm", "confirm");
  const who = await s.texts("[data-test=dialog-extension]");
  assert.deepEqual(who, ["asker asks"]);
  await shot(s, "dialog-confirm.png");
  const vs = await axeViolations(s);
  assert.deepEqual(vs, [], describeViolations(vs));
  await s.keys(Keys.enter);
  await answered("answer: accept true");
  await s.until("the editor to have the keyboard again", editorFocused);
});

test("a confirm: Escape cancels without stopping anything else", async () => {
  await ask("/ask-confirm", "confirm");
  await s.keys(Keys.escape);
  await answered("answer: cancel null");
});

test("a long select filters as the user types; arrows move; Enter picks", async () => {
  await ask("/ask-pick", "select");
  await s.keys("a", "p");
  await s.until("the filter to keep apple, apricot and grape", async () => {
    const opts = await s.texts("[data-test=dialog-option]");
    return opts.join(",") === "apple,apricot,grape";
  });
  await shot(s, "dialog-select.png");
  await s.keys(Keys.down, Keys.enter);
  await answered('answer: accept "apricot"');
});

test("an input takes the typed text", async () => {
  await ask("/ask-name", "input");
  await s.keys("g", "r", "o", "c", "e", "r", "i", "e", "s", Keys.enter);
  await answered('answer: accept "groceries"');
});

test("a form checks each field as the user types and answers when it fits", async () => {
  await ask("/ask-item", "form");
  // The title first (it has the focus), then Tab to the date.
  await s.keys("m", "i", "l", "k", Keys.tab, "2", "0", "2", "6", "-", "1", "3");
  await s.until("the date's error", async () =>
    (await s.texts("[data-test=dialog-field-error]")).some((t) => t.includes("must be a date")),
  );
  const disabled = await s.exec(`return document.querySelector('[data-test=dialog-accept]').disabled`);
  assert.equal(disabled, true, "OK is enabled with a bad date");
  await shot(s, "dialog-form-error.png");
  const vs = await axeViolations(s);
  assert.deepEqual(vs, [], describeViolations(vs));
  // Enter with a bad field does not answer.
  await s.keys(Keys.enter);
  assert.equal(await dialogKind(), "form");
  for (let i = 0; i < 2; i++) await s.keys(Keys.backspace);
  await s.keys("1", "2", "-", "2", "4");
  await s.until("the error to go", async () => (await s.texts("[data-test=dialog-field-error]")).length === 0);
  await s.keys(Keys.enter);
  await answered('answer: accept {"due": "2026-12-24", "title": "milk", "urgent": false}');
});

test("two at once: one shows, with what waits", async () => {
  await ask("/ask-two", "confirm");
  await s.until("the count of what waits", async () =>
    (await s.texts("[data-test=dialog-waiting]")).join("").includes("1 more waiting"),
  );
  await shot(s, "dialog-queue.png");
  await s.keys(Keys.enter);
  // The next one keeps the keyboard.
  await s.until("the second dialog", async () =>
    (await s.texts("[data-test=dialog-title]")).some((t) => t.includes("question")),
  );
  await s.until("the keyboard in the second dialog", inDialog);
  await s.keys(Keys.escape);
  // Which of the two asked first is the extension's threads' business.
  await s.until("both answers", async () =>
    (await notes()).some((n) => n.includes("answer: accept true") && n.includes("answer: cancel null")),
  );
});
