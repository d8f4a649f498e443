import { describe, expect, it } from "vitest";
import { ChatState } from "./chat.svelte";

describe("ChatState", () => {
  it("streams deltas into one assistant message and takes the final text", () => {
    const c = new ChatState();
    c.startAssistant();
    c.delta("Hel");
    c.delta("lo");
    expect(c.items).toMatchObject([{ kind: "assistant", text: "Hello", streaming: true }]);
    c.finishAssistant("[redacted]");
    expect(c.items).toMatchObject([{ kind: "assistant", text: "[redacted]", streaming: false }]);
  });

  it("matches tool results to their card", () => {
    const c = new ChatState();
    c.toolCall("t1", "weather", { city: "Berlin" }, "weather");
    c.toolCall("t2", "read", { path: "a" });
    c.toolResult("t1", [{ type: "text", text: "16°C" }], false);
    const cards = c.items.filter((i) => i.kind === "tool");
    expect(cards[0]).toMatchObject({ callId: "t1", done: true, extension: "weather" });
    expect(cards[1]).toMatchObject({ callId: "t2", done: false });
  });

  it("puts an MCP App, or why it is not shown, on its tool's card", () => {
    const c = new ChatState();
    c.toolCall("t1", "show_chart", {}, "apps");
    c.toolCall("t2", "no_app", {}, "apps");
    const app = { resource_uri: "ui://a", html: "<p>x</p>" };
    c.toolResult("t1", [{ type: "text", text: "3 bars" }], false, "apps", { app });
    c.toolResult("t2", [{ type: "text", text: "ran" }], false, "apps", { note: "no resource" });
    const cards = c.items.filter((i) => i.kind === "tool");
    expect(cards[0]).toMatchObject({ app, done: true });
    expect(cards[0]).not.toHaveProperty("appNote");
    expect(cards[1]).toMatchObject({ appNote: "no resource" });
    expect(cards[1]).not.toHaveProperty("app");
  });

  it("keeps a running tool's progress on its card until the result", () => {
    const c = new ChatState();
    c.toolCall("t1", "build", {}, "slow");
    const ev = (over: object) => ({
      type: "tool_progress" as const,
      id: "t1",
      extension: "slow",
      message: null,
      progress: null,
      total: null,
      partial: null,
      ...over,
    });
    c.toolProgress(ev({ message: "compiling", progress: 1, total: 4, partial: "a\n" }));
    c.toolProgress(ev({ progress: 2, partial: "b\n" }));
    c.toolProgress(ev({ id: "nobody", partial: "x" }));
    expect(c.items[0]).toMatchObject({
      progress: { message: "compiling", progress: 2, total: 4, partial: "a\nb\n" },
    });
    c.toolResult("t1", [{ type: "text", text: "built" }], false);
    c.toolProgress(ev({ partial: "late" }));
    expect(c.items[0]).toMatchObject({ done: true, progress: { partial: "a\nb\n" } });
  });

  it("drops an empty aborted stream", () => {
    const c = new ChatState();
    c.startAssistant();
    c.endStream();
    expect(c.items).toEqual([]);
  });
});

describe("loadTranscript", () => {
  it("rebuilds user, assistant and tool rows from a resumed session", () => {
    const c = new ChatState();
    c.push({ kind: "status", level: "warn", text: "already here" });
    c.loadTranscript([
      { role: "user", content: [{ type: "text", text: "hi" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "calling" },
          { type: "tool_use", id: "t1", name: "read", input: { path: "a" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "A" }] }],
      },
    ]);
    expect(c.items.map((i) => i.kind)).toEqual(["user", "assistant", "tool", "status"]);
    expect(c.items[2]).toMatchObject({ done: true, result: [{ type: "text", text: "A" }] });
    expect(new Set(c.items.map((i) => i.id)).size).toBe(4);
  });

  it("keeps a prompt's images on its row, and a prompt of images alone", () => {
    const c = new ChatState();
    const dot = { mime_type: "image/png", data: "AA==" };
    c.loadTranscript([
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", ...dot },
        ],
      },
      { role: "user", content: [{ type: "image", ...dot }] },
    ]);
    expect(c.items).toMatchObject([
      { kind: "user", text: "see", images: [dot] },
      { kind: "user", text: "", images: [dot] },
    ]);
  });
});
