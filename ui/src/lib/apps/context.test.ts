import { describe, expect, it } from "vitest";
import { hostContext, styleVariables } from "./context";

describe("the host context", () => {
  it("maps zot's theme onto the MCP Apps style variables, leaving out what is unset", () => {
    const theme: Record<string, string> = { "--zot-background": " #101010", "--zot-fg": "#eee" };
    const v = styleVariables((n) => theme[n] ?? "");
    expect(v).toEqual({ "--color-background-primary": "#101010", "--color-text-primary": "#eee" });
  });

  it("says light or dark, inline, and the card's limits", () => {
    const c = hostContext(() => "", "light", 612.4);
    expect(c.theme).toBe("light");
    expect(c.displayMode).toBe("inline");
    expect(c.containerDimensions).toEqual({ width: 612, maxHeight: 640 });
    expect(hostContext(() => "", "dark", 1).theme).toBe("dark");
  });
});
