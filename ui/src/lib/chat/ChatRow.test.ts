// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ChatRow from "./ChatRow.svelte";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import { sentBy, type ChatItem } from "./chat.svelte";

const tick = () => new Promise((r) => setTimeout(r, 0));

function row(item: ChatItem) {
  const app = new AppState(new FakeBackend());
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(ChatRow, { target, props: { item, app } });
  flushSync();
  return { target, done: () => (unmount(c), target.remove()) };
}

function clipboard() {
  const writeText = vi.fn(async (_: string) => {});
  Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  return writeText;
}

afterEach(() => vi.restoreAllMocks());

describe("ChatRow's Copy", () => {
  it("copies an assistant message's markdown source, not its rendered text", async () => {
    const writeText = clipboard();
    const source = "# Title\n\n- **bold** item\n\n```sh\nls\n```";
    const { target, done } = row({ id: 1, kind: "assistant", text: source, streaming: false });
    target.querySelector<HTMLButtonElement>("[data-test=copy]")!.click();
    await tick();
    flushSync();
    expect(writeText).toHaveBeenCalledWith(source);
    expect(target.querySelector("[data-test=copy]")?.textContent).toBe("Copied");
    done();
  });

  it("copies a user's prompt as typed", async () => {
    const writeText = clipboard();
    const { target, done } = row({ id: 1, kind: "user", text: "fix *this*\nplease" });
    target.querySelector<HTMLButtonElement>("[data-test=copy]")!.click();
    await tick();
    expect(writeText).toHaveBeenCalledWith("fix *this*\nplease");
    done();
  });

  it("has no Copy while the message streams", () => {
    const { target, done } = row({ id: 1, kind: "assistant", text: "partial", streaming: true });
    expect(target.querySelector("[data-test=copy]")).toBeNull();
    done();
  });
});

describe("ChatRow's Retry and Edit", () => {
  function chat() {
    const backend = new FakeBackend();
    const app = new AppState(backend);
    app.chat.push({ kind: "user", text: "first" });
    app.chat.push({ kind: "assistant", text: "one", streaming: false });
    app.chat.push({ kind: "user", text: "second" });
    const target = document.createElement("div");
    document.body.append(target);
    const rows = app.chat.items.map((item) => mount(ChatRow, { target, props: { item, app } }));
    flushSync();
    const done = () => {
      for (const r of rows) unmount(r);
      target.remove();
    };
    return { app, backend, target, done };
  }

  it("offers them on the last prompt only, and not while a turn runs", () => {
    const { app, target, done } = chat();
    expect(target.querySelectorAll("[data-test=retry]")).toHaveLength(1);
    expect(target.querySelectorAll("[data-test=edit-prompt]")).toHaveLength(1);
    app.chat.busy = true;
    flushSync();
    expect(target.querySelectorAll("[data-test=retry]")).toHaveLength(0);
    done();
  });

  it("Retry sends the prompt again and Edit puts it in the editor", async () => {
    const { app, backend, target, done } = chat();
    let editor = "";
    app.setEditorText = (t) => (editor = t);
    target.querySelector<HTMLButtonElement>("[data-test=edit-prompt]")!.click();
    expect(editor).toBe("second");
    target.querySelector<HTMLButtonElement>("[data-test=retry]")!.click();
    await tick();
    const prompts = backend.calls.filter((c) => (c.args as { type?: string })?.type === "prompt");
    expect(prompts.map((c) => (c.args as { message: string }).message)).toEqual(["second"]);
    done();
  });
});

describe("ChatRow's sender label", () => {
  it("says which command sent a prompt the user did not type", () => {
    const { target, done } = row({ id: 1, kind: "user", text: "Greet me.", sentBy: sentBy("fx", "ask") });
    expect(target.querySelector("[data-test=sent-by]")?.textContent).toBe("sent by /ask (fx)");
    done();
    const own = row({ id: 2, kind: "user", text: "hi" });
    expect(own.target.querySelector("[data-test=sent-by]")).toBeNull();
    own.done();
    expect(sentBy("fx")).toBe("sent by extension fx");
    expect(sentBy("apps", undefined, "ui://zot-test/chart")).toBe(
      "sent by the MCP App ui://zot-test/chart (apps)",
    );
  });
});
