import { describe, expect, it } from "vitest";
import { DialogsState, type DialogRequest } from "./dialogs.svelte";

function req(id: string): DialogRequest {
  return {
    type: "ui_request",
    request_id: id,
    extension: "todo",
    kind: "confirm",
    title: `ask ${id}`,
    message: null,
    options: null,
    default: null,
    placeholder: null,
    schema: null,
    timeout_ms: 120000,
  };
}

describe("DialogsState", () => {
  it("shows one at a time in order and counts the rest", () => {
    const s = new DialogsState();
    s.add(req("a"));
    s.add(req("b"));
    s.add(req("a"));
    expect(s.current?.request_id).toBe("a");
    expect(s.waiting).toBe(1);
    s.remove("a");
    expect(s.current?.request_id).toBe("b");
    expect(s.waiting).toBe(0);
  });

  it("keeps a refused answer's dialog open with the reason", async () => {
    const s = new DialogsState();
    s.add(req("a"));
    const ok = await s.answer(
      async () => {
        throw new Error("ui_respond: due: must be a date like 2026-12-31; the dialog stays open");
      },
      { action: "accept", value: {} },
    );
    expect(ok).toBe(false);
    expect(s.current?.request_id).toBe("a");
    expect(s.problem).toContain("due: must be a date");
    expect(await s.answer(async () => {}, { action: "decline" })).toBe(true);
    expect(s.current).toBeUndefined();
    expect(s.problem).toBeNull();
  });

  it("drops a dialog that ended elsewhere", () => {
    const s = new DialogsState();
    s.add(req("a"));
    s.add(req("b"));
    s.remove("b");
    expect(s.waiting).toBe(0);
  });
});
