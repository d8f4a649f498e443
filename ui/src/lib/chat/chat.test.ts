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

  it("drops an empty aborted stream", () => {
    const c = new ChatState();
    c.startAssistant();
    c.endStream();
    expect(c.items).toEqual([]);
  });
});
