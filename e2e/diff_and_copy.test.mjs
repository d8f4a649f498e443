// Two pieces of polish in the real window: a collapsed edit card says how
// many lines it adds and removes ("+1 −1") and, opened, shows its path in
// the path's own case; an assistant message has a Copy button that puts
// its markdown source on the clipboard. The transcript passes axe.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot } from "./lib/app.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
let s;
before(async () => {
  app = await startApp();
  s = app.s;
});
after(async () => app?.stop());

const edit = "[data-test=tool-card][data-tool=edit]";

test("a collapsed edit card says +N −M; its path keeps its case", async () => {
  const file = path.join(app.tmp, "project", "MixedCase.rs");
  fs.writeFileSync(file, "fn main() {\n    let x = 1;\n}\n");
  await send(s, "edit the file MixedCase.rs");
  await s.until("the turn to end", async () =>
    (await s.texts(".transcript")).join("").includes("The tool ran."),
  );
  const count = await s.exec(
    `return document.querySelector(arguments[0])?.textContent`,
    [`${edit} .tool-head [data-test=diff-count]`],
  );
  assert.equal(count, "+1 −1");
  await s.click(await s.find(`${edit} .tool-head`));
  await s.until("the path label", () =>
    s.exec(`return !!document.querySelector(arguments[0])`, [
      `${edit} [data-test=tool-path]`,
    ]),
  );
  const label = await s.exec(
    `const l = document.querySelector(arguments[0]);
     return { text: l.innerText, transform: getComputedStyle(l).textTransform }`,
    [`${edit} [data-test=tool-path]`],
  );
  assert.equal(label.transform, "none");
  assert.ok(label.text.includes("MixedCase.rs"), label.text);
  await shot(s, "diff-card-counts.png");
});

test("an assistant message's Copy puts its markdown source on the clipboard", async () => {
  const btn = ".row-assistant .msg-actions [data-test=copy]";
  await s.click(await s.find(btn));
  await s.until(
    "the copy feedback",
    async () =>
      (await s.exec(`return document.querySelector(arguments[0]).textContent`, [
        btn,
      ])) === "Copied",
  );
  const read = await s.execAsync(
    `const done = arguments[arguments.length - 1];
     navigator.clipboard.readText().then((t) => done({ ok: true, t }), (e) => done({ ok: false, e: String(e) }));`,
  );
  // The page renders "**Done.**" in bold; the copy is the source.
  if (read.ok) assert.ok(read.t.includes("**Done.**"), JSON.stringify(read.t));
  else
    console.log(
      `clipboard not readable from the page (${read.e}); checked the button's feedback`,
    );
  const v = await axeViolations(s);
  assert.equal(v.length, 0, describeViolations(v));
});

test("the last prompt has Edit, which puts it in the editor, and Retry, which sends it again", async () => {
  const users = () => s.texts(".row-user .bubble");
  const before = (await users()).length;
  const last = (await users()).at(-1);
  await s.click(await s.find("[data-test=edit-prompt]"));
  await s.until("the prompt in the editor", async () =>
    (await s.exec(`return document.querySelector('[data-test=editor]').value`)) === last,
  );
  await s.exec(`const e = document.querySelector('[data-test=editor]'); e.value = ''; e.dispatchEvent(new Event('input'));`);
  await s.click(await s.find("[data-test=retry]"));
  await s.until("the same prompt sent again", async () => {
    const u = await users();
    return u.length === before + 1 && u.at(-1) === last;
  }, 30000);
  await s.until("its answer", async () => (await s.exec(`return !!document.querySelector('[data-test=retry]')`)), 30000);
  assert.equal(await s.exec(`return document.querySelectorAll('[data-test=retry]').length`), 1, "Retry only on the last prompt");
  const v = await axeViolations(s);
  assert.equal(v.length, 0, describeViolations(v));
});
