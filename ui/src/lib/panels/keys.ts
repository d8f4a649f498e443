// Turns a browser KeyboardEvent into the spec's normalised `panel_key`
// vocabulary, so every extension sees the same names whatever the platform.
import type { PanelKey } from "../bindings/PanelKey";

/** What a keydown on a focused panel means. */
export type PanelKeyAction =
  { kind: "key"; key: PanelKey; text?: string } | { kind: "close" } | { kind: "ignore" };

/** The parts of a KeyboardEvent that matter here (easy to fake in tests). */
export interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  isComposing?: boolean;
  keyCode?: number;
}

const NAMED: Record<string, PanelKey> = {
  ArrowUp: "up",
  ArrowDown: "down",
  ArrowLeft: "left",
  ArrowRight: "right",
  Up: "up",
  Down: "down",
  Left: "left",
  Right: "right",
  Enter: "enter",
  Tab: "tab",
  PageUp: "pageup",
  PageDown: "pagedown",
  Home: "home",
  End: "end",
  Backspace: "backspace",
  Delete: "delete",
  Del: "delete",
};

/** Normalises one keydown. Esc and Ctrl+C close the panel (the host then
 * sends `panel_close` to the owner), except that Esc goes to an owner that
 * declared the `panel_esc` capability (`escToOwner`) as `panel_key esc`,
 * and it closes the panel itself when it wants; composition and dead keys
 * are ignored here because their text arrives through `compositionend`
 * instead. F-keys and Ctrl shortcuts are ignored too: they are the
 * window's (F6 moves the focus out of the panel). */
export function normaliseKey(e: KeyLike, escToOwner = false): PanelKeyAction {
  // 229 is what WebKit reports for keys that feed an input method.
  if (e.isComposing || e.keyCode === 229 || e.key === "Process" || e.key === "Dead") {
    return { kind: "ignore" };
  }
  if (e.key === "Escape" || e.key === "Esc")
    return escToOwner ? { kind: "key", key: "esc" } : { kind: "close" };
  if (e.ctrlKey && !e.altKey && (e.key === "c" || e.key === "C")) return { kind: "close" };
  const named = NAMED[e.key];
  if (named) return { kind: "key", key: named };
  // Ctrl/Cmd shortcuts are the app's, not characters; AltGr (ctrl+alt) types.
  if ((e.ctrlKey && !e.altKey) || e.metaKey) return { kind: "ignore" };
  if (isPrintable(e.key)) return { kind: "key", key: "rune", text: e.key };
  return { kind: "ignore" };
}

/** Text committed by an input method or a dead-key sequence becomes one
 * `rune` per character (code point), in order. */
export function runesFromText(text: string): PanelKeyAction[] {
  return Array.from(text)
    .filter((ch) => isPrintable(ch))
    .map((ch) => ({ kind: "key", key: "rune", text: ch }) as const);
}

/** One user-perceived character: named keys like "Shift" or "F5" are longer. */
function isPrintable(key: string): boolean {
  const chars = Array.from(key);
  if (chars.length !== 1) {
    // Emoji with modifiers/ZWJ arrive as one grapheme of several code points.
    return chars.length > 1 && !/^[A-Za-z0-9]+$/.test(key) && !/[\p{Cc}]/u.test(key);
  }
  return !/[\p{Cc}]/u.test(key);
}
