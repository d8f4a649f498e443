// Long tool calls (docs/protocol.md "Long tool calls"): every tool handler
// gets, as its third argument, a ToolCall to report progress with and an
// AbortSignal that fires when zot sends `tool_cancel`. Handlers that take
// two arguments are called exactly as before.
import type { ExtToHost } from "./protocol/index.js";

/** What a tool may say about its progress; every field is optional. */
export interface Progress {
  /** What it is doing now ("compiling 3 of 12"). */
  message?: string;
  /** How far along, in the units of `total`. */
  progress?: number;
  /** The amount of work, when known (zot then draws a bar). */
  total?: number;
  /** Output text new since the previous report; zot appends it. */
  partial?: string;
}

/** One pending tool call. */
export class ToolCall {
  readonly #controller = new AbortController();
  readonly #send: (f: ExtToHost) => void;

  constructor(
    /** The `tool_call` id. */
    readonly id: string,
    send: (f: ExtToHost) => void,
  ) {
    this.#send = send;
  }

  /** Aborted when zot stops waiting (Stop, a timeout, the turn ended);
   * its `reason` is `aborted`, `idle_timeout` or `timeout`. Pass it to
   * `fetch`, child processes and timers. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Sends `tool_progress`: restarts the call's idle timeout and shows in
   * its card. Nothing is sent once cancelled. */
  progress(p: Progress): void {
    if (this.signal.aborted) return;
    this.#send({ type: "tool_progress", id: this.id, ...p });
  }

  /** Partial output only: `progress({ partial: text })`. */
  output(text: string): void {
    this.progress({ partial: text });
  }

  /** @internal The runtime calls this on `tool_cancel`. */
  cancel(reason: string): void {
    this.#controller.abort(reason);
  }
}
