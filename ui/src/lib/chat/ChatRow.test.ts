// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ChatRow from "./ChatRow.svelte";
import { AppState } from "../app.svelte";
import { FakeBackend } from "../backend/fake";
import type { ChatItem } from "./chat.svelte";

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
