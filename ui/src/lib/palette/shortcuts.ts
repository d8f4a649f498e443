// The window's global shortcuts: which keydown means what. Pure, so the
// mapping is tested alone; App.svelte listens on the window and acts.
// A focused panel receives plain keys itself (PanelDock stops them), so
// only modifier shortcuts and F6 reach this while a panel has the keyboard.

/** The window's shortcuts, for the sheet (`?`) and the palette's hints. */
export const SHORTCUTS: { keys: string; what: string }[] = [
  { keys: "Ctrl+K", what: "open the command palette" },
  { keys: "Ctrl+L", what: "focus the editor" },
  { keys: "Ctrl+Shift+N", what: "new session (clear the chat)" },
  {
    keys: "Esc",
    what: "stop the turn in flight (in the editor); close a panel (unless its extension takes Esc) or the palette",
  },
  { keys: "Ctrl+C", what: "close the focused panel (in a panel; elsewhere it copies)" },
  { keys: "Ctrl+.", what: "stop the turn in flight, from anywhere" },
  { keys: "Ctrl+J", what: "focus the next extension panel" },
  {
    keys: "Ctrl+Shift+M",
    what: "move the focused panel to the other dock (bottom ↔ side); remembered for that panel",
  },
  { keys: "Ctrl+Shift+A", what: "go to the tool call waiting for approval" },
  {
    keys: "F6 / Shift+F6",
    what: "move the keyboard between the editor and each open panel (a panel stays open)",
  },
  { keys: "?", what: "this sheet (when no text field has focus)" },
  { keys: "Enter / Shift+Enter", what: "send / new line in the editor" },
  { keys: "↑ / ↓", what: "prompt history in the editor" },
];

/** What a global shortcut asks for. */
export type Shortcut =
  | "palette"
  | "focus-editor"
  | "new-session"
  | "stop"
  | "next-panel"
  | "move-panel"
  | "focus-next"
  | "focus-prev"
  | "approval"
  | "shortcuts";

/** The parts of a KeyboardEvent the mapping reads. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
}

/** The shortcut a keydown means, or null. `inText` is true while a text
 * field has focus, where `?` is just a character. */
export function shortcutFor(e: KeyLike, inText: boolean): Shortcut | null {
  if (e.isComposing) return null;
  // Ctrl on Linux and Windows, Cmd on macOS; AltGr (Ctrl+Alt) types text.
  const mod = (e.ctrlKey || e.metaKey) && !e.altKey;
  const k = e.key.toLowerCase();
  if (mod && !e.shiftKey && k === "k") return "palette";
  if (mod && !e.shiftKey && k === "l") return "focus-editor";
  if (mod && e.shiftKey && k === "n") return "new-session";
  if (mod && e.key === ".") return "stop";
  if (mod && !e.shiftKey && k === "j") return "next-panel";
  if (mod && e.shiftKey && k === "a") return "approval";
  if (mod && e.shiftKey && k === "m") return "move-panel";
  if (!mod && !e.altKey && e.key === "F6") return e.shiftKey ? "focus-prev" : "focus-next";
  if (!mod && !e.altKey && e.key === "?" && !inText) return "shortcuts";
  return null;
}

/** Whether the focused element takes typed text. */
export function isTextField(el: Element | null): boolean {
  if (!el) return false;
  const tag = el.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") {
    const type = (el as HTMLInputElement).type;
    return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(type);
  }
  return (el as HTMLElement).isContentEditable === true;
}
