// OS notifications in the real window (#18): off by default; with a kind on
// and the window unfocused, the desktop's notification daemon gets one that
// names the project; with the window focused, none. The daemon is a fake
// on a private session bus that records each Notify call, and the focus is
// moved with xdotool to a second X window, so "unfocused" is real.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, scratchDir, PROBE } from "./lib/app.mjs";
import { startNotificationServer, appWindow, otherWindow, focus } from "./lib/notifications.mjs";

let server;
let app;
let s;
let other;
let win;
before(async () => {
  server = await startNotificationServer(scratchDir("zot-e2e-notify-"));
  // approvals: null keeps the window's `ask` mode, so a bash call waits.
  app = await startApp({
    exts: [PROBE],
    approvals: null,
    env: { DBUS_SESSION_BUS_ADDRESS: server.address },
  });
  s = app.s;
  win = appWindow(app.pid);
  other = await otherWindow();
});
after(async () => {
  await app?.stop();
  other?.close();
  server?.stop();
});

const answers = async () => (await s.texts(".row-assistant")).length;
const hasFocus = () => s.exec(`return document.hasFocus()`);

async function unfocus() {
  focus(other.id);
  await s.until("the window to lose the focus", async () => !(await hasFocus()));
}

async function refocus() {
  focus(win);
  await s.until("the window to have the focus", hasFocus);
}

/** Sends a prompt the fake LLM answers with text, and waits for the answer. */
async function ask(text) {
  const before = await answers();
  await send(s, text);
  await s.until(`the answer to "${text}"`, async () => (await answers()) > before, 30000);
}

const notified = (n) => s.until(`${n} notification(s)`, () => server.received().length >= n, 30000);

/** Turns a kind on in Settings, by a click or (`byKeyboard`) by focusing its
 * box and pressing Space, and waits until config.json changed. */
async function toggle(kind, { byKeyboard = false } = {}) {
  await s.click(await s.find("[data-test=nav-settings]"));
  const saved = () => fs.readFileSync(path.join(app.home, "config.json"), "utf8");
  const was = fs.existsSync(path.join(app.home, "config.json")) ? saved() : "";
  const box = await s.find(`[data-test=notify-${kind}]`);
  if (byKeyboard) {
    await s.exec(`document.querySelector('[data-test=notify-${kind}]').focus()`);
    await s.keys("\uE00D");
  } else {
    await s.click(box);
  }
  await s.until(`${kind} to be saved`, () => fs.existsSync(path.join(app.home, "config.json")) && saved() !== was);
  await s.click(await s.find("[data-test=nav-chat]"));
}

test("Settings › Notifications: three labelled boxes, all off by default", async () => {
  await s.click(await s.find("[data-test=nav-settings]"));
  const boxes = await s.exec(
    `return [...document.querySelectorAll('[data-test=notifications] input[type=checkbox]')]
       .map((b) => [b.closest('label').textContent.trim(), b.checked])`,
  );
  assert.deepEqual(boxes, [
    ["A turn ends", false],
    ["A tool call waits for your approval", false],
    ["An extension crashes or fails to start", false],
  ]);
  await s.exec(`document.querySelector('[data-test=notifications]').scrollIntoView({block: 'center'})`);
  await shot(s, "settings-notifications.png");
  await s.click(await s.find("[data-test=nav-chat]"));
});

test("a turn ending while the window is unfocused notifies only once its kind is on", async () => {
  await unfocus();
  // Off (the default): nothing.
  await ask("hello while everything is off");
  await toggle("turn_end", { byKeyboard: true });
  const config = JSON.parse(fs.readFileSync(path.join(app.home, "config.json"), "utf8"));
  assert.deepEqual(config.notifications, { turn_end: true, approval: false, extension_crash: false });
  // Clicking through WebDriver must not have moved the X focus back.
  assert.equal(await hasFocus(), false);
  await ask("hello while unfocused");
  await notified(1);
  // Exactly one: the first turn ended with the kind off.
  assert.deepEqual(
    server.received().map((n) => [n.summary, n.body]),
    [["Turn finished — project", "zot has answered."]],
  );
});

test("a turn ending while the window is focused does not notify", async () => {
  await refocus();
  await ask("hello while focused");
  await unfocus();
  await ask("hello after looking away");
  await notified(2);
  // The focused turn added none: the second is the unfocused one.
  assert.equal(server.received().length, 2);
});

test("an extension crash and an approval name the extension, the tool and the project", async () => {
  await toggle("extension_crash");
  await toggle("approval");
  await unfocus();
  const before = server.received().length;
  await send(s, "/crash");
  await notified(before + 1);
  const crash = server.received()[before];
  assert.equal(crash.summary, "Extension 'probe' crashed — project");
  assert.ok(crash.body.includes("probe"), crash.body);

  await send(s, "run the command");
  await notified(before + 2);
  const approval = server.received()[before + 1];
  assert.equal(approval.summary, "Approval needed — project");
  assert.ok(approval.body.startsWith("zot wants to run 'bash'"), approval.body);
  assert.ok(server.received().every((n) => n.app_name === "zot"), JSON.stringify(server.received()));
});
