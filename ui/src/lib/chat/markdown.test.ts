// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { renderMarkdown, renderMarkdownCached, sanitise } from "./markdown";

function dom(html: string): HTMLElement {
  const div = document.createElement("div");
  div.innerHTML = html;
  return div;
}

describe("renderMarkdown", () => {
  it("renders ordinary markdown", () => {
    const el = dom(renderMarkdown("# Title\n\nSome **bold** and `code`.\n\n- a\n- b"));
    expect(el.querySelector("h1")?.textContent).toBe("Title");
    expect(el.querySelector("strong")?.textContent).toBe("bold");
    expect(el.querySelectorAll("li").length).toBe(2);
  });

  it("highlights fenced code", () => {
    const el = dom(renderMarkdown("```rust\nfn main() {}\n```"));
    expect(el.querySelector("pre code")?.textContent).toBe("fn main() {}\n");
    expect(el.querySelector(".hljs-keyword")?.textContent).toBe("fn");
  });

  it("shows script tags as text", () => {
    const src = "<script>window.pwned=1</script>";
    const el = dom(renderMarkdown(src));
    expect(el.querySelector("script")).toBeNull();
    expect(el.textContent).toContain("<script>window.pwned=1</script>");
  });

  it("shows img onerror as text", () => {
    const src = '<img src=x onerror="window.pwned=1">';
    const el = dom(renderMarkdown(src));
    expect(el.querySelector("img")).toBeNull();
    expect(el.textContent).toContain("<img src=x onerror=");
  });

  it("never links javascript: URLs", () => {
    for (const src of [
      "[click](javascript:alert(1))",
      "[click](JaVaScRiPt:alert(1))",
      "[click](data:text/html,<script>alert(1)</script>)",
      "<javascript:alert(1)>",
    ]) {
      const el = dom(renderMarkdown(src));
      for (const a of el.querySelectorAll("a")) {
        expect(a.getAttribute("href") ?? "").not.toMatch(/^(javascript|data):/i);
      }
    }
  });

  it("keeps http links", () => {
    const el = dom(renderMarkdown("[zot](https://example.com/x)"));
    expect(el.querySelector("a")?.getAttribute("href")).toBe("https://example.com/x");
  });

  it("escapes HTML inside code spans and blocks", () => {
    const el = dom(renderMarkdown("`<b>x</b>`\n\n```html\n<img src=x onerror=alert(1)>\n```"));
    expect(el.querySelector("b")).toBeNull();
    expect(el.querySelector("img")).toBeNull();
  });
});

describe("sanitise", () => {
  it("strips handlers, styles, iframes and scripts from raw HTML", () => {
    const el = dom(
      sanitise(
        '<p onclick="x()" style="color:red">hi</p><iframe src="x"></iframe><script>1</script><a href="javascript:1">l</a><svg onload=1></svg>',
      ),
    );
    expect(el.querySelector("p")?.getAttribute("onclick")).toBeNull();
    expect(el.querySelector("p")?.getAttribute("style")).toBeNull();
    expect(el.querySelector("iframe, script, svg")).toBeNull();
    expect(el.querySelector("a")?.getAttribute("href")).toBeNull();
  });
});

describe("renderMarkdownCached", () => {
  it("gives the same sanitised HTML as renderMarkdown, from the cache the second time", () => {
    const src = "Cached **bold** <img src=x onerror=alert(1)>";
    const first = renderMarkdownCached(src);
    expect(first).toBe(renderMarkdown(src));
    expect(renderMarkdownCached(src)).toBe(first);
    expect(dom(first).querySelector("img")).toBeNull();
  });
});
