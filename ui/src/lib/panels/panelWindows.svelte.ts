// The main window's side of panels in their own OS windows: it opens a
// window for each panel placed "window" and closes it when the panel
// closes or moves to a dock, answers a window that is ready with its panel,
// and carries out what a window asks (close, move) and what the user did
// to it (closed it: the panel goes back to a dock, and that is
// remembered). A window whose extension crashed stays open and says so
// (PanelWindowState) until the panel comes back or the user closes it.
import type { AppState } from "../app.svelte";
import type { PanelCapability } from "../bindings/PanelCapability";
import { resolveTheme } from "../settings/themes";
import { choiceKey } from "./placement";
import type { Panel } from "./panels.svelte";
import { dockAfterWindow, type PanelSnapshot, type PanelWindowNote } from "./windowSync";

export class PanelWindowsHost {
  /** Windows open (or being opened), by choiceKey, with the `opened`
   * count of the panel they were opened for. */
  #open = new Map<string, { extension: string; panelId: string; opened: number }>();
  /** Windows kept open after their extension crashed, by choiceKey. */
  #crashed = new Set<string>();

  constructor(private readonly app: AppState) {}

  async start(): Promise<void> {
    await this.app.backend.onPanelWindowNote((n) => this.#note(n));
  }

  /** Opens and closes windows to match the panels (App.svelte runs it as
   * an effect, so it follows every open, close and move). */
  reconcile(): void {
    const panels = this.app.panels;
    const want = new Map<string, Panel>();
    for (const p of panels.panels) if (!panels.docked(p)) want.set(choiceKey(p.extension, p.id), p);
    for (const [key, p] of want) {
      const had = this.#open.get(key);
      if (had?.opened === p.opened) continue;
      // New, or opened again (a reopened panel brings its window back up).
      this.#open.set(key, { extension: p.extension, panelId: p.id, opened: p.opened });
      this.#crashed.delete(key);
      this.app.backend.panelWindowOpen(p.extension, p.id, p.title).catch((e) => {
        // No window: the panel stays where the user can reach it.
        this.#open.delete(key);
        this.app.status.show(`${e?.message ?? e}`, "error");
        void this.app.movePanel(p.id, dockAfterWindow(p.placement));
      });
    }
    for (const [key, w] of this.#open) {
      if (want.has(key) || this.#crashed.has(key)) continue;
      this.#open.delete(key);
      void this.app.backend.panelWindowClose(w.extension, w.panelId).catch(() => {});
    }
  }

  /** `extension` crashed: its panels in windows keep their windows, which
   * say so. Call before its panels are removed. */
  crashed(extension: string): void {
    for (const p of this.app.panels.panels)
      if (p.extension === extension && !this.app.panels.docked(p))
        this.#crashed.add(choiceKey(p.extension, p.id));
  }

  /** Sends every open window its panel again (the theme changed). */
  resync(): void {
    for (const w of this.#open.values()) void this.#sync(w.extension, w.panelId);
  }

  #sync(extension: string, panelId: string): Promise<void> {
    return this.app.backend.panelWindowSync(this.snapshot(extension, panelId)).catch(() => {});
  }

  /** The panel as this window has it, for its own window. */
  snapshot(extension: string, panelId: string): PanelSnapshot {
    const p = this.app.panels.panels.find((x) => x.id === panelId && x.extension === extension);
    const dark = typeof matchMedia === "function" && matchMedia("(prefers-color-scheme: dark)").matches;
    const theme = resolveTheme(this.app.themes, this.app.theme, dark);
    if (!p) return { extension, panel_id: panelId, capabilities: [], net: false, theme };
    const capabilities: PanelCapability[] = [];
    if (p.mouse) capabilities.push("panel_mouse");
    if (p.resize) capabilities.push("panel_resize");
    if (p.escToOwner) capabilities.push("panel_esc");
    return {
      extension,
      panel_id: panelId,
      spec: { id: p.id, title: p.title, lines: p.lines, footer: p.footer, html: p.html, placement: "window" },
      capabilities,
      net: p.net,
      theme,
    };
  }

  #note(n: PanelWindowNote): void {
    const key = choiceKey(n.extension, n.panel_id);
    const p = this.app.panels.panels.find((x) => x.id === n.panel_id && x.extension === n.extension);
    switch (n.kind) {
      case "ready":
        void this.#sync(n.extension, n.panel_id);
        break;
      case "closed":
        // The user closed the OS window: the window is going; the panel
        // goes back to a dock, remembered, so it opens there next time.
        this.#open.delete(key);
        this.#crashed.delete(key);
        if (p && !this.app.panels.docked(p)) void this.app.movePanel(p.id, dockAfterWindow(p.placement));
        break;
      case "close":
        if (p) this.app.closePanel(p.id);
        else {
          this.#crashed.delete(key);
          this.reconcile();
        }
        break;
      case "move":
        if (p) {
          void this.app.movePanel(p.id, n.placement);
          // Back in a dock, it has the keyboard when this window does.
          this.app.panels.activate(p.id);
        }
        break;
    }
  }
}
