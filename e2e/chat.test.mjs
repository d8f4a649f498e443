// The chat in the real app: a streamed markdown answer, a tool card, a note
// that clears on the next prompt, and hostile strings that stay inert.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, PROBE, TODO } from "./lib/app.mjs";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [PROBE, TODO] });
  s = app.s;
});
after(async () => app?.stop());

test("a streamed answer renders as markdown with highlighted code", async () => {
  await send(s, "hello there");
  await s.until("the answer", async () => (await s.texts(".row-assistant")).join("").includes("streamed world"));
  assert.deepEqual(await s.texts(".row-user .bubble"), ["hello there"]);
  // The markdown renderer is loaded on first use: plain text may come first.
  await s.until("the markdown", () => s.exec(`return !!document.querySelector('.row-assistant strong')`));
  assert.equal(await s.exec(`return document.querySelector('.row-assistant strong')?.textContent`), "streamed");
  assert.equal(await s.exec(`return document.querySelector('.row-assistant pre .hljs-keyword')?.textContent`), "fn");
  await s.until("the turn to end", async () => !(await s.exec(`return !!document.querySelector('[data-test=busy]')`)));
});

test("a streamed answer lays out exactly as the same answer rendered whole", async () => {
  await send(s, "stream every block kind");
  await s.until("the turn to end", async () => !(await s.exec(`return !!document.querySelector('[data-test=busy]')`)));
  // The streamed row keeps its blocks, each in a wrapper of its own, in
  // groups of 16; a full group is contained (content-visibility), so no
  // margin collapses across its edge. Beside it goes the same HTML
  // unwrapped, as a message rendered whole has it, and every block must
  // sit at the same place.
  const r = await s.exec(`
    const md = [...document.querySelectorAll('.row-assistant .markdown')].pop();
    const blocks = [...md.querySelectorAll('.md-block')];
    const whole = md.cloneNode(true);
    for (const w of whole.querySelectorAll('.md-chunk, .md-block')) w.replaceWith(...w.childNodes);
    md.after(whole);
    const place = (root, els) => els.map((e) => {
      const a = root.getBoundingClientRect(), b = e.getBoundingClientRect();
      return [e.tagName, Math.round((b.top - a.top) * 2) / 2, Math.round(b.height * 2) / 2];
    });
    const out = {
      blocks: blocks.length,
      contained: [...md.querySelectorAll('.md-chunk')].map((c) => getComputedStyle(c).contentVisibility),
      streamed: place(md, blocks.flatMap((w) => [...w.children])),
      whole: place(whole, [...whole.children]),
      heights: [md.getBoundingClientRect().height, whole.getBoundingClientRect().height],
    };
    whole.remove();
    return out;`);
  assert.equal(r.blocks, 33, "one wrapper per block of EVERY_BLOCK, three times");
  assert.deepEqual(r.contained, ["auto", "auto", "visible"], "the full groups are contained, the last is not");
  assert.deepEqual(r.streamed, r.whole);
  assert.equal(r.heights[0], r.heights[1]);
});

test("a tool call shows as a collapsible card with args, result and extension", async () => {
  await send(s, "please use the tool");
  await s.until("the final answer", async () => (await s.texts(".row-assistant")).join("").includes("The tool ran."));
  const head = await s.texts("[data-test=tool-card] .tool-head");
  assert.equal(head.length, 1);
  assert.match(head[0], /todo_manage/);
  assert.match(head[0], /\[todo\]/);
  assert.match(head[0], /done/);
  await s.click(await s.find("[data-test=tool-card] .tool-head"));
  const body = await s.until("the card to open", async () => (await s.texts("[data-test=tool-card] .tool-body"))[0]);
  assert.match(body, /from the model/);
  assert.match(body, /result/);
});

test("a note appears with its extension, then clears on the next prompt", async () => {
  await send(s, "/note");
  await s.until("the note", async () => (await s.texts("[data-test=note]")).join("").includes("probe note"));
  const note = (await s.texts("[data-test=note]"))[0];
  assert.match(note, /\[probe\]/);
  assert.equal(await s.exec(`return document.querySelector('[data-test=note]').classList.contains('level-warn')`), true);
  await send(s, "hello again");
  await s.until("the notes to clear", async () => (await s.texts("[data-test=note]")).length === 0);
});

test("model text, notes and display text with markup stay inert", async () => {
  await send(s, "xss please");
  await s.until("the xss answer", async () => (await s.texts(".row-assistant")).join("").includes("Inert:"));
  await send(s, "/xss");
  await s.until("the xss note", async () => (await s.texts("[data-test=note]")).length === 2);
  const result = await s.exec(`
    const scope = document.querySelectorAll('.transcript, .notes');
    let tags = 0, jsLinks = 0, handlers = 0;
    for (const root of scope) {
      tags += root.querySelectorAll('script, img, iframe, object, embed').length;
      jsLinks += [...root.querySelectorAll('a')].filter(a => /^\\s*javascript:/i.test(a.getAttribute('href') || '')).length;
      handlers += [...root.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length;
    }
    return { pwned: window.__pwned ?? null, tags, jsLinks, handlers,
             text: [...scope].map(e => e.textContent).join('\\n') };`);
  assert.equal(result.pwned, null);
  assert.equal(result.tags, 0);
  assert.equal(result.jsLinks, 0);
  assert.equal(result.handlers, 0);
  assert.match(result.text, /<script>window.__pwned = 1<\/script>/);
  assert.match(result.text, /<img src=x onerror="window.__pwned = 2">/);
  assert.match(result.text, /display <script>window.__pwned = 4<\/script>/);
});

test("/clear empties the chat and the notes", async () => {
  await send(s, "/note two");
  await s.until("the note", async () => (await s.texts("[data-test=note]")).length === 1);
  await send(s, "/clear");
  await s.until("an empty chat", async () => (await s.texts(".transcript .row")).length === 0 && (await s.texts("[data-test=note]")).length === 0);
});

test("/reload-ext shows a temporary status that dismisses itself", async () => {
  await send(s, "/reload-ext");
  await s.until("the reload status", async () => (await s.texts("[data-test=status]")).join("").includes("extensions reloaded"));
  await s.until("the status to go", async () => (await s.texts("[data-test=status]")).length === 0, 15000);
});

test("Esc in the editor clears the notes", async () => {
  await send(s, "/note three");
  await s.until("the note", async () => (await s.texts("[data-test=note]")).length === 1);
  await s.click(await s.find("[data-test=editor]"));
  await s.keys("\uE00C");
  await s.until("the notes to clear", async () => (await s.texts("[data-test=note]")).length === 0);
});
