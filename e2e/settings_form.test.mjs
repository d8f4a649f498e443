// Extension settings in the real window (#15): an extension whose required
// secret is missing is failed; Configure… opens a form generated from its
// schema; a bad value is refused under its field; a good save starts it
// with the values; the secret never comes back to the page in full.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, shot, ROOT } from "./lib/app.mjs";
import { cardState as stateOf, clickInCard, detailText } from "./lib/cards.mjs";

const FIXTURE = path.join(ROOT, "e2e", "fixtures", "configurable");
const SECRET = "canary-e2e-secret-K9Q2";

let app;
let s;
before(async () => {
  // Secrets in the 0600 fallback file: the E2E run has no keychain to use.
  app = await startApp({ exts: [FIXTURE], env: { ZOT_KEYCHAIN: "off" } });
  s = app.s;
});
after(async () => app?.stop());

/** The extension's stored settings: `config/<name>-<folder hash>.json`,
 * since settings belong to the extension's folder, not its name. */
const storedFiles = () =>
  fs.existsSync(path.join(app.home, "config"))
    ? fs.readdirSync(path.join(app.home, "config")).filter((f) => /^configurable-.+\.json$/.test(f))
    : [];

const cardState = () => stateOf(s, "configurable");

async function setInput(key, value) {
  await s.exec(
    `const el = document.querySelector('[data-test="input-${key}"]');
     if (el.type === 'checkbox') { el.checked = arguments[0]; el.dispatchEvent(new Event('change', {bubbles: true})); }
     else { el.value = arguments[0]; el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', {bubbles: true})); }`,
    [value],
  );
}

test("Configure… shows the schema as a form, refuses bad values, and starts the extension", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.until("a failed card", async () => (await cardState()) === "failed");
  const err = await detailText(s, "configurable", "ext-error");
  assert.ok(err.includes("'api_key' (API key)") && err.includes("zot ext config configurable api_key"), err);

  // The form opens in the extension's detail pane.
  await clickInCard(s, "configurable", "configure");
  await s.until("the form", () => s.exec(`return document.querySelectorAll('[data-test=setting]').length === 5`));
  const kinds = await s.exec(
    `return [...document.querySelectorAll('[data-test=setting]')].map((f) => f.dataset.key + ':' + f.querySelector('input,select').type)`,
  );
  assert.deepEqual(kinds, ["units:select-one", "days:number", "verbose:checkbox", "folder:text", "api_key:password"]);

  // Bad values: each refused under its own field; nothing stored.
  await setInput("units", "imperial");
  await setInput("days", "99");
  await setInput("verbose", true);
  await setInput("folder", path.join(app.tmp, "no-such-folder"));
  await setInput("api_key", SECRET);
  await s.click(await s.find("[data-test=settings-save]"));
  await s.until("the days error", async () => (await s.texts("[data-test=field-error-days]")).join("").includes("at most 7"));
  await s.exec(`document.querySelector('[data-test=settings-form]').scrollIntoView({block: 'start'})`);
  await shot(s, "ext-settings-form.png");
  await setInput("days", "5");
  await s.click(await s.find("[data-test=settings-save]"));
  await s.until("the folder error from zot", async () =>
    (await s.texts("[data-test=field-error-folder]")).join("").includes("does not exist"),
  );
  assert.deepEqual(storedFiles(), []);

  await setInput("folder", app.tmp);
  await s.click(await s.find("[data-test=settings-save]"));
  await s.until("saved", async () => (await s.texts("[data-test=settings-saved]")).length > 0);
  // Complete now: it started with the values.
  await s.until("a ready card", async () => (await cardState()) === "ready", 30000);
  assert.equal(storedFiles().length, 1, "one settings file for the one folder");
  const stored = JSON.parse(fs.readFileSync(path.join(app.home, "config", storedFiles()[0]), "utf8"));
  assert.deepEqual(stored.values, { units: "imperial", days: 5, verbose: true, folder: app.tmp });
  assert.ok(!JSON.stringify(stored).includes(SECRET));
  // The page holds the mask, never the secret.
  const placeholder = await s.exec(`return document.querySelector('[data-test="input-api_key"]').placeholder`);
  assert.ok(placeholder.startsWith("••••K9Q2"), placeholder);
  const page = await s.exec(`return document.documentElement.outerHTML + JSON.stringify([...document.querySelectorAll('input')].map((i) => i.value))`);
  assert.ok(!page.includes(SECRET), "the secret is in the page");
});

test("the install summary asks for required settings before the first start", async () => {
  // A second copy under another name, installed from a folder.
  const src = path.join(app.tmp, "src", "needs-key");
  fs.cpSync(FIXTURE, src, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(src, "extension.json"), "utf8"));
  manifest.name = "needs-key";
  fs.writeFileSync(path.join(src, "extension.json"), JSON.stringify(manifest));
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.type(await s.find("[data-test=install-source]"), src);
  await s.click(await s.find("[data-test=install]"));
  await s.until("the summary asks for api_key", async () =>
    (await s.texts("[data-test=install-needs-settings]")).join("").includes("api_key"),
  );
  await s.click(await s.find("[data-test=install-configure]"));
  await s.until("the form of needs-key", () =>
    s.exec(`return document.querySelector('[data-test=settings-form]')?.dataset.name === 'needs-key'`),
  );
  await setInput("api_key", SECRET);
  await s.click(await s.find("[data-test=settings-save]"));
  await s.until("the summary no longer asks", async () => (await s.texts("[data-test=install-needs-settings]")).length === 0);
  await s.click(await s.find("[data-test=enable-installed]"));
  await s.until("a ready needs-key card", async () => (await stateOf(s, "needs-key")) === "ready", 30000);
});
