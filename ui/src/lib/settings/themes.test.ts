import { describe, expect, it } from "vitest";
import { isHexColor, mergeThemes, resolveColors } from "./themes";

describe("themes", () => {
  it("accepts only CSS hex colours", () => {
    for (const ok of ["#fff", "#ffffff", "#ffffff80"]) expect(isHexColor(ok)).toBe(true);
    for (const bad of ["red", "#ff", "url(x)", "#fff;background:url(javascript:1)", "expression(1)"]) {
      expect(isHexColor(bad)).toBe(false);
    }
  });

  it("fills missing colours from the base and drops bad values", () => {
    const c = resolveColors({
      name: "t",
      appearance: "light",
      colors: { accent: "#123456", fg: "red; background: url(x)", bogus: "#000" },
    });
    expect(c.accent).toBe("#123456");
    expect(c.fg).toBe("#1f2328");
    expect("bogus" in c).toBe(false);
  });

  it("lets built-ins win a name clash", () => {
    const all = mergeThemes([
      { name: "dark", appearance: "light", colors: {} },
      { name: "solarized", appearance: "dark", colors: {} },
    ]);
    expect(all.map((t) => t.name)).toEqual(["dark", "light", "solarized"]);
    expect(all[0].appearance).toBe("dark");
  });
});
