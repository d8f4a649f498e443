import { describe, expect, it } from "vitest";
import { normaliseKey, runesFromText } from "./keys";

describe("normaliseKey", () => {
  it("maps every named key of the spec", () => {
    const cases: [string, string][] = [
      ["ArrowUp", "up"],
      ["ArrowDown", "down"],
      ["ArrowLeft", "left"],
      ["ArrowRight", "right"],
      ["Enter", "enter"],
      ["Tab", "tab"],
      ["PageUp", "pageup"],
      ["PageDown", "pagedown"],
      ["Home", "home"],
      ["End", "end"],
      ["Backspace", "backspace"],
      ["Delete", "delete"],
    ];
    for (const [key, want] of cases) {
      expect(normaliseKey({ key })).toEqual({ kind: "key", key: want });
    }
  });

  it("sends printable characters as runes with their text", () => {
    expect(normaliseKey({ key: "x" })).toEqual({ kind: "key", key: "rune", text: "x" });
    expect(normaliseKey({ key: "X" })).toEqual({ kind: "key", key: "rune", text: "X" });
    expect(normaliseKey({ key: " " })).toEqual({ kind: "key", key: "rune", text: " " });
    expect(normaliseKey({ key: "é" })).toEqual({ kind: "key", key: "rune", text: "é" });
    expect(normaliseKey({ key: "😀" })).toEqual({ kind: "key", key: "rune", text: "😀" });
  });

  it("lets AltGr (ctrl+alt) type characters", () => {
    expect(normaliseKey({ key: "@", ctrlKey: true, altKey: true })).toEqual({
      kind: "key",
      key: "rune",
      text: "@",
    });
  });

  it("closes on Esc and Ctrl+C", () => {
    expect(normaliseKey({ key: "Escape" })).toEqual({ kind: "close" });
    expect(normaliseKey({ key: "c", ctrlKey: true })).toEqual({ kind: "close" });
  });

  it("sends Esc to an owner that declared panel_esc; Ctrl+C still closes", () => {
    expect(normaliseKey({ key: "Escape" }, true)).toEqual({ kind: "key", key: "esc" });
    expect(normaliseKey({ key: "Esc" }, true)).toEqual({ kind: "key", key: "esc" });
    expect(normaliseKey({ key: "c", ctrlKey: true }, true)).toEqual({ kind: "close" });
  });

  it("ignores modifiers, function keys, shortcuts, dead keys and composition", () => {
    for (const key of ["Shift", "Control", "Alt", "Meta", "F5", "F6", "CapsLock", "Dead", "Process"]) {
      expect(normaliseKey({ key })).toEqual({ kind: "ignore" });
    }
    expect(normaliseKey({ key: "a", ctrlKey: true })).toEqual({ kind: "ignore" });
    expect(normaliseKey({ key: "a", metaKey: true })).toEqual({ kind: "ignore" });
    expect(normaliseKey({ key: "a", isComposing: true })).toEqual({ kind: "ignore" });
    expect(normaliseKey({ key: "a", keyCode: 229 })).toEqual({ kind: "ignore" });
  });
});

describe("runesFromText", () => {
  it("turns committed IME text into one rune per character", () => {
    expect(runesFromText("日本")).toEqual([
      { kind: "key", key: "rune", text: "日" },
      { kind: "key", key: "rune", text: "本" },
    ]);
  });
  it("drops control characters", () => {
    expect(runesFromText("a\u0007b")).toEqual([
      { kind: "key", key: "rune", text: "a" },
      { kind: "key", key: "rune", text: "b" },
    ]);
  });
});
