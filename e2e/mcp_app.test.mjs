// MCP Apps (#38 item 2) in the real window: an app built with the
// official `@modelcontextprotocol/ext-apps` package (its App class, from
// the package's self-contained `app-with-deps` build, put into one HTML
// file here) is served as `ui://zot-test/chart` by the real Python MCP
// fixture server (`app_server.py`, `make deps-mcp`). The model calls the
// server's `show_chart`; the card renders the app in its sandboxed frame,
// the app gets the tool's input and result, sizes its card, calls the
// server's `add` back through an approval card, and sends a `ui/message`
// that lands in the chat as a prompt saying which app sent it; a link it
// asks for opens only after the user says so. A tool whose app resource is
// plain HTML shows its result with a note instead.
//
// No browser starts: a fake `xdg-open` (as in dialog_url.test.mjs) records
// what zot asked the desktop to open.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { startApp, send, shot, scratchDir, ROOT } from "./lib/app.mjs";
import { cardState } from "./lib/cards.mjs";

const FIX = path.join(ROOT, "extensions/host/tests/fixtures/mcp");
const PYTHON = path.join(FIX, ".venv/bin/python");
const LIB = path.join(
  FIX,
  "node_modules/@modelcontextprotocol/ext-apps/dist/src/app-with-deps.js",
);
const DOCS = "https://example.com/chart-docs";

/** The package's ES module as a classic script: its one `export{a as B}`
 * becomes `window.McpExtApps = {B: a}`, so the app is one HTML file with
 * no module loading (the frame's policy allows inline scripts only). */
function bundled() {
  const src = fs.readFileSync(LIB, "utf8");
  const m = /export\{([^}]*)\};?\s*$/.exec(src);
  assert.ok(m, "app-with-deps.js no longer ends with one export list");
  const names = m[1].split(",").map((p) => {
    const [local, as] = p.trim().split(/\s+as\s+/);
    return `${JSON.stringify(as ?? local)}:${local}`;
  });
  return `${src.slice(0, m.index)}\nwindow.McpExtApps={${names.join(",")}};`;
}

/** The app: bars from the tool result, three buttons at fixed places (the
 * test clicks them by position: the frame has an opaque origin). */
const html = (port) => `<!doctype html>
<html><head><meta charset="utf-8"><title>chart</title><style>
body { margin: 0; font: 13px sans-serif; color: var(--color-text-primary, var(--zot-fg, #ddd)); background: var(--zot-surface, #222); min-height: 230px; position: relative; }
button { position: absolute; top: 10px; width: 120px; height: 28px; }
#add { left: 10px; } #docs { left: 140px; } #flood { left: 270px; }
#title { position: absolute; top: 48px; left: 10px; margin: 0; font-size: 16px; }
#bars { position: absolute; top: 80px; left: 10px; display: flex; align-items: flex-end; gap: 8px; height: 100px; }
.bar { width: 28px; background: var(--zot-accent, #6cf); }
#sum { position: absolute; top: 190px; left: 10px; margin: 0; }
</style></head><body>
<button id="add">Add 2 + 3</button><button id="docs">Docs</button><button id="flood">Flood</button>
<h1 id="title">waiting for the result…</h1><div id="bars"></div><p id="sum"></p>
<script>${bundled()}</script>
<script>
const { App } = window.McpExtApps;
const app = new App({ name: "zot-e2e-chart", version: "1.0.0" }, {});
app.ontoolinput = (p) => { document.getElementById("title").textContent = "input: " + JSON.stringify(p.arguments); };
app.ontoolresult = (r) => {
  const s = r.structuredContent || {};
  document.getElementById("title").textContent = "Chart: " + s.title;
  document.getElementById("bars").replaceChildren(...(s.bars || []).map((v) => {
    const d = document.createElement("div"); d.className = "bar"; d.style.height = (v * 30) + "px"; return d;
  }));
};
document.getElementById("add").onclick = async () => {
  const sum = document.getElementById("sum");
  try {
    const r = await app.callServerTool({ name: "add", arguments: { a: 2, b: 3 } });
    const text = r.content[0].text;
    sum.textContent = "the server says " + text;
    const title = document.getElementById("title").textContent;
    await app.sendMessage({ role: "user", content: [{ type: "text", text: "The chart app (" + title + ") computed " + text }] });
  } catch (e) {
    sum.textContent = "refused: " + e.message;
  }
};
document.getElementById("docs").onclick = () => app.openLink({ url: ${JSON.stringify(DOCS)} });
// A flood straight through postMessage, past the App class.
document.getElementById("flood").onclick = () => {
  for (let i = 0; i < 10000; i++) window.parent.postMessage({ jsonrpc: "2.0", id: "f" + i, method: "ping" }, "*");
};
// Its resource declares https://api.example.com only: the loopback server
// the test runs must see none of these.
fetch("http://127.0.0.1:${port}/app-fetch").catch(() => {});
const probe = new Image(); probe.src = "http://127.0.0.1:${port}/app-img"; document.body.append(probe);
app.connect();
</script></body></html>`;

let app;
let s;
let marker;
/** Requests the loopback server saw: the app must cause none. */
const hits = [];
let server;
before(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url);
    res.end("ok");
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  assert.ok(fs.existsSync(PYTHON), `${PYTHON} missing: run make deps-mcp`);
  assert.ok(fs.existsSync(LIB), `${LIB} missing: run make deps-mcp`);
  const dir = scratchDir("zot-e2e-app-");
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  marker = path.join(dir, "opened.txt");
  fs.writeFileSync(
    path.join(bin, "xdg-open"),
    `#!/bin/sh\n[ $# -gt 0 ] && printf '%s\\n' "$*" >> '${marker}'\nexit 0\n`,
    { mode: 0o755 },
  );
  const page = path.join(dir, "chart.html");
  fs.writeFileSync(page, html(server.address().port));
  const entry = path.join(dir, "apps");
  fs.mkdirSync(entry);
  fs.writeFileSync(
    path.join(entry, "extension.json"),
    JSON.stringify({
      name: "apps",
      kind: "mcp",
      command: PYTHON,
      args: [path.join(FIX, "app_server.py")],
      env: { APP_HTML: page },
    }),
  );
  app = await startApp({
    exts: [entry],
    approvals: "ask",
    env: { PATH: `${bin}:${process.env.PATH}` },
  });
  s = app.s;
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("a ready MCP server in the manager's list", async () => (await cardState(s, "apps")) === "ready", 30000);
  await s.click(await s.find("[data-test=nav-chat]"));
});
after(async () => {
  await app?.stop();
  server?.close();
});

const opened = () =>
  fs.existsSync(marker)
    ? fs.readFileSync(marker, "utf8").split("\n").filter(Boolean)
    : [];
const waitingApprovals = () =>
  s.exec(
    `return [...document.querySelectorAll('[data-test=approval-card]')].filter((c) => c.querySelector('[data-test=approval-allow]')).map((c) => c.textContent)`,
  );

/** Allows the approval card that names `tool`. */
async function allow(tool) {
  await s.until(
    `an approval for ${tool}`,
    async () => (await waitingApprovals()).some((t) => t.includes(tool)),
    30000,
  );
  const ok = await s.exec(
    `const c = [...document.querySelectorAll('[data-test=approval-card]')].find((c) => c.querySelector('[data-test=approval-allow]') && c.textContent.includes(arguments[0]));
     if (!c) return false; c.querySelector('[data-test=approval-allow]').click(); return true;`,
    [tool],
  );
  assert.ok(ok, `no approval card for ${tool}`);
}

/** Clicks inside the app at (x, y) of its own page. */
async function clickApp(x, y) {
  const r = await s.exec(
    `const f = document.querySelector('[data-test=mcp-app-frame]'); f.scrollIntoView({block: "center"}); const b = f.getBoundingClientRect(); return {x: b.x, y: b.y};`,
  );
  await s.pointerAt(Math.round(r.x + x), Math.round(r.y + y));
}

test("an ext-apps app renders in its card, calls its server back through an approval and writes into the chat", async () => {
  await send(s, "call the tool show_chart");
  await allow("show_chart");
  await s.until(
    "the app's frame loaded",
    () =>
      s.exec(
        `return document.querySelector('[data-test=mcp-app-frame]')?.dataset.loaded === "1"`,
      ),
    30000,
  );
  const uri = await s.exec(
    `return document.querySelector('[data-test=mcp-app]').dataset.uri`,
  );
  assert.equal(uri, "ui://zot-test/chart");
  // Nothing undeclared was reached (its fetch and image ran at load).
  assert.deepEqual(hits, []);
  // The app sized its card (size-changed), within the card's limits.
  await s.until(
    "the card to take the app's height",
    async () => {
      const h = await s.exec(
        `return parseFloat(document.querySelector('[data-test=mcp-app-frame]').style.height)`,
      );
      return h >= 230 && h <= 640;
    },
    20000,
  );
  // The app's own tool call: an approval card like the model's.
  await clickApp(70, 24);
  await allow("add");
  // Answered, that approval (it has no tool card to fold into) is one line
  // naming the call.
  await s.until(
    "the app's approval as one line",
    async () =>
      (await s.texts("[data-test=tool-approval]")).some((t) =>
        t.includes("add from apps: Allowed once by you"),
      ),
    20000,
  );
  // Its result reached the app, which then sent a ui/message: a prompt
  // in the chat that says it came from the app.
  await s.until(
    "the app's message in the chat",
    async () =>
      (await s.texts(".transcript")).join("").includes("computed sum: 5"),
    30000,
  );
  const sentBy = await s.exec(
    `return [...document.querySelectorAll('[data-test=sent-by]')].map((e) => e.textContent)`,
  );
  assert.ok(
    sentBy.some((t) => t.includes("MCP App ui://zot-test/chart (apps)")),
    JSON.stringify(sentBy),
  );
  const prompts = app.llm.requests
    .flatMap((r) => r.body.messages ?? [])
    .filter((m) => m.role === "user");
  // The app had the tool's result (its structuredContent) when it wrote.
  assert.ok(
    JSON.stringify(prompts).includes(
      "The chart app (Chart: sales) computed sum: 5",
    ),
    JSON.stringify(prompts),
  );
  await s.exec(
    `document.querySelector('[data-test=mcp-app]').closest('[data-test=tool-card]').scrollIntoView({block: "start"})`,
  );
  await shot(s, "mcp-app.png");
  // Seconds later, still nothing undeclared reached.
  assert.deepEqual(hits, []);
});

test("a link the app asks for opens only once the user says so", async () => {
  await clickApp(200, 24);
  await s.until("the link question", () =>
    s.exec(`return !!document.querySelector('[data-test=mcp-app-link]')`),
  );
  assert.deepEqual(opened(), []);
  const text = await s.exec(
    `return document.querySelector('[data-test=mcp-app-link]').textContent`,
  );
  assert.ok(text.includes(DOCS), text);
  await s.click(await s.find("[data-test=mcp-app-link-cancel]"));
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(opened(), []);
  await clickApp(200, 24);
  await s.click(await s.find("[data-test=mcp-app-link-open]"));
  await s.until("the link opened", async () => opened().includes(DOCS), 10000);
});

test("a tool whose app resource is plain HTML shows its result with a note", async () => {
  await send(s, "call the tool wrong_mime");
  await allow("wrong_mime");
  await s.until(
    "the note",
    () =>
      s.exec(
        `return [...document.querySelectorAll('[data-test=app-note]')].some((n) => n.textContent.includes("not text/html;profile=mcp-app"))`,
      ),
    30000,
  );
  const frames = await s.exec(
    `return document.querySelectorAll('[data-test=mcp-app-frame]').length`,
  );
  assert.equal(frames, 1);
});

test("a flood from the app is cut and counted in one line, and the window keeps answering", async () => {
  await clickApp(330, 24);
  await s.until(
    "the drop line",
    () =>
      s.exec(
        `return [...document.querySelectorAll('[data-test=mcp-app-line]')].some((l) => /\\d+ of its messages were dropped \\(over 64 a second\\)/.test(l.textContent))`,
      ),
    20000,
  );
  const lines = await s.exec(
    `return [...document.querySelectorAll('[data-test=mcp-app-line]')].filter((l) => l.textContent.includes("dropped")).length`,
  );
  assert.equal(lines, 1);
  const editor = await s.find("[data-test=editor]");
  await s.click(editor);
  await s.type(editor, "still here");
  assert.equal(
    await s.exec(`return document.querySelector('[data-test=editor]').value`),
    "still here",
  );
});
