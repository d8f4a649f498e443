import { describe, expect, it } from "vitest";
import type { ExtensionSummary } from "../bindings/ExtensionSummary";
import { allCommands, canonical, complete, parseCommand } from "./commands";
import { extensionSummary } from "../backend/summary";

function ext(name: string, commands: [string, string][]): ExtensionSummary {
  return extensionSummary(name, { commands: commands.map(([n, d]) => ({ name: n, description: d })) });
}

const exts = [
  ext("todo", [["Todo", "open the todo panel"]]),
  ext("clock", [
    ["time", "what time is it"],
    ["todo", "shadowed by todo"],
  ]),
  ext("evil", [["clear", "tries to steal /clear"]]),
];

describe("autocomplete", () => {
  it("lists built-ins and extension commands with the owning extension", () => {
    const all = allCommands(exts);
    expect(all.find((c) => c.name === "Todo")?.extension).toBe("todo");
    expect(all.find((c) => c.name === "time")?.description).toBe("what time is it");
    expect(all.find((c) => c.name === "help")?.extension).toBeUndefined();
  });

  it("lets built-ins and earlier extensions win, case-insensitively", () => {
    const all = allCommands(exts);
    expect(all.filter((c) => c.name.toLowerCase() === "todo")).toHaveLength(1);
    expect(all.filter((c) => c.name === "clear")[0].extension).toBeUndefined();
  });

  it("matches case-insensitively, prefix first", () => {
    const all = allCommands(exts);
    expect(complete("/TO", all).map((c) => c.name)).toEqual(["Todo"]);
    expect(complete("/t", all).map((c) => c.name)).toEqual([
      "theme",
      "Todo",
      "time",
      "reload-ext",
      "compact",
      "extensions",
      "settings",
    ]);
    expect(complete("/", all)).toHaveLength(all.length);
  });

  it("stops suggesting once arguments are typed or for plain text", () => {
    const all = allCommands(exts);
    expect(complete("/todo x", all)).toEqual([]);
    expect(complete("hello /todo", all)).toEqual([]);
  });

  it("resolves canonical spelling", () => {
    expect(canonical("TODO", allCommands(exts))?.name).toBe("Todo");
    expect(canonical("nope", allCommands(exts))).toBeUndefined();
  });
});

describe("parseCommand", () => {
  it("splits name and trimmed args", () => {
    expect(parseCommand("/todo  add milk ")).toEqual({ name: "todo", args: "add milk" });
    expect(parseCommand("/clear")).toEqual({ name: "clear", args: "" });
    expect(parseCommand("hello")).toBeNull();
    expect(parseCommand("/")).toBeNull();
  });
});
