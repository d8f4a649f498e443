// What the main window and a panel's own OS window (placement "window")
// say to each other, through the Rust glue (src-tauri/src/desktop/
// panel_window.rs). The main window holds the panels and the user's
// choices; a panel window asks for its panel when its page is ready and
// then follows the same event stream as the main window.
import type { PanelCapability } from "../bindings/PanelCapability";
import type { PanelPlacement } from "../bindings/PanelPlacement";
import type { PanelSpec } from "../bindings/PanelSpec";
import type { ThemeFile } from "../bindings/ThemeFile";
import type { UiEvent } from "../bindings/UiEvent";

/** The main window hears this about a panel window. */
export type PanelWindowNote =
  | { kind: "ready"; extension: string; panel_id: string }
  /** The user closed the OS window. */
  | { kind: "closed"; extension: string; panel_id: string }
  /** Its close button, Esc or Ctrl+C. */
  | { kind: "close"; extension: string; panel_id: string }
  /** Its place buttons or Ctrl+Shift+M. */
  | { kind: "move"; extension: string; panel_id: string; placement: PanelPlacement };

/** A panel window asks the main window to do this with its panel. */
export type PanelWindowAction =
  | { kind: "close" }
  | { kind: "move"; placement: PanelPlacement }
  /** The panel's title changed: the OS window's title follows. */
  | { kind: "title"; title: string };

/** The panel as the main window has it, sent to its window. `spec` is
 * absent when the panel is gone (its extension crashed): the window then
 * says so instead. */
export interface PanelSnapshot {
  extension: string;
  panel_id: string;
  spec?: PanelSpec;
  capabilities: PanelCapability[];
  net: boolean;
  /** The main window's theme, applied as is. */
  theme: ThemeFile;
}

/** The label prefix of every panel window (its capability matches it). */
export const PANEL_WINDOW_PREFIX = "panel-";

/** Whether a window label is a panel window's. */
export function isPanelWindow(label: string | undefined): boolean {
  return !!label && label.startsWith(PANEL_WINDOW_PREFIX);
}

/** The dock a panel goes to when the user closes its window: the dock its
 * owner asked for, else the bottom one, where panels always were. */
export function dockAfterWindow(hint: PanelPlacement): "bottom" | "side" {
  return hint === "side" ? "side" : "bottom";
}

/** Whether event `e` concerns panel `panelId` of `extension` (the window
 * of that panel follows only these). */
export function concernsPanel(e: UiEvent, extension: string, panelId: string): boolean {
  switch (e.type) {
    case "ext_panel_open":
      return e.extension === extension && e.panel.id === panelId;
    case "ext_panel_render":
    case "ext_panel_close":
    case "ext_panel_message":
      return e.panel_id === panelId;
    case "ext_error":
    case "ext_restarting":
      return e.extension === extension;
    default:
      return false;
  }
}

/** Events of a panel window that came before its panel did (it learns
 * which panel it shows from the first snapshot): the panel events, the
 * newest `max` of them, replayed once it knows. */
export class EarlyEvents {
  #events: UiEvent[] = [];
  constructor(private readonly max = 256) {}

  add(e: UiEvent): void {
    if (!PANEL_EVENTS.has(e.type)) return;
    this.#events.push(e);
    if (this.#events.length > this.max) this.#events.shift();
  }

  /** What concerns `extension`'s panel `panelId`, in order; the hold is emptied. */
  take(extension: string, panelId: string): UiEvent[] {
    const out = this.#events.filter((e) => concernsPanel(e, extension, panelId));
    this.#events = [];
    return out;
  }
}

const PANEL_EVENTS = new Set<UiEvent["type"]>([
  "ext_panel_open",
  "ext_panel_render",
  "ext_panel_close",
  "ext_panel_message",
  "ext_error",
  "ext_restarting",
]);
