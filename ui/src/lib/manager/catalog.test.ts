import { describe, expect, it } from "vitest";
import type { CatalogEntry } from "../bindings/CatalogEntry";
import { catalogRows, registersText } from "./catalog";

const entry = (over: Partial<CatalogEntry>): CatalogEntry => ({
  name: "x",
  description: "d",
  source: "extensions/x",
  registers: { commands: [], tools: [], panels: [], themes: [] },
  permissions: [],
  requires_files: [],
  available: true,
  installed: false,
  ...over,
});

describe("catalog rows", () => {
  it("says what an entry registers in one line", () => {
    const e = entry({
      registers: { commands: ["todo"], tools: ["todo_manage"], panels: ["todos-main"], themes: ["dusk"] },
    });
    expect(registersText(e)).toBe("/todo, tool todo_manage, panel todos-main, theme dusk");
  });

  it("puts installable entries first, then installed, then unavailable with the reason", () => {
    const rows = catalogRows([
      entry({
        name: "broken",
        available: false,
        unavailable_reason: "its source folder /c/broken is missing",
      }),
      entry({ name: "todo", installed: true }),
      entry({ name: "clock" }),
      entry({ name: "weird", available: false }),
    ]);
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ["clock", "available"],
      ["todo", "installed"],
      ["broken", "unavailable"],
      ["weird", "unavailable"],
    ]);
    expect(rows[2].reason).toBe("its source folder /c/broken is missing");
    expect(rows[3].reason).toBe("it cannot be installed");
    expect(rows[0].reason).toBeNull();
  });

  it("carries who signed an entry, and nothing for one without", () => {
    const rows = catalogRows([entry({ name: "a", signer: "signed by zot" }), entry({ name: "b" })]);
    expect(rows.map((r) => r.signer)).toEqual(["signed by zot", null]);
  });
});
