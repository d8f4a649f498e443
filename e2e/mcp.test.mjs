// "Add MCP server" in the real app (#16): a command line pointing at the
// real Python `mcp` server (installed by `make deps-mcp`) becomes a card
// with the MCP badge, its tools and their annotations.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startApp, shot } from "./lib/app.mjs";
import { openDetail } from "./lib/cards.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FIX = path.join(ROOT, "extensions/host/tests/fixtures/mcp");
const PYTHON = path.join(FIX, ".venv/bin/python");

let app;
let s;
before(async () => {
  assert.ok(fs.existsSync(PYTHON), `${PYTHON} missing: run make deps-mcp`);
  app = await startApp({});
  s = app.s;
});
after(async () => app?.stop());

/** The row and, once it is listed, the detail pane of `name`, as text. */
const cardText = async (name) => {
  const row = await s.exec(`return document.querySelector('[data-test=ext-row][data-name="${name}"]')?.textContent ?? null`);
  if (row === null) return null;
  await openDetail(s, name);
  return s.exec(`return document.querySelector('[data-test=ext-detail][data-name="${name}"]')?.textContent ?? null`);
};

test("add an MCP server from a command line", async () => {
  await s.click(await s.find("[data-test=nav-manager]"));
  await s.click(await s.find("[data-test=add-mcp]"));
  await s.type(await s.find("[data-test=mcp-name]"), "pyserver");
  await s.type(await s.find("[data-test=mcp-input]"), `${PYTHON} ${path.join(FIX, "server.py")}`);
  await s.click(await s.find("[data-test=mcp-add]"));
  let last = "";
  try {
    await s.until(
      "a ready MCP card",
      async () => {
        last = (await cardText("pyserver")) ?? (await s.exec(`return document.querySelector('[data-test=manager]')?.textContent ?? ''`));
        return last.includes("MCP") && last.includes("ready") && last.includes("echo (read-only)");
      },
      30000,
    );
  } catch (e) {
    throw new Error(`${e.message}; the manager shows: ${last}`);
  }
  const t = await cardText("pyserver");
  assert.ok(t.includes("wipe (destructive)"), t);
  assert.ok(t.includes("/pyserver:review"), t);
  const m = JSON.parse(fs.readFileSync(path.join(app.home, "extensions/pyserver/extension.json"), "utf8"));
  assert.equal(m.kind, "mcp");
  await shot(s, "manager-mcp.png");
});
