// Extension panels in the real app: the todo example driven by keys, the
// probe fixture checking what the extension receives, ANSI and hostile
// lines, big and flooding panels, and a crashing owner.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, shot, probeFrames, PROBE, TODO } from "./lib/app.mjs";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [TODO, PROBE] });
  s = app.s;
});
after(async () => app?.stop());

const panelText = () => s.texts("[data-test=panel-body] .pline");
const panelOpen = () => s.exec(`return !!document.querySelector('[data-test=panel]')`);

test("/todo opens the todo panel; arrows and x change it; Esc closes it", async () => {
  await send(s, "hello there");
  await s.until("the answer", async () => (await s.texts(".row-assistant")).join("").includes("streamed world"));
  await send(s, "/todo ship the desktop app");
  await send(s, "/todo write the docs");
  await send(s, "/todo");
  await s.until("the todo panel", panelOpen);
  await s.until("both items", async () => (await panelText()).join("\n").includes("write the docs"));
  assert.match((await s.texts("[data-test=panel-title]"))[0], /todo/i);
  const before = (await panelText()).join("\n");
  await s.keys("\uE015"); // down
  await s.until("the cursor to move", async () => (await panelText()).join("\n") !== before);
  const moved = (await panelText()).join("\n");
  await s.keys("x");
  await s.until("the item to toggle", async () => (await panelText()).join("\n") !== moved);
  await shot(s, "chat-panel-dark.png");
  await send(s, "/theme light");
  await s.until("the light theme", async () => (await s.exec(`return document.documentElement.dataset.theme`)) === "light");
  await send(s, "/todo");
  await s.until("the todo panel", panelOpen);
  await shot(s, "chat-panel-light.png");
  await send(s, "/theme dark");
  await send(s, "/todo");
  await s.until("the todo panel", panelOpen);
  await s.click(await s.find("[data-test=panel]"));
  await s.keys("\uE00C"); // Esc
  await s.until("the panel to close", async () => !(await panelOpen()));
});

test("keys reach the owner as panel_key; Esc sends panel_close", async () => {
  await send(s, "/probe");
  await s.until("the probe panel", panelOpen);
  await s.keys("\uE015", "q", "\uE006"); // down, q, Enter
  await s.until("the probe to see enter", async () => (await panelText()).join("\n").includes("last key: enter"));
  await s.keys("\uE00C");
  await s.until("the panel to close", async () => !(await panelOpen()));
  await s.until("panel_close at the probe", () => probeFrames(app).some((f) => f.type === "panel_close"));
  const keys = probeFrames(app).filter((f) => f.type === "panel_key").map((f) => f.key + (f.text ? ":" + f.text : ""));
  assert.deepEqual(keys, ["down", "rune:q", "enter"]);
});

test("clicking the editor unfocuses the panel and clicking the panel focuses it", async () => {
  await send(s, "/probe");
  await s.until("the probe panel", panelOpen);
  await s.click(await s.find("[data-test=editor]"));
  await s.until("the panel to lose focus", async () => !(await s.exec(`return document.querySelector('[data-test=panel]').classList.contains('focused')`)));
  await s.keys("z");
  assert.equal(await s.exec(`return document.querySelector('[data-test=editor]').value`), "z");
  await s.keys("\uE003"); // Backspace in the editor
  await s.click(await s.find("[data-test=panel]"));
  await s.keys("w");
  await s.until("the probe to see w", async () => (await panelText()).join("\n").includes("last key: rune w"));
  await s.keys("\uE00C");
  await s.until("the panel to close", async () => !(await panelOpen()));
});

test("panel lines render SGR colours and show everything else as inert text", async () => {
  await send(s, "/probe");
  await s.until("the probe panel", panelOpen);
  const r = await s.exec(`
    const p = document.querySelector('[data-test=panel]');
    return { green: p.querySelector('.ansi-fg-2')?.textContent, bold: !!p.querySelector('.ansi-bold.ansi-fg-1'),
             tags: p.querySelectorAll('script, img, b').length, pwned: window.__pwned ?? null, text: p.textContent,
             title: p.querySelector('[data-test=panel-title]').textContent };`);
  assert.equal(r.green, "green");
  assert.equal(r.bold, true);
  assert.equal(r.tags, 0);
  assert.equal(r.pwned, null);
  assert.match(r.text, /␛\[2J/);
  assert.match(r.text, /␛\]0;pwn␇/);
  assert.match(r.text, /<img src=x onerror="window.__pwned = 5">/);
  assert.equal(r.title, "Probe <b>panel</b>");
  await s.keys("\uE00C");
  await s.until("the panel to close", async () => !(await panelOpen()));
});

test("a 10⁴-line panel and 100 renders a second keep the UI responsive", async () => {
  await send(s, "/probe big");
  await s.until("the big panel", panelOpen);
  const rows = await s.exec(`return document.querySelectorAll('[data-test=panel-body] .pline').length`);
  assert.ok(rows < 200, `only visible rows are in the DOM (got ${rows})`);
  await s.exec(`const b = document.querySelector('[data-test=panel-body]'); b.scrollTop = b.scrollHeight;`);
  await s.until("the last row", async () => (await panelText()).join("\n").includes("row 9999"));
  await s.keys("\uE00C");
  await s.until("the panel to close", async () => !(await panelOpen()));

  await send(s, "/probe flood");
  await s.until("the flood", async () => (await panelText()).join("\n").includes("flood 1"));
  await s.click(await s.find("[data-test=editor]"));
  await s.keys("o", "k");
  assert.equal(await s.exec(`return document.querySelector('[data-test=editor]').value`), "ok");
  await s.until("the flood to finish", async () => (await panelText()).join("\n").includes("flood 199"));
  await s.keys("\uE003", "\uE003");
  await s.click(await s.find("[data-test=panel]"));
  await s.keys("\uE00C");
  await s.until("the panel to close", async () => !(await panelOpen()));
});

test("several open panels are tabs; the selected tab gets the keys", async () => {
  await send(s, "/todo");
  await s.until("the todo panel", panelOpen);
  await send(s, "/probe");
  const tabs = () => s.texts("[data-test=panel] [role=tab]");
  await s.until("two tabs", async () => (await tabs()).length === 2);
  assert.deepEqual((await tabs()).map((t) => (/todo/i.test(t) ? "todo" : /Probe/.test(t) ? "probe" : t)).sort(), ["probe", "todo"]);
  const title = async () => (await s.texts("[data-test=panel-title]"))[0];
  assert.match(await title(), /Probe/, "the newest panel is shown");
  // Switch to the todo tab: its lines show and keys go to the todo extension.
  await s.click(await s.find("[data-test=panel] [role=tab]:not(.on)"));
  await s.until("the todo tab", async () => /todo/i.test(await title()));
  const before = probeFrames(app).filter((f) => f.type === "panel_key").length;
  await s.keys("\uE015");
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(probeFrames(app).filter((f) => f.type === "panel_key").length, before, "the probe got no key meant for todo");
  // Back to the probe tab: keys reach the probe again.
  await s.click(await s.find("[data-test=panel] [role=tab]:not(.on)"));
  await s.until("the probe tab", async () => /Probe/.test(await title()));
  await s.keys("w");
  await s.until("the probe to see w", async () => (await panelText()).join("\n").includes("last key: rune w"));
  // Esc closes the selected panel only; the other stays as the only one.
  await s.keys("\uE00C");
  await s.until("one panel left", async () => (await tabs()).length === 0 && /todo/i.test(await title()));
  await s.click(await s.find("[data-test=panel]"));
  await s.keys("\uE00C");
  await s.until("the panel to close", async () => !(await panelOpen()));
});

test("a crashed panel owner: its panel closes and the chat says why", async () => {
  await send(s, "/probe");
  await s.until("the probe panel", panelOpen);
  await send(s, "/crash");
  await s.until("the panel to close", async () => !(await panelOpen()));
  await s.until("the failure in the chat", async () => (await s.texts("[data-test=ext-error]")).join("").includes("probe"));
  const text = (await s.texts("[data-test=ext-error]")).join("\n");
  assert.match(text, /ext-probe\.log/);
  assert.match(text, /View log/);
});
