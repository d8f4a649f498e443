// Accessibility: every screen of the real window passes axe-core with no
// serious or critical violation — the chat with a transcript and the trust
// banner, an open panel, the manager's two tabs, Settings, the palette and
// the shortcuts sheet.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startApp, send, PROBE, TODO } from "./lib/app.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
let s;
before(async () => {
  app = await startApp({ exts: [PROBE], projectExts: [TODO] });
  s = app.s;
});
after(async () => app?.stop());

async function check(screen) {
  const vs = await axeViolations(s);
  assert.deepEqual(vs, [], `${screen}:\n${describeViolations(vs)}`);
}

test("the chat: transcript, notes, trust banner", async () => {
  await s.until("the trust banner", () =>
    s.exec(`return !!document.querySelector('[data-test=trust-banner]')`),
  );
  await send(s, "hello there");
  await s.until("the answer", async () =>
    (await s.texts(".row-assistant")).join("").includes("streamed world"),
  );
  // A screen reader hears the finished answer once, from the polite live region.
  await s.until("the answer announced", async () =>
    (await s.exec(`return document.querySelector('[data-test=announce-polite]').textContent`)).includes(
      "streamed world",
    ),
  );
  await send(s, "/note a11y");
  await s.until("the note", async () =>
    (await s.texts("[data-test=note]")).join("").includes("probe note a11y"),
  );
  await check("chat");
});

test("a panel", async () => {
  await send(s, "/probe");
  await s.until("the panel", () => s.exec(`return !!document.querySelector('[data-test=panel]')`));
  await check("panel");
  await s.keys("\uE00C");
});

test("the manager's Installed and Running tabs", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("a row", () => s.exec(`return !!document.querySelector('[data-test=ext-row]')`));
  await check("manager, installed");
  await s.click(await s.find("[data-test=tab-running]"));
  await s.until("the running view", () =>
    s.exec(`return !!document.querySelector('[data-test=running-view]')`),
  );
  await check("manager, running");
});

test("Settings", async () => {
  await s.click(await s.find("[data-test=nav-settings]"));
  await s.until("settings", () => s.exec(`return !!document.querySelector('[data-test=settings]')`));
  await check("settings");
});

test("the palette and the shortcuts sheet", async () => {
  await s.click(await s.find("[data-test=open-palette]"));
  await s.until("the palette", () => s.exec(`return !!document.querySelector('[data-test=palette]')`));
  await check("palette");
  await s.keys("\uE00C");
  await s.exec(`document.querySelector('[data-test=nav-chat]').focus()`);
  await s.keys("?");
  await s.until("the sheet", () => s.exec(`return !!document.querySelector('[data-test=shortcuts-sheet]')`));
  await check("shortcuts sheet");
  await s.keys("\uE00C");
});

test("the light theme: chat with a panel, and the manager", async () => {
  await s.click(await s.find("[data-test=nav-chat]"));
  await send(s, "/theme light");
  await s.until(
    "the light theme",
    async () => (await s.exec(`return document.documentElement.dataset.theme`)) === "light",
  );
  await send(s, "/probe");
  await s.until("the panel", () => s.exec(`return !!document.querySelector('[data-test=panel]')`));
  await check("chat, light");
  await s.keys("\uE00C");
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("a row", () => s.exec(`return !!document.querySelector('[data-test=ext-row]')`));
  await check("manager, light");
});
