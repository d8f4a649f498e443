import { describe, expect, it } from "vitest";
import { parseAnsi, spanLook } from "./ansi";

describe("parseAnsi", () => {
  it("keeps plain text as one span", () => {
    expect(parseAnsi("□ ship panel api")).toEqual([{ text: "□ ship panel api" }]);
  });

  it("renders SGR colours and resets", () => {
    expect(parseAnsi("\u001b[31mred\u001b[0m plain")).toEqual([{ text: "red", fg: 1 }, { text: " plain" }]);
    expect(parseAnsi("\u001b[1;92mok\u001b[22m")).toEqual([{ text: "ok", bold: true, fg: 10 }]);
    expect(parseAnsi("\u001b[44mbg\u001b[49mx")).toEqual([{ text: "bg", bg: 4 }, { text: "x" }]);
  });

  it("renders 256 and true colour as hex", () => {
    expect(parseAnsi("\u001b[38;5;196mA")).toEqual([{ text: "A", fg: "#ff0000" }]);
    expect(parseAnsi("\u001b[38;5;3mA")).toEqual([{ text: "A", fg: 3 }]);
    expect(parseAnsi("\u001b[48;2;1;2;3mA")).toEqual([{ text: "A", bg: "#010203" }]);
  });

  it("shows non-SGR escape sequences as inert text", () => {
    const spans = parseAnsi("a\u001b[2Jb\u001b[10;5Hc\u001b]0;title\u0007d");
    const text = spans.map((s) => s.text).join("");
    expect(text).toBe("a␛[2Jb␛[10;5Hc␛]0;title␇d");
    expect(spans.every((s) => s.fg === undefined)).toBe(true);
  });

  it("keeps markup as text", () => {
    const line = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    expect(parseAnsi(line)).toEqual([{ text: line }]);
  });

  it("ignores invalid colour numbers without throwing", () => {
    expect(parseAnsi("\u001b[38;5;999mA")).toEqual([{ text: "A" }]);
    expect(parseAnsi("\u001b[38;2;1mA")).toEqual([{ text: "A" }]);
  });

  it("shows an unterminated escape inert", () => {
    expect(
      parseAnsi("x\u001b[12")
        .map((s) => s.text)
        .join(""),
    ).toBe("x␛[12");
  });
});

describe("spanLook", () => {
  it("names palette colours and attributes", () => {
    expect(spanLook({ text: "", fg: 1, bg: 12, bold: true, underline: true })).toEqual({
      className: "ansi-fg-1 ansi-bg-12 ansi-bold ansi-underline",
    });
  });

  it("draws every attribute the contract lists, together", () => {
    const [s] = parseAnsi("\u001b[1;2;3;4;9mx");
    expect(spanLook(s).className).toBe("ansi-bold ansi-dim ansi-italic ansi-underline-strike");
  });

  it("keeps the 16 colours on the theme's palette and 256/24-bit colours as CSS", () => {
    expect(spanLook(parseAnsi("\u001b[91;104mx")[0])).toEqual({ className: "ansi-fg-9 ansi-bg-12" });
    expect(spanLook(parseAnsi("\u001b[38;5;9mx")[0])).toEqual({ className: "ansi-fg-9" });
    expect(spanLook(parseAnsi("\u001b[38;5;21;48;5;244mx")[0])).toEqual({
      className: "",
      color: "#0000ff",
      background: "#808080",
    });
    expect(spanLook(parseAnsi("\u001b[38:2:10:20:30mx")[0])).toEqual({ className: "", color: "#0a141e" });
  });

  it("reverses the colours a span ends up with", () => {
    // Default colours: the panel's text behind its surface.
    expect(spanLook(parseAnsi("\u001b[7mx")[0])).toEqual({ className: "ansi-fg-rev ansi-bg-rev" });
    // Red text reversed: red behind surface-coloured text.
    expect(spanLook(parseAnsi("\u001b[31;7mx")[0])).toEqual({ className: "ansi-fg-rev ansi-bg-1" });
    // Both set, true colour included: swapped.
    expect(spanLook(parseAnsi("\u001b[38;2;1;2;3;44;7mx")[0])).toEqual({
      className: "ansi-fg-4",
      background: "#010203",
    });
    // 27 turns it off again.
    expect(spanLook(parseAnsi("\u001b[31;7;27mx")[0])).toEqual({ className: "ansi-fg-1" });
  });
});
