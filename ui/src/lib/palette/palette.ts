// The command palette's entries and its filter. Pure: the component turns
// an entry's `run` into an action on the app, so the list and the matching
// are tested without a window.
import type { CommandInfo } from "../bindings/CommandInfo";

/** What choosing an entry does. */
export type PaletteAction =
  | { kind: "command"; name: string; takesArgs: boolean }
  | { kind: "view"; view: "chat" | "manager" | "settings" }
  | { kind: "panel"; id: string }
  | { kind: "session"; path: string }
  | { kind: "sessions" }
  | { kind: "shortcuts" }
  | { kind: "stop" }
  | { kind: "focus-editor" }
  /** Opens a project folder; `null` asks with the folder picker. */
  | { kind: "project"; path: string | null };

/** One row of the palette. */
export interface PaletteEntry {
  /** What the row says. */
  label: string;
  /** The grey text after it: a description, the owner, a shortcut. */
  detail: string;
  /** The group it is listed under. */
  group: "Commands" | "Go to" | "Panels" | "Projects" | "Sessions" | "Actions";
  action: PaletteAction;
}

/** A command takes arguments when its usage names any, or it is an
 * extension's (whose arguments zot cannot know): those are typed into the
 * editor as `/name ` instead of run at once. */
function takesArgs(c: CommandInfo & { usage?: string }): boolean {
  if (c.extension) return true;
  return /\s\S/.test(c.usage ?? "");
}

/** Every entry, in the order shown when the query is empty. */
export function entries(
  commands: (CommandInfo & { usage?: string })[],
  panels: { id: string; title: string; extension: string }[],
  busy: boolean,
  sessions: { path: string; title: string; messages: number; current: boolean }[] = [],
  recent: { path: string; name: string; missing: boolean }[] = [],
): PaletteEntry[] {
  const out: PaletteEntry[] = [];
  if (busy)
    out.push({ label: "Stop the turn", detail: "Ctrl+.", group: "Actions", action: { kind: "stop" } });
  out.push(
    {
      label: "Chat",
      detail: "Ctrl+L focuses the editor",
      group: "Go to",
      action: { kind: "view", view: "chat" },
    },
    { label: "Extensions", detail: "the manager", group: "Go to", action: { kind: "view", view: "manager" } },
    {
      label: "Settings",
      detail: "provider, model, theme",
      group: "Go to",
      action: { kind: "view", view: "settings" },
    },
  );
  out.push({
    label: "Sessions",
    detail: "show or hide the sidebar",
    group: "Go to",
    action: { kind: "sessions" },
  });
  for (const p of panels)
    out.push({
      label: p.title || p.id,
      detail: p.extension,
      group: "Panels",
      action: { kind: "panel", id: p.id },
    });
  out.push({
    label: "Open folder…",
    detail: "open another project",
    group: "Projects",
    action: { kind: "project", path: null },
  });
  // A missing folder cannot be opened: it is listed (greyed, removable) on
  // the start screen only.
  for (const r of recent)
    if (!r.missing)
      out.push({
        label: r.name,
        detail: r.path,
        group: "Projects",
        action: { kind: "project", path: r.path },
      });
  for (const c of commands)
    out.push({
      label: `/${c.name}`,
      detail: [c.description, c.extension ? `[${c.extension}]` : ""].filter(Boolean).join(" "),
      group: "Commands",
      action: { kind: "command", name: c.name, takesArgs: takesArgs(c) },
    });
  for (const x of sessions)
    if (!x.current)
      out.push({
        label: x.title,
        detail: `${x.messages} message${x.messages === 1 ? "" : "s"}`,
        group: "Sessions",
        action: { kind: "session", path: x.path },
      });
  out.push(
    { label: "Focus the editor", detail: "Ctrl+L", group: "Actions", action: { kind: "focus-editor" } },
    { label: "Keyboard shortcuts", detail: "?", group: "Actions", action: { kind: "shortcuts" } },
  );
  return out;
}

/** How well `query` matches `text` (case-insensitive): a prefix beats a
 * word start beats a substring beats its letters scattered in order. Null
 * when it does not match. */
export function score(query: string, text: string): number | null {
  const q = query.toLowerCase().replace(/^\//, "");
  const t = text.toLowerCase().replace(/^\//, "");
  if (!q) return 0;
  if (t.startsWith(q)) return 1000 - t.length;
  const word = t.indexOf(q);
  if (word >= 0) return (word === 0 || /[\s\-_:/]/.test(t[word - 1]) ? 800 : 600) - word;
  // Scattered letters only from three typed characters on: "to" would
  // otherwise match half the list.
  if (q.length < 3) return null;
  let at = 0;
  let gaps = 0;
  for (const ch of q) {
    const i = t.indexOf(ch, at);
    if (i < 0) return null;
    gaps += i - at;
    at = i + 1;
  }
  return 300 - gaps;
}

/** The entries that match, best first; ties keep the listed order. */
export function filter(all: PaletteEntry[], query: string): PaletteEntry[] {
  if (!query.trim()) return all;
  return all
    .map((e, i) => {
      const s = score(query.trim(), e.label);
      const d = score(query.trim(), e.detail);
      // A match in the description counts, below any match in the label.
      const best = s ?? (d === null ? null : d - 1000);
      return { e, i, best };
    })
    .filter((x) => x.best !== null)
    .sort((a, b) => (b.best as number) - (a.best as number) || a.i - b.i)
    .map((x) => x.e);
}
