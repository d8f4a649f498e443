// What an approval card shows for a call: the exact command for bash, a
// line diff for write/edit (from the file's current text, which the
// backend sends as `before`), the arguments as JSON for anything else;
// and which keys answer it. Pure, so it is tested without a DOM.
import { diffLines } from "diff";
import type { JsonValue } from "../bindings/serde_json/JsonValue";

/** One line of a diff: added, removed or unchanged context. */
export interface DiffLine {
  op: "+" | "-" | " ";
  text: string;
}

/** The body of a card. */
export type ApprovalView =
  | { kind: "command"; command: string }
  | { kind: "diff"; path: string; lines: DiffLine[]; note?: string }
  | { kind: "args"; text: string };

/** Unchanged lines kept around each change; the rest fold into "…". */
export const CONTEXT = 3;

function str(args: JsonValue, key: string): string | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const v = (args as { [k: string]: JsonValue })[key];
  return typeof v === "string" ? v : undefined;
}

/** `before` → `after` as lines, unchanged runs folded to CONTEXT lines. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(before, after)) {
    const op = part.added ? "+" : part.removed ? "-" : " ";
    const lines = part.value.replace(/\n$/, "").split("\n");
    for (const text of lines) out.push({ op, text });
  }
  // Fold long unchanged stretches so the change stays in view.
  const keep = out.map(() => false);
  out.forEach((l, i) => {
    if (l.op === " ") return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(out.length - 1, i + CONTEXT); j++) keep[j] = true;
  });
  const folded: DiffLine[] = [];
  let skipped = false;
  out.forEach((l, i) => {
    if (keep[i]) {
      folded.push(l);
      skipped = false;
    } else if (!skipped) {
      folded.push({ op: " ", text: "…" });
      skipped = true;
    }
  });
  return folded;
}

/** What the card shows for this call. */
export function approvalView(
  tool: string,
  args: JsonValue,
  before?: string,
  extension?: string,
): ApprovalView {
  const builtin = !extension;
  const command = str(args, "command");
  if (builtin && tool === "bash" && command !== undefined) return { kind: "command", command };
  const path = str(args, "path");
  if (builtin && tool === "write" && path !== undefined) {
    const content = str(args, "content") ?? "";
    return {
      kind: "diff",
      path,
      lines: lineDiff(before ?? "", content),
      note: before === undefined ? "new file (or one too big to show)" : undefined,
    };
  }
  if (builtin && tool === "edit" && path !== undefined) {
    const oldS = str(args, "old_string") ?? "";
    const newS = str(args, "new_string") ?? "";
    // The whole file's change when its text came along and the edit
    // applies once; else just the replaced text.
    if (before !== undefined && oldS && before.split(oldS).length === 2) {
      return {
        kind: "diff",
        path,
        lines: lineDiff(
          before,
          before.replace(oldS, () => newS),
        ),
      };
    }
    return { kind: "diff", path, lines: lineDiff(oldS, newS), note: "the replaced text only" };
  }
  return { kind: "args", text: JSON.stringify(args, null, 2) };
}

/** The parts of a keydown the card reads. */
export interface CardKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
}

/** What a keydown on a focused, waiting card answers: Enter or Y allow
 * once, Escape or N deny. "Always allow" has no key at all: it is a
 * button whose confirmation is a second, separate button, so no single
 * key press (and no key typed for the editor) can remember a rule. On a
 * focused button Enter is the button's own (the browser clicks it). */
export function cardKey(e: CardKey, onButton: boolean): "allow" | "deny" | null {
  if (e.isComposing || e.altKey || e.ctrlKey || e.metaKey) return null;
  const key = e.key.toLowerCase();
  if (key === "escape" || key === "n") return "deny";
  if ((key === "enter" && !onButton) || key === "y") return "allow";
  return null;
}

/** The line a tool card shows for its answered approval: the decision,
 * who made it and at what time (local HH:MM). */
export function foldLine(fold: {
  state: "allowed" | "always" | "denied" | "expired";
  at: number;
  remember?: string;
}): { icon: string; text: string } {
  const d = new Date(fold.at);
  const time = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  switch (fold.state) {
    case "allowed":
      return { icon: "✓", text: `Allowed once by you at ${time}` };
    case "always":
      return { icon: "✓", text: `Always allowed by you at ${time}: ${fold.remember ?? "this call"}` };
    case "denied":
      return { icon: "✗", text: `Denied by you at ${time}` };
    case "expired":
      return { icon: "–", text: `Not answered: the prompt ended at ${time}` };
  }
}
