// Which lines of a panel stay on screen when the panel is taller than its
// dock. A panel's lines are plain text with no cursor position in the
// protocol, and a list that outgrows the dock must not hide the row the
// user is acting on (todo's `d` deletes the row under its ▸). So the view
// looks for the two lines a terminal user's eye follows:
// - the input line: the last line that ends in a text caret (▏ or █, after
//   SGR codes and trailing spaces are set aside), as a one-line editor draws it;
// - the cursor line: the first line whose text starts (after indentation)
//   with a pointer (▸ ▶ ► ❯ › > →) followed by a space, or that is drawn in
//   reverse video (SGR 7), as selection lists draw it.
// After a render that answers the user's key, that moves either line, or
// that changes the dock's height, the view scrolls as little as it must to
// show the cursor line and then the input line (the input line wins when
// both do not fit). Pure, so the rules are tested alone (follow.test.ts).
import { parseAnsi } from "./ansi";

/** Lines that mark where the user is. */
export interface FocusLines {
  /** The selected row, if one is marked. */
  cursor: number | null;
  /** The line being typed into, if any. */
  input: number | null;
}

const POINTERS = new Set(["▸", "▶", "►", "❯", "›", ">", "→"]);
const CARETS = new Set(["▏", "█"]);

/** The cursor line and the input line of `lines`. */
export function focusLines(lines: readonly string[]): FocusLines {
  let cursor: number | null = null;
  let input: number | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (cursor === null && isCursorLine(line)) cursor = i;
    if (endsInCaret(line)) input = i;
  }
  return { cursor, input };
}

function isCursorLine(line: string): boolean {
  // Cheap test first: most lines have neither an escape nor a pointer.
  const spans = line.includes("\u001b") ? parseAnsi(line) : [{ text: line, inverse: false }];
  if (spans.some((s) => s.inverse && s.text.trim() !== "")) return true;
  const text = spans
    .map((s) => s.text)
    .join("")
    .trimStart();
  const first = Array.from(text)[0];
  return first !== undefined && POINTERS.has(first) && /^\s/.test(text.slice(first.length));
}

function endsInCaret(line: string): boolean {
  const text = (
    line.includes("\u001b")
      ? parseAnsi(line)
          .map((s) => s.text)
          .join("")
      : line
  ).trimEnd();
  const last = Array.from(text).at(-1);
  return last !== undefined && CARETS.has(last);
}

/** The scroll position (px) that shows each of `rows` in turn, moving as
 * little as possible from `top`: a later row wins over an earlier one when
 * both cannot be on screen. Rows are `lineHeight` px tall and start
 * `offset` px down the scrolled content (its padding); the view is
 * `viewport` px. */
export function scrollToShow(
  top: number,
  viewport: number,
  lineHeight: number,
  rows: readonly number[],
  offset = 0,
): number {
  let t = top;
  for (const r of rows) {
    const y = offset + r * lineHeight;
    if (y < t) t = y;
    else if (y + lineHeight > t + viewport) t = y + lineHeight - viewport;
  }
  return Math.max(0, t);
}

/** Whether the view should follow the focus lines after a render: the user
 * pressed a key in the panel since the last one, or a focus line moved or
 * changed. A render that changes neither (a clock ticking) leaves a view
 * the user scrolled by hand where it is. */
export function shouldFollow(
  keyed: boolean,
  before: FocusLines,
  after: FocusLines,
  beforeLines: readonly string[],
  afterLines: readonly string[],
): boolean {
  if (keyed) return true;
  if (before.cursor !== after.cursor || before.input !== after.input) return true;
  const changed = (i: number | null, j: number | null) =>
    i !== null && j !== null && beforeLines[i] !== afterLines[j];
  return changed(before.cursor, after.cursor) || changed(before.input, after.input);
}
