// "Rewind to here" in the real window (docs/desktop.md "Checkpoints"):
// after a prompt edited a file, the prompt's row offers a rewind; its
// preview shows the file as the diff card (now → at the checkpoint) and a
// confirmation; rewinding code and conversation puts the file back and
// takes the prompt out of the chat. The dialog passes axe.
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

test("Rewind to here previews the file as a diff card and puts it back", async () => {
  const file = path.join(app.tmp, "project", "MixedCase.rs");
  fs.writeFileSync(file, "fn main() {\n    let x = 1;\n}\n");
  await send(s, "edit the file MixedCase.rs");
  await s.until("the turn to end", async () =>
    (await s.texts(".transcript")).join("").includes("The tool ran."),
  );
  assert.ok(fs.readFileSync(file, "utf8").includes("let x = 2;"));

  await s.click(await s.find(".row-user [data-test=rewind-here]"));
  await s.until("the preview", () =>
    s.exec(`return !!document.querySelector("[data-test=rewind-file][data-path='MixedCase.rs']")`),
  );
  const card = "[data-test=rewind-dialog] [data-test=tool-card]";
  const count = await s.exec(
    `return document.querySelector(arguments[0])?.textContent`,
    [`${card} [data-test=diff-count]`],
  );
  assert.equal(count, "+1 −1");
  await s.click(await s.find(`${card} .tool-head`));
  await s.until("the diff lines", () =>
    s.exec(`return !!document.querySelector(arguments[0])`, [`${card} [data-test=tool-diff]`]),
  );
  await shot(s, "rewind-preview.png");
  const v = await axeViolations(s);
  assert.equal(v.length, 0, describeViolations(v));

  await s.click(await s.find("[data-test=rewind-both]"));
  await s.until("the dialog to close", async () =>
    !(await s.exec(`return !!document.querySelector("[data-test=rewind-dialog]")`)),
  );
  assert.ok(fs.readFileSync(file, "utf8").includes("let x = 1;"), "the file is back");
  await s.until("the rewound chat", async () => {
    const t = (await s.texts(".transcript")).join("");
    return t.includes("rewind: 1 file restored") && !t.includes("edit the file MixedCase.rs");
  });
  await shot(s, "rewind-done.png");

  // The rewind of code is undoable from the window.
  await s.click(await s.find("[data-test=rewind-undo]"));
  await s.until("the undo", async () => fs.readFileSync(file, "utf8").includes("let x = 2;"));
  await s.until("the undo's status line", async () =>
    (await s.texts(".transcript")).join("").includes("rewind undone: 1 file restored"),
  );
});
