import { describe, expect, it } from "vitest";
import { shortcutFor } from "./shortcuts";

const key = (
  k: string,
  mods: Partial<{ ctrl: boolean; meta: boolean; alt: boolean; shift: boolean }> = {},
) => ({
  key: k,
  ctrlKey: !!mods.ctrl,
  metaKey: !!mods.meta,
  altKey: !!mods.alt,
  shiftKey: !!mods.shift,
});

describe("global shortcuts", () => {
  it("maps Ctrl and Cmd alike", () => {
    expect(shortcutFor(key("k", { ctrl: true }), true)).toBe("palette");
    expect(shortcutFor(key("k", { meta: true }), false)).toBe("palette");
    expect(shortcutFor(key("l", { ctrl: true }), true)).toBe("focus-editor");
    expect(shortcutFor(key("N", { ctrl: true, shift: true }), true)).toBe("new-session");
    expect(shortcutFor(key(".", { ctrl: true }), true)).toBe("stop");
    expect(shortcutFor(key("j", { meta: true }), false)).toBe("next-panel");
    expect(shortcutFor(key("A", { ctrl: true, shift: true }), true)).toBe("approval");
    expect(shortcutFor(key("M", { ctrl: true, shift: true }), true)).toBe("move-panel");
    expect(shortcutFor(key("m", { ctrl: true }), true)).toBeNull();
  });

  it("never takes a plain letter for the approval card", () => {
    for (const k of ["a", "A", "y", "n"]) {
      expect(shortcutFor(key(k), true)).toBeNull();
      expect(shortcutFor(key(k, { shift: true }), true)).toBeNull();
    }
    expect(shortcutFor(key("a", { ctrl: true }), true)).toBeNull();
  });

  it("leaves AltGr, plain letters and composition alone", () => {
    expect(shortcutFor(key("k", { ctrl: true, alt: true }), true)).toBeNull();
    expect(shortcutFor(key("k"), false)).toBeNull();
    expect(shortcutFor({ ...key("k", { ctrl: true }), isComposing: true }, false)).toBeNull();
  });

  it("moves the keyboard with F6 and Shift+F6, in a text field too", () => {
    expect(shortcutFor(key("F6"), true)).toBe("focus-next");
    expect(shortcutFor(key("F6", { shift: true }), false)).toBe("focus-prev");
    expect(shortcutFor(key("F6", { ctrl: true }), false)).toBeNull();
    expect(shortcutFor(key("F6", { alt: true }), false)).toBeNull();
  });

  it("opens the sheet on ? only outside text fields", () => {
    expect(shortcutFor(key("?", { shift: true }), false)).toBe("shortcuts");
    expect(shortcutFor(key("?", { shift: true }), true)).toBeNull();
  });
});
