// Open extension panels. Several panels are tabs; one is active. At most one
// render is applied per animation frame, so an extension that pushes 100
// renders a second costs at most one DOM update per frame.
import type { PanelCapability } from "../bindings/PanelCapability";
import type { PanelPlacement } from "../bindings/PanelPlacement";
import type { PanelSpec } from "../bindings/PanelSpec";
import type { PanelPlacementChoice } from "../bindings/PanelPlacementChoice";
import { choiceKey, dockOf, placementOf as chosenOrHint, type Dock } from "./placement";
import { PageInbox, PageOutbox } from "./frames";

/** A placement the window knows; anything else is the default. */
function placementOf(p: string | undefined): PanelPlacement {
  return p === "side" || p === "window" ? p : "bottom";
}

/** One open panel. */
export interface Panel {
  id: string;
  extension: string;
  title: string;
  lines: string[];
  /** An HTML panel's document (shown in a sandboxed frame instead of
   * `lines`: HtmlFrame.svelte). */
  html?: string;
  /** Its page may use the network (its manifest grants `sandbox.net`). */
  net: boolean;
  footer: string;
  /** Its owner declared `panel_esc`: Esc goes to it as a key instead of
   * closing the panel (Ctrl+C still closes). */
  escToOwner: boolean;
  /** Its owner declared `panel_mouse`: clicks and the wheel go to it. */
  mouse: boolean;
  /** Its owner declared `panel_resize`: it is told the text area's size. */
  resize: boolean;
  /** Where its owner would like it (a hint; `bottom` when none; the
   * user's choice wins: PanelsState.placeOf). */
  placement: PanelPlacement;
  /** Which `ext_panel_open` this is (a reopened panel is told its size again). */
  opened: number;
  /** Bumped on every applied render (the benchmark waits for it). */
  version: number;
}

/** Reactive set of panels plus focus. */
export class PanelsState {
  panels: Panel[] = $state([]);
  activeId: string | null = $state(null);
  /** Keys go to the active panel while this is true. */
  focused = $state(false);
  /** Where the user put panels, by `choiceKey(extension, id)`. */
  chosen: Record<string, PanelPlacement> = $state({});
  /** The tab each dock showed last, so a dock keeps its panel while the
   * keyboard is in the other one. */
  #lastShown: Record<Dock, string | null> = $state({ bottom: null, side: null, window: null });
  /** This is a panel's own window (PanelWindow.svelte), which shows its one
   * panel; in the main window a panel placed in its own window never takes
   * the keyboard: that window does. */
  readonly ownWindow: boolean;
  #opens = 0;
  /** HTML panels' messages both ways, by panel id (not reactive: frames
   * attach to them). */
  #inboxes = new Map<string, PageInbox>();
  #outboxes = new Map<string, PageOutbox>();
  #pending = new Map<string, { title?: string; lines: string[]; footer?: string }>();
  /** A flush is queued for the next animation frame. */
  #scheduled = false;
  /** A render was applied since the last animation frame began, so the
   * next one waits for the coming frame. */
  #flushedThisFrame = false;
  #schedule: (cb: () => void) => void;

  /** `schedule` runs a callback at the next animation frame (a stand-in in tests). */
  constructor(schedule?: (cb: () => void) => void, ownWindow = false) {
    this.ownWindow = ownWindow;
    this.#schedule =
      schedule ??
      (typeof requestAnimationFrame === "function"
        ? (cb) => requestAnimationFrame(cb)
        : (cb) => setTimeout(cb, 0));
  }

  /** The panel keys go to, if any. */
  get active(): Panel | undefined {
    return this.panels.find((p) => p.id === this.activeId);
  }

  /** Where panel `p` sits: the user's choice, else its owner's hint. */
  placeOf(p: Panel): PanelPlacement {
    return chosenOrHint(p.placement, this.chosen[choiceKey(p.extension, p.id)]);
  }

  /** Whether panel `p` is shown in the main window's docks. */
  docked(p: Panel): boolean {
    return dockOf(this.placeOf(p)) !== "window";
  }

  /** Whether panel `p` lives in a window other than this one (the main
   * window's view of a panel in its own window). */
  #elsewhere(p: Panel): boolean {
    return !this.ownWindow && !this.docked(p);
  }

  /** The panels a dock shows as tabs, in opening order. */
  inDock(dock: Dock): Panel[] {
    return this.panels.filter((p) => dockOf(this.placeOf(p)) === dock);
  }

  /** The panel a dock shows: the active one if it is there, else the one
   * it showed last, else its first. */
  shownIn(dock: Dock): Panel | undefined {
    const here = this.inDock(dock);
    return (
      here.find((p) => p.id === this.activeId) ?? here.find((p) => p.id === this.#lastShown[dock]) ?? here[0]
    );
  }

  /** The choices the backend remembered (at start). */
  remember(choices: readonly PanelPlacementChoice[]): void {
    for (const c of choices) this.chosen[choiceKey(c.extension, c.panel_id)] = c.placement;
  }

  /** The user moves panel `panelId` to `placement`; it stays active (and
   * focused if it was). Returns the choice to remember, or null when
   * there is no such panel. */
  move(panelId: string, placement: PanelPlacement): PanelPlacementChoice | null {
    const p = this.panels.find((x) => x.id === panelId);
    if (!p) return null;
    this.chosen[choiceKey(p.extension, p.id)] = placement;
    if (this.#elsewhere(p)) {
      // Gone to its own window, which has the keyboard now.
      if (this.activeId === p.id) {
        this.activeId = this.panels.find((x) => this.docked(x))?.id ?? null;
        this.focused = false;
      }
    } else this.activeId = p.id;
    this.#lastShown[dockOf(placement)] = p.id;
    return { extension: p.extension, panel_id: p.id, placement };
  }

  /** `ext_panel_open`: docks (or replaces) the panel and focuses it.
   * `capabilities` is the panel input its owner declared. */
  open(extension: string, spec: PanelSpec, capabilities: readonly PanelCapability[] = [], net = false): void {
    const existing = this.panels.find((p) => p.id === spec.id);
    const panel: Panel = {
      id: spec.id,
      extension,
      title: spec.title ?? extension,
      lines: spec.html !== undefined ? [] : spec.lines,
      html: spec.html,
      net: spec.html !== undefined && net,
      footer: spec.footer ?? "",
      escToOwner: capabilities.includes("panel_esc"),
      mouse: capabilities.includes("panel_mouse"),
      resize: capabilities.includes("panel_resize"),
      placement: placementOf(spec.placement),
      opened: ++this.#opens,
      version: 0,
    };
    if (existing) Object.assign(existing, panel, { version: existing.version + 1 });
    else this.panels.push(panel);
    if (panel.html !== undefined) {
      // A reopened page starts afresh: nothing held for the old one.
      this.#inboxes.set(spec.id, new PageInbox());
      if (!this.#outboxes.has(spec.id)) this.#outboxes.set(spec.id, new PageOutbox());
    } else {
      this.#inboxes.delete(spec.id);
      this.#outboxes.delete(spec.id);
    }
    this.#pending.delete(spec.id);
    this.#lastShown[dockOf(this.placeOf(panel))] = spec.id;
    // A panel in its own window takes that window's keyboard, not this one's.
    if (this.#elsewhere(panel)) return;
    this.activeId = spec.id;
    this.focused = true;
  }

  /** `ext_panel_render`: applied at once if nothing was applied since the
   * last frame began (a keypress answer never waits for a frame); otherwise
   * queued, and every render queued within one frame is applied together at
   * the next one, in place. A wall-clock window (16 ms since the last apply)
   * was used before: renders answering keys typed about 60 times a second
   * then waited for a frame although none had been drawn in between. */
  render(panelId: string, lines: string[], title?: string, footer?: string): void {
    if (!this.panels.some((p) => p.id === panelId)) return;
    this.#pending.set(panelId, { title, lines, footer });
    if (this.#scheduled) return;
    if (!this.#flushedThisFrame) {
      this.flush();
      return;
    }
    this.#scheduled = true;
    this.#schedule(() => this.flush());
  }

  /** Applies queued renders now. */
  flush(): void {
    this.#scheduled = false;
    if (!this.#flushedThisFrame) {
      this.#flushedThisFrame = true;
      // Registered before any flush queued after it, so at the next frame
      // it runs first and that flush counts as the new frame's one.
      this.#schedule(() => (this.#flushedThisFrame = false));
    }
    for (const [id, r] of this.#pending) {
      const p = this.panels.find((x) => x.id === id);
      if (!p) continue;
      p.lines = r.lines;
      if (r.title !== undefined) p.title = r.title;
      if (r.footer !== undefined) p.footer = r.footer;
      p.version++;
    }
    this.#pending.clear();
  }

  /** Removes a panel (closed by the user, its owner, or its owner's death). */
  remove(panelId: string): void {
    const i = this.panels.findIndex((p) => p.id === panelId);
    if (i < 0) return;
    this.panels.splice(i, 1);
    this.#pending.delete(panelId);
    this.#inboxes.get(panelId)?.detach();
    this.#inboxes.delete(panelId);
    this.#outboxes.delete(panelId);
    if (this.activeId === panelId) {
      const docked = this.panels.filter((p) => !this.#elsewhere(p));
      this.activeId = docked[Math.min(i, docked.length - 1)]?.id ?? null;
      if (!this.activeId) this.focused = false;
    }
  }

  /** Every panel of one extension (it crashed or was reloaded). */
  removeOwnedBy(extension: string): Panel[] {
    const gone = this.panels.filter((p) => p.extension === extension);
    for (const p of gone) this.remove(p.id);
    return gone;
  }

  /** Messages from its extension for HTML panel `panelId`'s page. */
  inbox(panelId: string): PageInbox | undefined {
    return this.#inboxes.get(panelId);
  }

  /** Messages from HTML panel `panelId`'s page to its extension. */
  outbox(panelId: string): PageOutbox | undefined {
    return this.#outboxes.get(panelId);
  }

  /** Makes a tab active and focused (not one in its own window). */
  activate(panelId: string): void {
    const p = this.panels.find((x) => x.id === panelId);
    if (p && !this.#elsewhere(p)) {
      this.activeId = panelId;
      this.#lastShown[dockOf(this.placeOf(p))] = panelId;
      this.focused = true;
    }
  }
}
