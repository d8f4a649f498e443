import { describe, expect, it } from "vitest";
import {
  BUILTIN_THEMES,
  isHexColor,
  isThemeChoice,
  mergeThemes,
  resolveColors,
  resolveTheme,
  SYSTEM_THEME,
} from "./themes";

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

  it("system follows the OS's preference and is not a theme file", () => {
    const themes = mergeThemes([
      { name: "system", appearance: "light", colors: {} },
      { name: "dusk", appearance: "dark", colors: {} },
    ]);
    expect(themes.map((t) => t.name)).toEqual(["dark", "light", "dusk"]);
    expect(resolveTheme(themes, SYSTEM_THEME, true).name).toBe("dark");
    expect(resolveTheme(themes, SYSTEM_THEME, false).name).toBe("light");
    expect(resolveTheme(themes, "dusk", false).name).toBe("dusk");
    expect(resolveTheme(themes, "gone", true)).toBe(BUILTIN_THEMES[0]);
    expect(isThemeChoice(themes, "system")).toBe(true);
    expect(isThemeChoice(themes, "gone")).toBe(false);
  });
});
