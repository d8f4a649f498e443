// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import DialogHost from "./DialogHost.svelte";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import type { UiEvent } from "../bindings/UiEvent";

const tick = () => new Promise((r) => setTimeout(r, 0));

function request(over: Record<string, unknown> = {}): UiEvent {
  return {
    type: "ui_request",
    request_id: "ui-1",
    extension: "todo",
    kind: "confirm",
    title: "Delete it?",
    message: null,
    options: null,
    default: null,
    placeholder: null,
    schema: null,
    timeout_ms: 120000,
    ...over,
  } as UiEvent;
}

function host() {
  const app = new AppState(new FakeBackend());
  // Someone is typing in the editor when the dialog arrives.
  const editor = document.createElement("textarea");
  document.body.append(editor);
  editor.focus();
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(DialogHost, { target, props: { app } });
  return { app, editor, target, done: () => (unmount(c), target.remove(), editor.remove()) };
}

describe("DialogHost", () => {
  it("never takes the editor's focus, and Ctrl+Shift+A's entry point brings the keyboard in", async () => {
    const h = host();
    h.app.handle(request());
    flushSync();
    await tick();
    expect(h.target.querySelector("[data-test=dialog]")).not.toBeNull();
    expect(document.activeElement).toBe(h.editor);
    expect(h.app.focusDialog()).toBe(true);
    expect(h.target.querySelector("[data-test=dialog]")!.contains(document.activeElement)).toBe(true);
    h.done();
  });

  it("waits while an approval card waits, and comes back after", async () => {
    const h = host();
    h.app.handle({ type: "tool_call", id: "t1", name: "bash", args: {} });
    h.app.handle({
      type: "tool_approval",
      id: "approval-1",
      call_id: "t1",
      tool: "bash",
      args: { command: "ls" },
      reason: "r",
      remember: "m",
    } as UiEvent);
    h.app.handle(request());
    flushSync();
    expect(h.target.querySelector("[data-test=dialog]")).toBeNull();
    expect(h.app.focusDialog()).toBe(false);
    h.app.chat.expireApprovals();
    flushSync();
    expect(h.target.querySelector("[data-test=dialog]")).not.toBeNull();
    h.done();
  });

  it("accepts an address dialog through the backend, which opens it; the page opens nothing", async () => {
    const h = host();
    h.app.handle(
      request({ kind: "url", title: "Sign in", url: "https://example.com/login", extension: "srv" }),
    );
    flushSync();
    expect(h.target.querySelector("[data-test=dialog-url]")!.textContent).toBe("https://example.com/login");
    (h.target.querySelector("[data-test=dialog-accept]") as HTMLButtonElement).click();
    await tick();
    const calls = (h.app.backend as FakeBackend).calls;
    expect(calls).toContainEqual({ method: "openDialogUrl", args: "ui-1" });
    expect(calls.some((c) => c.method === "rpc")).toBe(false);
    h.done();
  });

  it("names the extension with zot's own initial, and counts what waits", async () => {
    const h = host();
    h.app.handle(request({ extension: "zebra" }));
    h.app.handle(request({ request_id: "ui-2", extension: "other" }));
    flushSync();
    expect(h.target.querySelector(".initial")!.textContent).toBe("Z");
    expect(h.target.querySelector("[data-test=dialog-waiting]")!.textContent).toContain("1 more waiting");
    h.app.handle({ type: "ui_request_done", request_id: "ui-1", action: "cancel", reason: "timeout" });
    flushSync();
    expect(h.target.querySelector("[data-test=dialog-extension]")!.textContent).toContain("other");
    h.done();
  });
});
