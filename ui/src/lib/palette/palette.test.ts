import { describe, expect, it } from "vitest";
import { entries, filter, score } from "./palette";

const commands = [
  { name: "clear", usage: "/clear", description: "clear the chat" },
  { name: "model", usage: "/model [ID]", description: "show or switch the model" },
  { name: "todo", description: "open the todo panel", extension: "todo" },
];
const panels = [{ id: "todos-main", title: "todo", extension: "todo" }];

describe("palette", () => {
  it("lists views, panels, commands and actions; Stop only while busy", () => {
    const idle = entries(commands, panels, false);
    expect(idle.map((e) => e.label)).toEqual([
      "Chat",
      "Extensions",
      "Settings",
      "Sessions",
      "todo",
      "Open folder…",
      "/clear",
      "/model",
      "/todo",
      "Focus the editor",
      "Keyboard shortcuts",
    ]);
    expect(entries(commands, [], true)[0].action).toEqual({ kind: "stop" });
  });

  it("lists the other sessions to resume", () => {
    const sessions = [
      { path: "/s/1.jsonl", title: "fix the build", messages: 4, current: true },
      { path: "/s/0.jsonl", title: "parser work", messages: 1, current: false },
    ];
    const s = entries([], [], false, sessions).filter((e) => e.group === "Sessions");
    expect(s).toEqual([
      {
        label: "parser work",
        detail: "1 message",
        group: "Sessions",
        action: { kind: "session", path: "/s/0.jsonl" },
      },
    ]);
  });

  it("runs argument-less built-ins at once and types the others", () => {
    const byLabel = new Map(entries(commands, [], false).map((e) => [e.label, e.action]));
    expect(byLabel.get("/clear")).toEqual({ kind: "command", name: "clear", takesArgs: false });
    expect(byLabel.get("/model")).toEqual({ kind: "command", name: "model", takesArgs: true });
    expect(byLabel.get("/todo")).toEqual({ kind: "command", name: "todo", takesArgs: true });
  });

  it("scores a prefix over a word start over scattered letters", () => {
    const prefix = score("ext", "Extensions") as number;
    const word = score("set", "Go to settings") as number;
    const scattered = score("xtn", "Extensions") as number;
    expect(prefix).toBeGreaterThan(word);
    expect(word).toBeGreaterThan(scattered);
    expect(score("zz", "Extensions")).toBeNull();
    expect(score("/cl", "/clear")).toBeGreaterThan(900);
  });

  it("filters best first, description matches last", () => {
    const all = entries(commands, panels, false);
    expect(filter(all, "to").map((e) => e.label)).toEqual(["todo", "/todo", "Focus the editor", "Chat"]);
    expect(filter(all, "switch").map((e) => e.label)).toEqual(["/model"]);
    expect(filter(all, "xtn").map((e) => e.label)).toEqual(["Extensions"]);
    expect(filter(all, "   ")).toHaveLength(all.length);
  });
});
