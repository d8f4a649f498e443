// The installed package (`make test-dist`, after `dpkg -i`): the files a
// desktop needs are where it looks for them, and the installed /usr/bin/zot
// opens its window and answers a prompt. Not named *.test.mjs, so the main
// E2E run (which uses the build tree's binary) leaves it out.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { startApp, send } from "../lib/app.mjs";

test("the package installed zot, its desktop entry, its icon and its dependencies", () => {
  const files = execFileSync("dpkg", ["-L", "zot"], { encoding: "utf8" }).split("\n");
  assert.ok(files.includes("/usr/bin/zot"), files.join("\n"));
  const desktop = files.find((f) => f.startsWith("/usr/share/applications/") && f.endsWith(".desktop"));
  assert.ok(desktop, "a desktop entry");
  const entry = fs.readFileSync(desktop, "utf8");
  assert.match(entry, /^Exec=zot/m);
  assert.match(entry, /^Icon=zot/m);
  assert.match(entry, /^Categories=.*Development/m);
  assert.ok(
    files.some((f) => f.startsWith("/usr/share/icons/hicolor/") && f.endsWith("/zot.png")),
    "an icon",
  );
  const depends = execFileSync("dpkg-query", ["-W", "-f=${Depends}", "zot"], { encoding: "utf8" });
  assert.match(depends, /libwebkit2gtk-4\.1-0/);
});

let app;
before(async () => {
  app = await startApp({});
});
after(async () => app?.stop());

test("the installed zot opens its window and answers", async () => {
  const s = app.s;
  await send(s, "hello there");
  await s.until("the answer", async () =>
    (await s.texts(".row-assistant")).join("").includes("streamed world"),
  );
});
