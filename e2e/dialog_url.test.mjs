// An MCP server's URL-mode elicitation in the real window (docs/desktop.md
// "Dialogs", docs/mcp.md "Elicitation"): the real Python `mcp` fixture
// server (installed by `make deps-mcp`) asks through its `ask_url` tool,
// which the fake model calls. The dialog shows the address, nothing is
// opened while it waits, Decline opens nothing, and Open (Enter) opens it.
//
// No browser starts: the app runs with a fake `xdg-open` first on its PATH
// (the opener zot's shell plugin tries first on Linux), a script that only
// writes its argument to a marker file, so the test sees exactly what zot
// asked the desktop to open, and when.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, scratchDir, ROOT } from "./lib/app.mjs";
import { Keys } from "./lib/webdriver.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

const FIX = path.join(ROOT, "extensions/host/tests/fixtures/mcp");
const PYTHON = path.join(FIX, ".venv/bin/python");
const URL = "https://example.com/login";

let app;
let s;
let marker;
before(async () => {
  assert.ok(fs.existsSync(PYTHON), `${PYTHON} missing: run make deps-mcp`);
  const dir = scratchDir("zot-e2e-url-");
  // The fake opener: one line per address it was asked to open. A call
  // without one (a launcher probe) records nothing.
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  marker = path.join(dir, "opened.txt");
  fs.writeFileSync(
    path.join(bin, "xdg-open"),
    `#!/bin/sh\n[ $# -gt 0 ] && printf '%s\\n' "$*" >> '${marker}'\nexit 0\n`,
    { mode: 0o755 },
  );
  // The MCP entry, run from the fixture's venv (absolute paths, so the copy
  // startApp makes of it works as well).
  const entry = path.join(dir, "pyserver");
  fs.mkdirSync(entry);
  fs.writeFileSync(
    path.join(entry, "extension.json"),
    JSON.stringify({ name: "pyserver", kind: "mcp", command: PYTHON, args: [path.join(FIX, "server.py")] }),
  );
  app = await startApp({ exts: [entry], env: { PATH: `${bin}:${process.env.PATH}` } });
  s = app.s;
  // The model sees the server's tools once it is connected: wait for its
  // card to say so, then go back to the chat.
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until(
    "a ready MCP card",
    () =>
      s.exec(
        `return document.querySelector('[data-test=ext-row][data-name="pyserver"] [data-test=ext-state]')?.textContent === "ready"`,
      ),
    30000,
  );
  await s.click(await s.find("[data-test=nav-chat]"));
});
after(async () => app?.stop());

const dialogKind = () => s.exec(`return document.querySelector('[data-test=dialog]')?.dataset.kind ?? null`);
const inDialog = () =>
  s.exec(`return !!document.querySelector('[data-test=dialog]')?.contains(document.activeElement)`);
const opened = () => (fs.existsSync(marker) ? fs.readFileSync(marker, "utf8").split("\n").filter(Boolean) : []);
/** What went back to the model as tool results: the server's answer to
 * the elicitation (its tool returns the action). */
const toolResults = async () =>
  app.llm.requests
    .flatMap((r) => r.body.messages ?? [])
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === "tool_result")
    .map((b) => JSON.stringify(b.content));

/** Has the model call `ask_url` and waits for its dialog, keyboard inside. */
async function askUrl() {
  await send(s, "call the tool ask_url");
  await s.until("the url dialog", async () => (await dialogKind()) === "url", 30000);
  await s.chord([Keys.control, Keys.shift], "a");
  await s.until("Ctrl+Shift+A to reach the dialog", inDialog);
}

test("the URL shows, nothing opens while the dialog waits, and Decline opens nothing", async () => {
  await askUrl();
  assert.deepEqual(await s.texts("[data-test=dialog-url]"), [URL]);
  assert.deepEqual(await s.texts("[data-test=dialog-extension]"), ["pyserver asks"]);
  assert.deepEqual(opened(), [], "an address was opened before the user accepted");
  await shot(s, "dialog-url.png");
  const vs = await axeViolations(s);
  assert.deepEqual(vs, [], describeViolations(vs));
  await s.click(await s.find("[data-test=dialog-decline]"));
  await s.until("the dialog to close", async () => (await dialogKind()) === null);
  await s.until("the server's answer", async () => (await toolResults()).join("\n").includes("decline"), 30000);
  assert.deepEqual(opened(), [], "Decline opened the address");
});

test("Enter (Open) answers accept and opens exactly that address, once", async () => {
  await askUrl();
  assert.deepEqual(opened(), []);
  await s.keys(Keys.enter);
  await s.until("the fake opener to be called", async () => opened().length > 0, 15000);
  assert.deepEqual(opened(), [URL]);
  await s.until("the server's answer", async () => (await toolResults()).join("\n").includes("accept"), 30000);
  assert.deepEqual(opened(), [URL], "opened once");
});
