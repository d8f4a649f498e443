// Projects in the real app: start in project A (its extension waits for
// trust), open folder B through the picker (ZOT_TEST_PICK_FOLDER), and see
// the title and header change, the transcript reset, B's own trust banner,
// and A in the recent list; then bad folders leave B open with a message.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startApp, send, shot, scratchDir, PROBE, TODO } from "./lib/app.mjs";

let app;
let s;
let b;
before(async () => {
  const scratch = scratchDir("zot-e2e-projects-");
  b = path.join(scratch, "bproject");
  fs.cpSync(TODO, path.join(b, ".zot", "extensions", "todo"), { recursive: true });
  app = await startApp({ projectExts: [PROBE], env: { ZOT_TEST_PICK_FOLDER: b } });
  s = app.s;
});
after(async () => app?.stop());

const banner = () => s.exec(`return document.querySelector('[data-test=trust-banner]')?.textContent ?? null`);
const header = () => s.exec(`return document.querySelector('[data-test=project-name]')?.textContent ?? null`);

test("open folder B: title, header, transcript, trust and the recent list follow", async () => {
  await s.until("A's trust banner", async () => ((await banner()) ?? "").includes("probe"));
  assert.equal(await header(), "project");
  assert.equal(await s.exec(`return document.title`), "project — zot");
  await send(s, "/note");
  await s.until("a message in A's transcript", async () =>
    (await s.texts(".transcript")).join("").includes("no extension command '/note'"),
  );

  await s.click(await s.find("[data-test=project-name]"));
  await s.until("B's header", async () => (await header()) === "bproject", 30000);
  assert.equal(await s.exec(`return document.title`), "bproject — zot");
  await s.until("B's trust banner", async () => ((await banner()) ?? "").includes("todo"), 30000);
  assert.ok(!((await banner()) ?? "").includes("probe"));
  const transcript = (await s.texts(".transcript")).join("");
  assert.ok(!transcript.includes("/note"), transcript);
  await s.until("A in the recent list", async () =>
    (await s.texts("[data-test=recent-project]")).join("").includes("project"),
  );
  const recent = JSON.parse(fs.readFileSync(path.join(app.home, "recent.json"), "utf8"));
  assert.deepEqual(recent.projects, [fs.realpathSync(b), fs.realpathSync(app.project)]);
  await shot(s, "start-screen.png");
});

test("bad folders: a message, and B stays open", async () => {
  for (const [bad, says] of [
    [path.join(b, "missing"), "does not exist"],
    ["/", "root of the file system"],
  ]) {
    const got = await s.exec(
      `return window.__TAURI_INTERNALS__.invoke("project_open", { path: ${JSON.stringify(bad)} }).then(() => "ok", (e) => JSON.stringify(e))`,
    );
    assert.ok(String(got).includes(says), String(got));
    assert.equal(await header(), "bproject");
  }
});
