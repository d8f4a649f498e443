// The theme "system" follows the desktop's dark/light preference (GTK's,
// which WebKit reports as prefers-color-scheme), and checkboxes, radios and
// selects are drawn in the theme's colours instead of GTK's light ones.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, shot } from "./lib/app.mjs";
import { axeViolations, describeViolations } from "./lib/axe.mjs";

let app;
after(async () => app?.stop());

const theme = (s) => s.exec(`return document.documentElement.dataset.theme`);

for (const [gtk, expected] of [
  ["Adwaita:dark", "dark"],
  ["Adwaita", "light"],
]) {
  test(`"system" follows the desktop: GTK_THEME=${gtk} gives ${expected}`, async () => {
    await app?.stop();
    app = await startApp({ theme: "system", env: { GTK_THEME: gtk } });
    const s = app.s;
    await s.until(`the ${expected} theme`, async () => (await theme(s)) === expected, 15000);
    assert.equal(
      await s.exec(`return matchMedia('(prefers-color-scheme: dark)').matches`),
      expected === "dark",
    );
    await s.click(await s.find("[data-test=nav-settings]"));
    await s.until("the settings", () => s.exec(`return !!document.querySelector('[data-test=theme-system]')`));
    assert.ok(
      await s.exec(`return document.querySelector('[data-test=theme-system]').classList.contains('on')`),
      "System is marked as the choice",
    );
  });
}

test("choosing dark, then system again, is saved; controls take the theme's colours", async () => {
  const s = app.s;
  await s.click(await s.find("[data-test=theme-dark]"));
  await s.until("dark", async () => (await theme(s)) === "dark");
  const config = () => JSON.parse(fs.readFileSync(path.join(app.home, "config.json"), "utf8"));
  await s.until("dark saved", async () => config().theme === "dark");
  // A checkbox is drawn from the theme: its box is the page's background.
  const box = await s.exec(`const c = document.querySelector('[data-test=settings] input[type=checkbox]');
    const st = getComputedStyle(c);
    return { appearance: st.appearance ?? st.webkitAppearance, bg: st.backgroundColor,
      page: getComputedStyle(document.documentElement).getPropertyValue('--zot-background').trim() };`);
  assert.equal(box.appearance, "none");
  assert.equal(box.bg, "rgb(22, 24, 29)", `the checkbox is ${box.bg}, not the dark background ${box.page}`);
  await s.click(await s.find("[data-test=settings] input[type=checkbox]"));
  await s.exec(`document.querySelector('[data-test=theme-system]').scrollIntoView({block: 'start'})`);
  await shot(s, "settings-controls-dark.png");
  const v = await axeViolations(s);
  assert.deepEqual(v, [], describeViolations(v));
  await s.click(await s.find("[data-test=theme-system]"));
  await s.until("system saved", async () => config().theme === "system");
  await s.until("light, as the desktop says", async () => (await theme(s)) === "light");
});
