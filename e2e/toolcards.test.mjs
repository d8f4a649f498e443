// Tool cards in the real window: an edit shows a highlighted diff of the
// change, a bash call shows its command, exit status 3 and its ANSI colour
// as styled spans, its 30 lines fold to 20 and unfold by keyboard, Copy
// puts the output on the clipboard, and the transcript with these cards
// passes axe with no serious or critical violation.
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

const card = (tool) => `[data-test=tool-card][data-tool=${tool}]`;
/** Focuses an element and presses Enter on it, as a keyboard user would. */
async function enterOn(css) {
  await s.exec(`document.querySelector(arguments[0]).focus()`, [css]);
  await s.keys("\uE007");
}

test("an edit card shows the change as a highlighted diff", async () => {
  const file = path.join(app.tmp, "project", "main.rs");
  fs.writeFileSync(file, "fn main() {\n    let x = 1;\n}\n");
  await send(s, "edit the file main.rs");
  await s.until(
    "the edit to happen",
    () => fs.readFileSync(file, "utf8").includes("let x = 2;"),
    30000,
  );
  await s.until("the turn to end", async () =>
    (await s.texts(".transcript")).join("").includes("The tool ran."),
  );
  await enterOn(`${card("edit")} .tool-head`);
  await s.until("the diff", () =>
    s.exec(`return !!document.querySelector(arguments[0])`, [
      `${card("edit")} [data-test=tool-diff]`,
    ]),
  );
  const diff = await s.exec(
    `const d = document.querySelector(arguments[0]);
     return { del: [...d.querySelectorAll('.op-del')].map((n) => n.textContent),
              add: [...d.querySelectorAll('.op-add')].map((n) => n.textContent),
              keywords: d.querySelectorAll('.hljs-keyword').length }`,
    [`${card("edit")} [data-test=tool-diff]`],
  );
  assert.deepEqual(diff.del, ["-let x = 1;"]);
  assert.deepEqual(diff.add, ["+let x = 2;"]);
  assert.ok(diff.keywords >= 2, "rust keywords are highlighted");
  await shot(s, "diff-card.png");
});

test("a bash card shows the command, exit status and colour; long output folds; copy works", async () => {
  await send(s, "run bash");
  await s.until(
    "the bash card to finish",
    async () =>
      (await s.exec(
        `return document.querySelector(arguments[0])?.textContent ?? ''`,
        [`${card("bash")} [data-test=tool-state]`],
      )) === "exit 3",
    30000,
  );
  await enterOn(`${card("bash")} .tool-head`);
  await s.until("the output", () =>
    s.exec(`return !!document.querySelector(arguments[0])`, [
      `${card("bash")} [data-test=tool-output]`,
    ]),
  );
  const body = await s.exec(
    `const c = document.querySelector(arguments[0]);
     const out = c.querySelector('[data-test=tool-output]');
     return { cmd: c.querySelector('[data-test=tool-cmd]').textContent,
              exit: c.querySelector('[data-test=tool-exit]').textContent,
              red: [...out.querySelectorAll('.ansi-fg-1')].map((n) => n.textContent),
              lines: out.querySelectorAll('.pline').length,
              raw: out.textContent.includes('\\u001b'),
              more: c.querySelector('[data-test=show-all]')?.textContent }`,
    [card("bash")],
  );
  assert.ok(body.cmd.includes("seq 1 29; exit 3"), body.cmd);
  assert.equal(body.exit, "exit 3");
  assert.deepEqual(body.red, ["red alert"]);
  assert.equal(body.raw, false, "no raw escape reaches the page");
  assert.equal(body.lines, 20);
  assert.equal(body.more, "Show all 30 lines");

  await enterOn(`${card("bash")} [data-test=show-all]`);
  await s.until(
    "all 30 lines",
    async () =>
      (await s.exec(`return document.querySelectorAll(arguments[0]).length`, [
        `${card("bash")} .pline`,
      ])) === 30,
  );

  await enterOn(`${card("bash")} [data-test=copy]`);
  await s.until(
    "the copy feedback",
    async () =>
      (await s.exec(`return document.querySelector(arguments[0]).textContent`, [
        `${card("bash")} [data-test=copy]`,
      ])) === "Copied",
  );
  const read = await s.execAsync(
    `const done = arguments[arguments.length - 1];
     navigator.clipboard.readText().then((t) => done({ ok: true, t }), (e) => done({ ok: false, e: String(e) }));`,
  );
  if (read.ok)
    assert.ok(
      read.t.startsWith("\u001b[31mred alert") && read.t.includes("29"),
      JSON.stringify(read.t),
    );
  else
    console.log(
      `clipboard not readable from the page (${read.e}); checked the button's feedback`,
    );
});

test("a markdown code block has a Copy button", async () => {
  await send(s, "hello");
  await s.until("the code block's copy button", () =>
    s.exec(`return !!document.querySelector('[data-test=code-copy]')`),
  );
  const btn = `.row-assistant [data-test=code-copy]`;
  await s.exec(
    `const all = document.querySelectorAll(arguments[0]); all[all.length - 1].focus()`,
    [btn],
  );
  await s.keys("\uE007");
  await s.until("Copied", () =>
    s.exec(
      `const all = document.querySelectorAll(arguments[0]); return all[all.length - 1].textContent === 'Copied'`,
      [btn],
    ),
  );
});

test("the transcript with these cards passes axe", async () => {
  const vs = await axeViolations(s);
  assert.deepEqual(vs, [], describeViolations(vs));
});
