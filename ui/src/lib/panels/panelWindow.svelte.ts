// The state of a panel's own OS window (placement "window"). It is the
// app's state with one panel: PanelDock renders it exactly as in a dock,
// keys, clicks, the wheel and sizes go to the backend as there (the
// `rpc` command lets this window send only its panel's input), and what
// changes the panels of the app (close, move) is asked of the main window,
// which owns them (windowSync.ts). It learns its panel from the main
// window's first snapshot, then follows the event stream itself.
import { AppState } from "../app.svelte";
import type { Backend } from "../backend/backend";
import type { PanelPlacement } from "../bindings/PanelPlacement";
import type { ThemeFile } from "../bindings/ThemeFile";
import type { UiEvent } from "../bindings/UiEvent";
import { exitWords } from "../chat/crash";
import { PanelsState } from "./panels.svelte";
import { EarlyEvents, concernsPanel, type PanelSnapshot } from "./windowSync";

/** Why the window shows no panel. */
export interface Gone {
  /** What happened, in words. */
  what: string;
  /** What happens next (supervision), when anything does. */
  next?: string;
}

export class PanelWindowState extends AppState {
  extension = $state("");
  panelId = $state("");
  /** The main window's theme. */
  themeFile: ThemeFile | null = $state(null);
  /** Set while the panel is not here (its extension crashed, or it closed
   * and the main window is about to close this window). */
  gone: Gone | null = $state(null);
  #synced = false;
  #early = new EarlyEvents();

  constructor(backend: Backend) {
    super(backend, new PanelsState(undefined, true));
  }

  /** Listens first, then asks the main window for the panel, so nothing
   * sent in between is lost (EarlyEvents holds it until the panel is known). */
  override async start(): Promise<void> {
    await Promise.all([
      this.backend.onEvent((e) => this.handle(e)),
      this.backend.onPanelSync((s) => this.sync(s)),
    ]);
    await this.backend.panelWindowReady();
  }

  /** The panel as the main window has it (first, and on a theme change). */
  sync(s: PanelSnapshot): void {
    if (this.#synced && s.panel_id !== this.panelId) return;
    this.extension = s.extension;
    this.panelId = s.panel_id;
    this.themeFile = s.theme;
    this.panels.remember([{ extension: s.extension, panel_id: s.panel_id, placement: "window" }]);
    const first = !this.#synced;
    this.#synced = true;
    if (first || !this.panels.panels.length) {
      if (s.spec) {
        this.panels.open(s.extension, s.spec, s.capabilities, s.net);
        this.gone = null;
      } else this.gone ??= { what: `${s.extension} is not running, so its panel is not here.` };
    }
    // Anything that came before the panel did is newer than the snapshot
    // or no older: whole renders, applied in order.
    if (first) for (const e of this.#early.take(s.extension, s.panel_id)) this.handle(e);
  }

  override handle(e: UiEvent): void {
    if (!this.#synced) {
      this.#early.add(e);
      return;
    }
    if (!concernsPanel(e, this.extension, this.panelId)) return;
    switch (e.type) {
      case "ext_panel_open":
        this.gone = null;
        this.panels.open(e.extension, e.panel, e.capabilities, e.net);
        break;
      case "ext_panel_render":
        this.panels.render(e.panel_id, e.lines, e.title, e.footer);
        break;
      case "ext_panel_message":
        this.panels.inbox(e.panel_id)?.deliver(e.data);
        break;
      case "ext_panel_close":
        // The main window closes this window; until it does, say why.
        this.panels.remove(e.panel_id);
        // After a crash the host's per-panel reason would say less than
        // what the crash already said (as the chat's crash row does).
        this.gone ??= { what: e.reason ?? `${this.extension} closed its panel.` };
        break;
      case "ext_error":
        this.panels.removeOwnedBy(e.extension);
        this.gone = {
          what: `${e.extension} ${exitWords(e.exit_status)}, so its panel closed.`,
          next: "The main window's chat has Restart, Reopen panel and its log.",
        };
        break;
      case "ext_restarting":
        // No countdown: this window is not told when it is back, so it
        // says what happens, not when.
        if (this.gone)
          this.gone = {
            ...this.gone,
            next: `zot restarts it (attempt ${e.attempt} of 3); Reopen panel in the main window's chat brings the panel back here.`,
          };
        break;
    }
  }

  /** Close (×, Esc, Ctrl+C): the main window closes the panel, tells its
   * owner, and closes this window. */
  override closePanel(): void {
    void this.backend.panelWindowAction({ kind: "close" });
  }

  /** A place button or Ctrl+Shift+M: the main window docks the panel and
   * closes this window. */
  override async movePanel(_panelId: string, placement: PanelPlacement): Promise<void> {
    if (placement !== "window") await this.backend.panelWindowAction({ kind: "move", placement });
  }
}
