// The command palette and the shortcuts in the real window: Ctrl+K opens
// it, typing filters, Enter runs or types the command, Esc closes and gives
// focus back; `?` opens the shortcuts sheet; Ctrl+L focuses the editor.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, shot, PROBE } from "./lib/app.mjs";

const CTRL = "\uE009";
const ENTER = "\uE007";
const ESC = "\uE00C";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [PROBE] });
  s = app.s;
});
after(async () => app?.stop());

const paletteOpen = () => s.exec(`return !!document.querySelector('[data-test=palette]')`);
const focused = () =>
  s.exec(`return document.activeElement?.dataset?.test ?? document.activeElement?.tagName`);
const view = () =>
  s.exec(
    `return document.querySelector('[data-test=manager]') ? 'manager' : document.querySelector('[data-test=settings]') ? 'settings' : 'chat'`,
  );

test("Ctrl+K, filter, Enter goes to a view; Esc closes and gives focus back", async () => {
  await s.until("the editor", async () => (await focused()) === "editor");
  await s.chord([CTRL], "k");
  await s.until("the palette", paletteOpen);
  assert.equal(await focused(), "palette-input");
  await s.keys(..."exten");
  await s.until(
    "Extensions first",
    async () => (await s.texts("[data-test=palette-entry] .p-label"))[0] === "Extensions",
  );
  await shot(s, "palette.png");
  await s.keys(ENTER);
  await s.until("the manager", async () => (await view()) === "manager");
  assert.equal(await paletteOpen(), false);

  await s.chord([CTRL], "l");
  await s.until(
    "the chat with the editor focused",
    async () => (await view()) === "chat" && (await focused()) === "editor",
  );
  await s.chord([CTRL], "k");
  await s.until("the palette", paletteOpen);
  await s.keys(ESC);
  await s.until("the palette to close", async () => !(await paletteOpen()));
  assert.equal(await focused(), "editor", "focus went back to the editor");
});

test("an extension's command is typed into the editor for its arguments", async () => {
  await s.chord([CTRL], "k");
  await s.until("the palette", paletteOpen);
  await s.keys(..."/note");
  await s.until(
    "/note listed",
    async () => (await s.texts("[data-test=palette-entry] .p-label"))[0] === "/note",
  );
  await s.keys(ENTER);
  await s.until(
    "the editor to hold /note",
    async () => (await s.exec(`return document.querySelector('[data-test=editor]').value`)) === "/note ",
  );
  await s.keys(..."from the palette", ENTER);
  await s.until("the note", async () =>
    (await s.texts("[data-test=note]")).join("").includes("probe note from the palette"),
  );
});

test("? opens the shortcuts sheet outside text fields, Esc closes it", async () => {
  await s.exec(`document.activeElement.blur(); document.querySelector('[data-test=nav-chat]').focus()`);
  await s.keys("?");
  await s.until("the sheet", () => s.exec(`return !!document.querySelector('[data-test=shortcuts-sheet]')`));
  const text = (await s.texts("[data-test=shortcuts-sheet]")).join("");
  assert.match(text, /Ctrl\+K/);
  assert.match(text, /Ctrl\+J/);
  await shot(s, "shortcuts.png");
  await s.keys(ESC);
  await s.until("the sheet to close", () =>
    s.exec(`return !document.querySelector('[data-test=shortcuts-sheet]')`),
  );
  // In the editor, ? is a character.
  await s.chord([CTRL], "l");
  await s.keys("?");
  assert.equal(await s.exec(`return !!document.querySelector('[data-test=shortcuts-sheet]')`), false);
  assert.equal(await s.exec(`return document.querySelector('[data-test=editor]').value`), "?");
});
