// @vitest-environment jsdom
import { markdownRenderer } from "./renderer.svelte";
import { describe, expect, it, vi } from "vitest";
import { flushSync, mount, unmount } from "svelte";
import Markdown from "./Markdown.svelte";

/** Mounts Markdown with reactive props; `set` changes them and runs the
 * frame the component waits for. */
function render(source: string, streaming: boolean) {
  const props = $state({ source, streaming });
  const target = document.createElement("div");
  document.body.append(target);
  const c = mount(Markdown, { target, props });
  flushSync();
  return {
    target,
    set(next: Partial<typeof props>) {
      Object.assign(props, next);
      flushSync();
      vi.runAllTimers();
      flushSync();
    },
    /** Changes the props without running any frame. */
    update(next: Partial<typeof props>) {
      Object.assign(props, next);
      flushSync();
    },
    /** Runs the next animation frame (16 ms of fake time). */
    frame() {
      vi.advanceTimersByTime(16);
      flushSync();
    },
    done: () => (unmount(c), target.remove()),
  };
}

describe("Markdown, streamed", () => {
  it("renders each closed block once and re-renders only the open one", async () => {
    await markdownRenderer.load();
    vi.useFakeTimers({ toFake: ["requestAnimationFrame"] });
    try {
      const r = render("", true);
      const parts = [
        "# Title\n\nFirst **para**",
        "graph.\n\n```js\nlet a = 1;\n```\n\n- one\n",
        "- two\n\nLast <b>x</b>",
      ];
      let text = "";
      text += parts[0];
      r.set({ source: text });
      const blocks = () => [...r.target.querySelectorAll(".md-block")];
      expect(blocks().length).toBe(2);
      const title = blocks()[0];
      expect(title.querySelector("h1")?.textContent).toBe("Title");
      text += parts[1];
      r.set({ source: text });
      // The heading's block is the same node: not rendered again.
      expect(blocks()[0]).toBe(title);
      expect(blocks()[1].querySelector("strong")?.textContent).toBe("para");
      // The closed code block has its Copy button already.
      expect(blocks()[2].querySelector("pre > [data-test=code-copy]")).not.toBeNull();
      text += parts[2];
      r.set({ source: text });
      const before = blocks();
      expect(before.length).toBe(5);
      expect(before[3].querySelectorAll("li").length).toBe(2);
      // The stream ends: the open block closes; the others stay as they were.
      r.set({ streaming: false });
      const after = blocks();
      expect(after.slice(0, 4)).toEqual(before.slice(0, 4));
      expect(after.length).toBe(5);
      expect(after[4].querySelector("b")).toBeNull();
      expect(after[4].textContent).toContain("Last <b>x</b>");
      expect(r.target.querySelectorAll("[data-test=code-copy]").length).toBe(1);
      r.done();
    } finally {
      vi.useRealTimers();
    }
  });

  it("draws the open block at most every other frame while text streams in", async () => {
    await markdownRenderer.load();
    vi.useFakeTimers({ toFake: ["requestAnimationFrame", "performance"] });
    try {
      const r = render("", true);
      const shown = () => r.target.querySelector(".markdown")?.textContent ?? "";
      r.update({ source: "one" });
      r.frame();
      expect(shown()).toContain("one");
      // More text at once: the next frame is too soon after that render, the one after draws it.
      r.update({ source: "one two" });
      r.frame();
      expect(shown()).not.toContain("two");
      r.frame();
      expect(shown()).toContain("one two");
      // The stream ends: what is left is drawn at once, not a frame later.
      r.update({ source: "one two three", streaming: false });
      expect(shown()).toContain("one two three");
      r.done();
    } finally {
      vi.useRealTimers();
    }
  });

  it("renders a rewritten final text afresh", async () => {
    await markdownRenderer.load();
    vi.useFakeTimers({ toFake: ["requestAnimationFrame"] });
    try {
      const r = render("", true);
      r.set({ source: "one\n\ntwo" });
      r.set({ source: "other text", streaming: false });
      expect(r.target.textContent?.trim()).toBe("other text");
      r.done();
    } finally {
      vi.useRealTimers();
    }
  });

  it("renders a finished message whole, with a Copy button per code block", async () => {
    await markdownRenderer.load();
    const r = render("a\n\n```\nx\n```\n\n```\ny\n```", false);
    expect(r.target.querySelector(".md-block")).toBeNull();
    expect(r.target.querySelectorAll("[data-test=code-copy]").length).toBe(2);
    r.done();
  });
});
