// Where a pointer is in a panel, in the contract's terms (docs/protocol.md
// "panel_mouse"): `row` is the index into the panel's lines, `col` the
// index of the character under the pointer counted in Unicode scalar values
// after SGR escapes are removed (every other escape is drawn inert, one
// picture per control character, so it counts as drawn), or the line's
// length past its end. Pure, so the mapping is tested without a window;
// PanelDock.svelte measures the DOM and asks these.
import { parseAnsi } from "./ansi";

/** The text a line draws: SGR removed, other controls as their pictures.
 * Each source scalar value maps to one drawn scalar value. */
export function plainText(line: string): string {
  return parseAnsi(line)
    .map((s) => s.text)
    .join("");
}

/** Unicode scalar values in `s` (a surrogate pair counts once). */
export function scalarLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The scalar index of the character that starts at or contains UTF-16
 * offset `utf16` of `s`; `scalarLength(s)` at or past its end. An offset
 * inside a surrogate pair (an emoji) names that emoji. */
export function scalarIndex(s: string, utf16: number): number {
  let n = 0;
  let at = 0;
  for (const ch of s) {
    if (utf16 < at + ch.length) return n;
    at += ch.length;
    n++;
  }
  return n;
}

/** The UTF-16 offset where scalar `col` of `s` starts (the end when past it). */
export function utf16Offset(s: string, col: number): number {
  let n = 0;
  let at = 0;
  for (const ch of s) {
    if (n === col) return at;
    at += ch.length;
    n++;
  }
  return at;
}

/** Cells a character takes in a monospace grid: 0 for combining marks and
 * zero-width joiners, 2 for East Asian wide/fullwidth characters and emoji,
 * 1 otherwise. The ranges are the common blocks, not all of UAX #11: this
 * is the fallback when the window cannot measure the drawn glyphs. */
export function cellWidth(ch: string): number {
  const c = ch.codePointAt(0) ?? 0;
  if (c === 0x200d || (c >= 0x300 && c <= 0x36f) || (c >= 0xfe00 && c <= 0xfe0f)) return 0;
  if (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0x303e) ||
    (c >= 0x3041 && c <= 0x33ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xa000 && c <= 0xa4cf) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x1f680 && c <= 0x1f6ff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** The column under cell `cell` (0-based, from the text's left edge) of a
 * line drawn on a monospace grid where wide characters take two cells. */
export function colAtCell(line: string, cell: number): number {
  const plain = plainText(line);
  let x = 0;
  let n = 0;
  for (const ch of plain) {
    const w = cellWidth(ch);
    if (cell < x + w) return n;
    x += w;
    n++;
  }
  return n;
}

/** The line under a pointer `y` pixels below the top of the body's content
 * (scroll offset included), or null below the last line or in the padding
 * above the first: a click there names no line, so nothing is sent. */
export function rowAt(y: number, lineHeight: number, pad: number, total: number): number | null {
  const r = Math.floor((y - pad) / lineHeight);
  return r >= 0 && r < total ? r : null;
}

/** Picks the character under `x` among drawn characters whose left and
 * right edges `edge(i)` returns (i: scalar index, in drawing order, left to
 * right), by bisection: O(log n) measurements, so a 1 MB line costs no
 * more to click than a short one. `count` characters are drawn; past the
 * last one's right edge the answer is `lineLength` (the whole line's
 * length, which may be longer than what is drawn). */
export function colAtX(
  x: number,
  count: number,
  edge: (i: number) => { left: number; right: number },
  lineLength: number,
): number {
  if (count === 0 || x >= edge(count - 1).right) return lineLength;
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x < edge(mid).right) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
