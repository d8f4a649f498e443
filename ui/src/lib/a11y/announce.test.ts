import { describe, expect, it } from "vitest";
import type { UiEvent } from "../bindings/UiEvent";
import { announcement, MAX_SPOKEN, plain } from "./announce";

const ev = (e: Record<string, unknown>) => e as unknown as UiEvent;

describe("screen reader announcements", () => {
  it("says a finished answer once, clipped, and nothing per delta", () => {
    expect(announcement(ev({ type: "text_delta", delta: "he" }))).toBeNull();
    expect(announcement(ev({ type: "assistant_message", content: "hello\n\nworld" }))).toEqual({
      text: "zot: hello world",
      urgent: false,
    });
    const long = announcement(ev({ type: "assistant_message", content: "x".repeat(1000) }));
    expect(long?.text.length).toBeLessThan(MAX_SPOKEN + 60);
    expect(long?.text).toMatch(/continues in the transcript/);
  });

  it("reads only the start of a long answer, and says it as the whole would", () => {
    const part =
      "Some **bold** and [a link](https://example.com/x) and `code()`.\n\n```rust\nfn main() {}\n```\n\n";
    // A code block longer than the first piece read, then a long answer.
    const md = "```\n" + "let x = 1;\n".repeat(800) + "```\n\nAfter the code. " + part.repeat(4000);
    const whole = plain(md).replace(/\s+/g, " ").trim();
    expect(announcement(ev({ type: "assistant_message", content: md }))?.text).toBe(
      `zot: ${whole.slice(0, MAX_SPOKEN)}… (continues in the transcript)`,
    );
    // A short answer is said whole.
    expect(announcement(ev({ type: "assistant_message", content: part }))?.text).toBe(
      `zot: ${plain(part).replace(/\s+/g, " ").trim()}`,
    );
  });

  it("reads markdown as text", () => {
    expect(
      plain("Hello **streamed** _world_. See [docs](https://x).\n```rust\nfn main() {}\n```\n# Done"),
    ).toBe("Hello streamed world. See docs.\n (code) \nDone");
  });

  it("names tools, and says failures and errors urgently", () => {
    expect(announcement(ev({ type: "tool_call", id: "1", name: "bash", args: {} }))?.text).toBe(
      "running bash",
    );
    expect(announcement(ev({ type: "tool_result", id: "1", content: [], is_error: false }))).toBeNull();
    expect(announcement(ev({ type: "error", message: "no key" }))).toEqual({ text: "no key", urgent: true });
    expect(
      announcement(ev({ type: "ext_notify", extension: "guard", level: "error", message: "blocked" })),
    ).toEqual({
      text: "guard: blocked",
      urgent: true,
    });
  });

  it("says where a waiting approval is, since the card does not take focus", () => {
    const a = announcement(
      ev({
        type: "tool_approval",
        id: "approval-1",
        call_id: "1",
        tool: "lookup",
        args: {},
        extension: "web",
        reason: "r",
        remember: "m",
      }),
    );
    expect(a).toEqual({
      text: "lookup from web waits for your approval; Ctrl+Shift+A goes to it",
      urgent: false,
    });
  });
});
