// What a finished tool card shows, computed once per result (pure, so it
// is tested without a DOM): a diff for edit/write, the command, exit status
// and output for bash, plain text otherwise. Highlighting is highlight.js's
// escaped output only; everything else stays text for the template.
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { ContentBlock } from "../bindings/ContentBlock";
import { lineDiff, type DiffLine } from "./approval";

/** Lines a long output shows before "Show all N lines". */
export const COLLAPSED_LINES = 20;

/** A diff line with its highlighted HTML (escaped by highlight.js). */
export interface ShownLine extends DiffLine {
  html: string;
}

/** How a bash call ended, read from the tool's own result text. */
export type BashEnd =
  | { kind: "ok" }
  | { kind: "exit"; code: number }
  | { kind: "signal" }
  | { kind: "timeout" }
  | { kind: "aborted" }
  | { kind: "unknown" };

export type ToolView =
  | { kind: "diff"; path: string; lines: ShownLine[]; note?: string }
  | { kind: "bash"; command: string; end: BashEnd; output: string }
  | { kind: "plain" };

function str(args: JsonValue, key: string): string | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const v = (args as { [k: string]: JsonValue })[key];
  return typeof v === "string" ? v : undefined;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** Turns one line of a file at `path` into HTML that is safe to insert. */
export type Highlight = (text: string, path: string) => string;

/** Without the markdown renderer (loaded lazily, and it owns highlight.js),
 * a line is escaped text. */
const plainLine: Highlight = (text) => escapeHtml(text);

function shown(lines: DiffLine[], path: string, highlight: Highlight): ShownLine[] {
  return lines.map((l) => ({ ...l, html: highlight(l.text, path) }));
}

/** The bash tool appends `[exit status: N]`, `[exit status: killed by a
 * signal]`, `[timed out …]` or `[aborted …]` as its last line on failure
 * (src-tauri/src/tools/bash.rs); success has no marker. Splits that off. */
export function parseBashResult(text: string, isError: boolean): { end: BashEnd; output: string } {
  if (!isError) return { end: { kind: "ok" }, output: text === "(no output)" ? "" : text };
  const m = /\n?\[(exit status: (\d+|killed by a signal)|timed out[^\]\n]*|aborted[^\]\n]*)\]$/.exec(text);
  if (!m) return { end: { kind: "unknown" }, output: text };
  const output = text.slice(0, m.index);
  const marker = m[1] ?? "";
  if (m[2] === "killed by a signal") return { end: { kind: "signal" }, output };
  if (m[2] !== undefined) return { end: { kind: "exit", code: Number(m[2]) }, output };
  if (marker.startsWith("timed out")) return { end: { kind: "timeout" }, output };
  return { end: { kind: "aborted" }, output };
}

/** Words for an end, as the card shows them. */
export function endLabel(end: BashEnd): string {
  switch (end.kind) {
    case "ok":
      return "exit 0";
    case "exit":
      return `exit ${end.code}`;
    case "signal":
      return "killed by a signal";
    case "timeout":
      return "timed out";
    case "aborted":
      return "aborted";
    default:
      return "failed";
  }
}

/** The first COLLAPSED_LINES lines unless `all`, and how many there are. */
export function collapse<T>(
  lines: T[],
  all: boolean,
  limit = COLLAPSED_LINES,
): { shown: T[]; total: number; hidden: number } {
  // A little slack: folding away two lines saves nothing.
  if (all || lines.length <= limit + 2) return { shown: lines, total: lines.length, hidden: 0 };
  return { shown: lines.slice(0, limit), total: lines.length, hidden: lines.length - limit };
}

/** The result's text blocks joined. */
export function resultText(result: ContentBlock[] | undefined): string {
  return (result ?? [])
    .map((b) => (b.type === "text" ? b.text : ""))
    .filter((t) => t !== "")
    .join("\n");
}

/** The view for a built-in tool's call; extension tools stay plain. */
export function toolView(
  tool: string,
  args: JsonValue,
  result: ContentBlock[] | undefined,
  isError: boolean,
  extension?: string,
  highlight: Highlight = plainLine,
): ToolView {
  if (extension) return { kind: "plain" };
  const path = str(args, "path");
  if (tool === "edit" && path !== undefined) {
    // The tool call carries the replaced and the new text only, not the
    // whole file, so this is the diff of that region.
    const oldS = str(args, "old_string") ?? "";
    const newS = str(args, "new_string") ?? "";
    return { kind: "diff", path, lines: shown(lineDiff(oldS, newS), path, highlight) };
  }
  if (tool === "rewind_file" && path !== undefined) {
    // A rewind's preview (rewind/rewind.svelte.ts): the whole file now →
    // at the checkpoint.
    const oldS = str(args, "old_string") ?? "";
    const newS = str(args, "new_string") ?? "";
    const note = resultText(result);
    return {
      kind: "diff",
      path,
      lines: shown(lineDiff(oldS, newS), path, highlight),
      ...(note ? { note } : {}),
    };
  }
  if (tool === "write" && path !== undefined) {
    // Neither the call nor its result carries the file's previous text, so
    // this shows what was written rather than inventing a diff.
    const content = str(args, "content") ?? "";
    return {
      kind: "diff",
      path,
      lines: shown(lineDiff("", content), path, highlight),
      note: "written content (a new file, or the whole of an overwritten one)",
    };
  }
  const command = str(args, "command");
  if (tool === "bash" && command !== undefined && result !== undefined) {
    const { end, output } = parseBashResult(resultText(result), isError);
    return { kind: "bash", command, end, output };
  }
  return { kind: "plain" };
}

const cache = new WeakMap<object, { view: ToolView; highlighted: boolean }>();

/** `toolView` remembered per result array, so a card scrolled back into
 * the virtual list does not diff and highlight again; computed once more
 * when a highlighter arrives (the renderer loads lazily). */
export function toolViewCached(
  tool: string,
  args: JsonValue,
  result: ContentBlock[] | undefined,
  isError: boolean,
  extension?: string,
  highlight?: Highlight,
): ToolView {
  if (result === undefined) return toolView(tool, args, result, isError, extension, highlight);
  const hit = cache.get(result);
  if (hit && (hit.highlighted || !highlight)) return hit.view;
  const view = toolView(tool, args, result, isError, extension, highlight);
  cache.set(result, { view, highlighted: !!highlight });
  return view;
}

/** "+N −M": the lines a diff adds and removes, for a collapsed card. */
export function diffCounts(lines: { op: string }[]): string {
  let add = 0;
  let del = 0;
  for (const l of lines) {
    if (l.op === "+") add++;
    else if (l.op === "-") del++;
  }
  return `+${add} −${del}`;
}
