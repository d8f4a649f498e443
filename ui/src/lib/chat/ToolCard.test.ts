// @vitest-environment jsdom
import { markdownRenderer } from "./renderer.svelte";
import { describe, expect, it } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import ToolCard from "./ToolCard.svelte";
import type { ChatItem } from "./chat.svelte";

type ToolItem = Extract<ChatItem, { kind: "tool" }>;

function render(over: Partial<ToolItem>) {
  const item: ToolItem = {
    id: 1,
    kind: "tool",
    callId: "c",
    name: "bash",
    args: {},
    isError: false,
    done: true,
    ...over,
  };
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(ToolCard, { target, props: { item } });
  flushSync();
  target.querySelector<HTMLButtonElement>(".tool-head")!.click();
  flushSync();
  return { target, done: () => (unmount(c), target.remove()) };
}

describe("ToolCard", () => {
  it("shows bash output as inert text with colour spans, folded until asked", () => {
    const lines = ["\u001b[32m<b>ok</b>\u001b[0m", ...Array.from({ length: 29 }, (_, i) => `l${i}`)];
    const { target, done } = render({
      args: { command: "make" },
      isError: true,
      result: [{ type: "text", text: `${lines.join("\n")}\n\n[exit status: 2]` }],
    });
    expect(target.querySelector("[data-test=tool-exit]")?.textContent).toBe("exit 2");
    expect(target.querySelector("[data-test=tool-state]")?.textContent).toBe("exit 2");
    const out = target.querySelector("[data-test=tool-output]")!;
    expect(out.querySelector("b")).toBeNull();
    expect(out.querySelector(".ansi-fg-2")?.textContent).toBe("<b>ok</b>");
    expect(out.querySelectorAll(".pline").length).toBe(20);
    const more = target.querySelector<HTMLButtonElement>("[data-test=show-all]")!;
    expect(more.textContent).toBe("Show all 30 lines");
    more.click();
    flushSync();
    expect(out.querySelectorAll(".pline").length).toBe(30);
    done();
  });

  it("shows an edit as a highlighted diff and never turns file text into markup", async () => {
    // highlight.js comes with the lazily loaded markdown renderer.
    await markdownRenderer.load();
    const { target, done } = render({
      name: "edit",
      args: {
        path: "a.ts",
        old_string: "const a = 1;",
        new_string: "const a = '<img src=x onerror=alert(1)>';",
      },
      result: [{ type: "text", text: "edited a.ts" }],
    });
    const diff = target.querySelector("[data-test=tool-diff]")!;
    expect(diff.querySelector("img")).toBeNull();
    expect(diff.querySelector(".op-add")?.textContent).toContain("<img src=x");
    expect(diff.querySelector(".hljs-keyword")?.textContent).toBe("const");
    done();
  });

  it("an edit's head says +N −M, and its path label keeps its case", () => {
    const { target, done } = render({
      name: "edit",
      args: { path: "src/MyFile.RS", old_string: "a\nb", new_string: "a\nB\nc" },
      result: [{ type: "text", text: "ok" }],
    });
    expect(target.querySelector(".tool-head [data-test=diff-count]")?.textContent).toBe("+2 −1");
    const label = target.querySelector<HTMLElement>("[data-test=tool-path]")!;
    expect(label.textContent).toContain("src/MyFile.RS");
    // The label class upper-cases; the path's own class undoes it.
    expect(label.classList.contains("path")).toBe(true);
    done();
  });

  it("says in one line why an MCP App is not shown, and keeps the plain result", () => {
    const { target, done } = render({
      name: "wrong_mime",
      extension: "apps",
      result: [{ type: "text", text: "wrong_mime ran" }],
      appNote:
        "tool 'wrong_mime': its MCP App ui://x is text/html, not text/html;profile=mcp-app; showing its plain result",
    });
    const note = target.querySelectorAll("[data-test=app-note]");
    expect(note).toHaveLength(1);
    expect(note[0].textContent).toContain("not text/html;profile=mcp-app");
    expect(target.querySelector("[aria-label=result]")?.textContent).toBe("wrong_mime ran");
    expect(target.querySelector("[data-test=mcp-app]")).toBeNull();
    done();
  });
});
