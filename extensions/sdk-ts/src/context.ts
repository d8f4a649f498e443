// What a handler can do besides return: push notes, prompts and panel
// frames, and read what zot said about itself in `hello_ack`.
import type { ExtToHost, HelloAck, NoteLevel, PanelSpec } from "./protocol/index.js";

/** The host metadata from `hello_ack`. */
export type HostInfo = Omit<HelloAck, never>;

/** Writes one frame; the runtime supplies it. */
export type Send = (frame: ExtToHost) => void;

/** The handle every handler receives. One-way frames are fire-and-forget. */
export class Context {
  /** @internal */
  constructor(
    /** The extension's name as sent in `hello`. */
    readonly name: string,
    /** zot's metadata from `hello_ack`. */
    readonly host: HostInfo,
    private readonly out: Send,
  ) {
    this.currentConfig = { ...(host.config ?? {}) };
  }

  /** @internal */ currentConfig: Record<string, unknown>;

  /**
   * The extension's current settings (its manifest's `config`, defaults
   * filled in, secrets included): `hello_ack.config`, replaced by each
   * `config_changed`. Never log or display a sensitive value.
   */
  get config(): Readonly<Record<string, unknown>> {
    return this.currentConfig;
  }

  /** Sends any frame; the escape hatch for protocol additions. */
  send(frame: ExtToHost): void {
    this.out(frame);
  }

  /** Pushes a note under the transcript. */
  notify(message: string, level: NoteLevel = "info"): void {
    this.out({ type: "notify", level, message });
  }

  /** Removes every note this extension pushed. */
  clearNotes(): void {
    this.out({ type: "clear_notes" });
  }

  /** Submits text as a user prompt (queued if a turn is running). */
  submit(text: string): void {
    this.out({ type: "submit", text });
  }

  /** Redraws an open panel; `panel.id` names it. */
  renderPanel(panel: PanelSpec): void {
    this.out({ type: "panel_render", panel_id: panel.id, title: panel.title, lines: panel.lines, footer: panel.footer, placement: panel.placement });
  }

  /** Closes a panel this extension opened. */
  closePanel(panelId: string): void {
    this.out({ type: "panel_close", panel_id: panelId });
  }

  /** A line in the extension's log (stderr); stdout is for frames only. */
  log(message: string): void {
    process.stderr.write(`[${this.name}] ${message}\n`);
  }
}
