// A small ANSI parser for panel lines. Only SGR (`ESC [ … m`) is honoured:
// it yields styled spans of plain text. Every other escape or control
// sequence is shown as inert text (ESC drawn as ␛, other C0 controls as
// their Unicode control pictures), so a panel can never move a cursor,
// set a title, or smuggle markup: the result is rendered as text nodes only.

/** One run of text with one style. */
export interface AnsiSpan {
  text: string;
  /** A palette class index 0–15, or a CSS `#rrggbb` for 256/true colour. */
  fg?: number | string;
  bg?: number | string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strike?: boolean;
}

type Style = Omit<AnsiSpan, "text">;

const ESC = "\u001b";

/** Parses one line into spans. Never throws; malformed SGR is shown as text. */
export function parseAnsi(line: string): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  let style: Style = {};
  let buf = "";
  const flush = () => {
    if (buf) spans.push({ text: buf, ...style });
    buf = "";
  };
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === ESC && line[i + 1] === "[") {
      // CSI: parameters 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E.
      let j = i + 2;
      while (j < line.length && line.charCodeAt(j) >= 0x30 && line.charCodeAt(j) <= 0x3f) j++;
      while (j < line.length && line.charCodeAt(j) >= 0x20 && line.charCodeAt(j) <= 0x2f) j++;
      const final = line[j];
      const params = line.slice(i + 2, j);
      if (final === "m" && /^[0-9;:]*$/.test(params)) {
        flush();
        style = applySgr(style, params);
        i = j + 1;
        continue;
      }
      // Not SGR (or unterminated): show it, inert.
      const end = final !== undefined && line.charCodeAt(j) >= 0x40 && line.charCodeAt(j) <= 0x7e ? j + 1 : j;
      buf += visible(line.slice(i, end));
      i = end;
      continue;
    }
    buf += visible(ch);
    i++;
  }
  flush();
  return spans;
}

/** Replaces control characters (other than tab) with visible pictures. */
export function visible(s: string): string {
  return s.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, (c) => {
    const code = c.charCodeAt(0);
    return code === 0x7f ? "\u2421" : String.fromCharCode(0x2400 + code);
  });
}

function applySgr(prev: Style, params: string): Style {
  const s: Style = { ...prev };
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  for (let k = 0; k < codes.length; k++) {
    const c = codes[k];
    if (c === 0) {
      for (const key of Object.keys(s)) delete (s as Record<string, unknown>)[key];
    } else if (c === 1) s.bold = true;
    else if (c === 2) s.dim = true;
    else if (c === 3) s.italic = true;
    else if (c === 4) s.underline = true;
    else if (c === 7) s.inverse = true;
    else if (c === 9) s.strike = true;
    else if (c === 22) {
      delete s.bold;
      delete s.dim;
    } else if (c === 23) delete s.italic;
    else if (c === 24) delete s.underline;
    else if (c === 27) delete s.inverse;
    else if (c === 29) delete s.strike;
    else if (c >= 30 && c <= 37) s.fg = c - 30;
    else if (c >= 90 && c <= 97) s.fg = c - 90 + 8;
    else if (c === 39) delete s.fg;
    else if (c >= 40 && c <= 47) s.bg = c - 40;
    else if (c >= 100 && c <= 107) s.bg = c - 100 + 8;
    else if (c === 49) delete s.bg;
    else if (c === 38 || c === 48) {
      const [colour, used] = extended(codes, k + 1);
      if (colour !== undefined) {
        if (c === 38) s.fg = colour;
        else s.bg = colour;
      }
      k += used;
    }
  }
  return s;
}

/** `5;n` (256 colours) or `2;r;g;b` (true colour) after a 38/48. */
function extended(codes: number[], at: number): [number | string | undefined, number] {
  if (codes[at] === 5) {
    const n = codes[at + 1];
    if (n === undefined || n < 0 || n > 255) return [undefined, 2];
    return [n < 16 ? n : xterm256(n), 2];
  }
  if (codes[at] === 2) {
    const rgb = codes.slice(at + 1, at + 4);
    if (rgb.length < 3 || rgb.some((v) => !(v >= 0 && v <= 255))) return [undefined, 4];
    return [hex(rgb[0], rgb[1], rgb[2]), 4];
  }
  return [undefined, 0];
}

function xterm256(n: number): string {
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return hex(v, v, v);
  }
  const i = n - 16;
  const steps = [0, 95, 135, 175, 215, 255];
  return hex(steps[Math.floor(i / 36)], steps[Math.floor(i / 6) % 6], steps[i % 6]);
}

function hex(r: number, g: number, b: number): string {
  return "#" + [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
}

/** How a span is drawn: palette colours and attributes as classes (the
 * palette is tuned per appearance in app.css), 256/true colours as CSS. */
export interface SpanLook {
  className: string;
  color?: string;
  background?: string;
}

/** A span's look. Reverse video swaps the colours the span ends up with:
 * its own, or the panel's text and surface colours where it set none
 * (`ansi-fg-rev` / `ansi-bg-rev`), so `ESC[31;7m` is red behind
 * surface-coloured text, as a terminal draws it. */
export function spanLook(s: AnsiSpan): SpanLook {
  let fg: number | string | "rev" | undefined = s.fg;
  let bg: number | string | "rev" | undefined = s.bg;
  if (s.inverse) [fg, bg] = [s.bg ?? "rev", s.fg ?? "rev"];
  const c: string[] = [];
  const look: SpanLook = { className: "" };
  if (fg === "rev") c.push("ansi-fg-rev");
  else if (typeof fg === "number") c.push(`ansi-fg-${fg}`);
  else if (fg !== undefined) look.color = fg;
  if (bg === "rev") c.push("ansi-bg-rev");
  else if (typeof bg === "number") c.push(`ansi-bg-${bg}`);
  else if (bg !== undefined) look.background = bg;
  if (s.bold) c.push("ansi-bold");
  if (s.dim) c.push("ansi-dim");
  if (s.italic) c.push("ansi-italic");
  if (s.underline && s.strike) c.push("ansi-underline-strike");
  else if (s.underline) c.push("ansi-underline");
  else if (s.strike) c.push("ansi-strike");
  look.className = c.join(" ");
  return look;
}
