// A long extension tool call in the real app (docs/desktop.md "Long tool
// calls"): its card shows a progress bar and the output so far while it
// runs, and Stop reaches the extension as tool_cancel.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, ROOT } from "./lib/app.mjs";

const SLOW = path.join(ROOT, "e2e", "fixtures", "slow-tool");
let app;
let s;
before(async () => {
  app = await startApp({ exts: [SLOW] });
  s = app.s;
});
after(async () => app?.stop());

/** Frames the fixture received (it logs them in its data dir). */
function frames() {
  const found = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === "frames.jsonl") found.push(p);
    }
  };
  walk(app.home);
  walk(path.join(app.tmp, "exts"));
  return found.flatMap((f) =>
    fs.readFileSync(f, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l)),
  );
}

const card = `[data-test=tool-card][data-tool=slow_build]`;

test("the card shows a progress bar and partial output, and Stop sends tool_cancel", async () => {
  await send(s, "run the slow build");
  await s.until("a progress bar in the card", () =>
    s.exec(`return !!document.querySelector('${card} [data-test=tool-progress-bar]')`),
  );
  await s.until("partial output streaming in", async () => {
    const t = await s.exec(`return document.querySelector('${card} [data-test=tool-partial]')?.textContent ?? ""`);
    return t.includes("compiled unit 3");
  });
  const now = await s.exec(
    `return Number(document.querySelector('${card} [data-test=tool-progress-bar]').getAttribute('aria-valuenow'))`,
  );
  assert.ok(now > 0 && now <= 100, `a bar between 0 and 100: ${now}`);
  const label = await s.exec(`return document.querySelector('${card} [data-test=tool-progress-label]').textContent`);
  assert.match(label, /compiling unit \d+ \(\d+ \/ 100\)/);
  await shot(s, "tool-progress.png");

  // Stop: Esc in the editor aborts the turn.
  await s.click(await s.find("[data-test=editor]"));
  await s.keys("\uE00C");
  await s.until("the extension to hear tool_cancel", () => frames().some((f) => f.type === "tool_cancel"), 10000);
  const cancel = frames().find((f) => f.type === "tool_cancel");
  const call = frames().find((f) => f.type === "tool_call");
  assert.equal(cancel.id, call.id);
  assert.equal(cancel.reason, "aborted");
  await s.until("the card to end failed", async () =>
    (await s.exec(`return document.querySelector('${card} [data-test=tool-state]').textContent`)) === "failed",
  );
  assert.equal(
    await s.exec(`return !!document.querySelector('${card} [data-test=tool-progress]')`),
    false,
    "no progress once ended",
  );
});
