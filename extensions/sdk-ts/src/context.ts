// What a handler can do besides return: push notes, prompts and panel
// frames, and read what zot said about itself in `hello_ack`.
import type { ExtToHost, HelloAck, JsonValue, NoteLevel, PanelSpec, UiRequest, UiResponse } from "./protocol/index.js";
import { SessionState } from "./state.js";

/**
 * The one answer to a dialog: `accept` with `value` (true for a confirm,
 * the choice, the text, or the form's object), `decline`, or `cancel`
 * with `reason` (`timeout`, `too many`, `no user`, a refused field, …).
 */
export type DialogResult =
  | { action: "accept"; value: JsonValue }
  | { action: "decline" }
  | { action: "cancel"; reason: string };

/** What every dialog may carry besides its kind's own fields. */
export interface DialogOptions {
  message?: string;
  timeoutMs?: number;
}

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
    this.state = new SessionState(host.state, out);
  }

  /**
   * The extension's state in the current session (`state.get` /
   * `state.set`): it follows the conversation through resume, clear,
   * fork and rewind.
   */
  readonly state: SessionState;

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

  /**
   * Sends `data` (any JSON value, at most 256 KiB serialised) to the page
   * of HTML panel `panelId`, where it arrives as a `message` event.
   */
  postMessage(panelId: string, data: unknown): void {
    this.out({ type: "panel_message", panel_id: panelId, data });
  }

  /** Closes a panel this extension opened. */
  closePanel(panelId: string): void {
    this.out({ type: "panel_close", panel_id: panelId });
  }

  /** @internal Dialogs waiting for their `ui_response`. */
  readonly dialogs = new Map<string, (r: DialogResult) => void>();
  #nextDialog = 0;

  /** Asks yes or no (needs the `dialogs` permission); resolves with the
   * one answer: `accept` is the yes. */
  confirm(title: string, opts: DialogOptions = {}): Promise<DialogResult> {
    return this.ask({ kind: "confirm", title, ...common(opts) });
  }

  /** Asks for one of `options`; `accept`'s value is the choice. */
  select(title: string, options: string[], opts: DialogOptions & { default?: string } = {}): Promise<DialogResult> {
    return this.ask({ kind: "select", title, options, default: opts.default, ...common(opts) });
  }

  /** Asks for a line of text; `accept`'s value is the text. */
  input(
    title: string,
    opts: DialogOptions & { default?: string; placeholder?: string } = {},
  ): Promise<DialogResult> {
    return this.ask({ kind: "input", title, default: opts.default, placeholder: opts.placeholder, ...common(opts) });
  }

  /** Asks for a form: `schema` is a flat object schema in the MCP
   * elicitation subset; `accept`'s value is an object zot checked. */
  form(
    title: string,
    schema: Record<string, JsonValue>,
    opts: DialogOptions & { default?: Record<string, JsonValue> } = {},
  ): Promise<DialogResult> {
    return this.ask({ kind: "form", title, schema, default: opts.default, ...common(opts) });
  }

  /** Sends any `ui_request` (its `id` filled in) and resolves with its
   * one answer; zot always sends one, its timeout included. */
  ask(req: Omit<UiRequest, "id">): Promise<DialogResult> {
    const id = `dlg-${++this.#nextDialog}`;
    return new Promise((resolve) => {
      this.dialogs.set(id, resolve);
      this.out({ type: "ui_request", id, ...req });
    });
  }

  /** @internal A `ui_response` arrived; false when nothing waits for it. */
  answerDialog(r: UiResponse): boolean {
    const resolve = this.dialogs.get(r.id);
    if (!resolve) return false;
    this.dialogs.delete(r.id);
    if (r.action === "accept") resolve({ action: "accept", value: r.value ?? true });
    else if (r.action === "decline") resolve({ action: "decline" });
    else resolve({ action: "cancel", reason: r.reason ?? "" });
    return true;
  }

  /** @internal zot went away: every waiting dialog ends. */
  closeDialogs(): void {
    for (const resolve of this.dialogs.values()) resolve({ action: "cancel", reason: "zot went away" });
    this.dialogs.clear();
  }

  /** A line in the extension's log (stderr); stdout is for frames only. */
  log(message: string): void {
    process.stderr.write(`[${this.name}] ${message}\n`);
  }
}

function common(opts: DialogOptions): { message?: string; timeout_ms?: number } {
  return {
    ...(opts.message !== undefined ? { message: opts.message } : {}),
    ...(opts.timeoutMs !== undefined ? { timeout_ms: opts.timeoutMs } : {}),
  };
}
