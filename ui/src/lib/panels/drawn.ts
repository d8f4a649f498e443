// What one panel line draws, capped: a line of a megabyte must not become a
// megabyte of DOM text (the window would stall on layout), and no panel is
// wider than a few hundred cells, so past the cap nothing could be seen
// anyway (lines do not wrap; `.pline` hides the overflow). The limits are
// in docs/desktop.md "Panels".
import { parseAnsi, type AnsiSpan } from "./ansi";

/** Characters (scalar values, SGR removed) drawn of one line at most. */
export const MAX_DRAWN_CHARS = 2000;
/** UTF-16 units of one line parsed at most: room for the drawn characters
 * and plenty of SGR between them. */
export const MAX_PARSED_UNITS = 65536;

/** The spans of `line` that are drawn: its first MAX_DRAWN_CHARS characters. */
export function drawnSpans(line: string): AnsiSpan[] {
  const spans = parseAnsi(line.length > MAX_PARSED_UNITS ? line.slice(0, MAX_PARSED_UNITS) : line);
  let left = MAX_DRAWN_CHARS;
  const out: AnsiSpan[] = [];
  for (const s of spans) {
    if (left <= 0) break;
    // Most spans are short: count only when one might cross the cap.
    if (s.text.length <= left) {
      let n = 0;
      for (const _ of s.text) n++;
      left -= n;
      out.push(s);
      continue;
    }
    let cut = 0;
    let n = 0;
    for (const ch of s.text) {
      if (n === left) break;
      cut += ch.length;
      n++;
    }
    left -= n;
    out.push({ ...s, text: s.text.slice(0, cut) });
  }
  return out;
}
