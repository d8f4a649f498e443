// The dialogs extensions and MCP servers raise (docs/desktop.md
// "Dialogs"): one queue in the order they were asked, one shown at a
// time, each answered once through `ui_respond`. A refused answer (a form
// value zot does not accept) stays on the dialog with zot's reason.
import type { UiEvent } from "../bindings/UiEvent";
import { errorMessage } from "../backend/errors";

/** One `ui_request` event as the window keeps it. */
export type DialogRequest = Extract<UiEvent, { type: "ui_request" }>;

/** How the user answered. */
export type DialogAnswer =
  { action: "accept"; value?: unknown } | { action: "decline" } | { action: "cancel" };

/** Sends one answer; rejects with zot's reason when it is refused. */
export type Respond = (requestId: string, answer: DialogAnswer) => Promise<void>;

export class DialogsState {
  /** Waiting dialogs, oldest first; the first is the one shown. */
  queue: DialogRequest[] = $state([]);
  /** Why zot refused the last answer to the shown dialog. */
  problem: string | null = $state(null);
  /** An answer to the shown dialog is on its way. */
  sending = $state(false);

  /** The dialog on screen, if any. */
  get current(): DialogRequest | undefined {
    return this.queue[0];
  }

  /** How many wait behind the one on screen. */
  get waiting(): number {
    return Math.max(0, this.queue.length - 1);
  }

  /** A `ui_request` event. */
  add(e: DialogRequest): void {
    if (this.queue.some((q) => q.request_id === e.request_id)) return;
    this.queue.push(e);
  }

  /** A `ui_request_done` event, or an answer that went through. */
  remove(requestId: string): void {
    const first = this.queue[0]?.request_id === requestId;
    this.queue = this.queue.filter((q) => q.request_id !== requestId);
    if (first) {
      this.problem = null;
      this.sending = false;
    }
  }

  /** Answers the dialog on screen; on refusal it stays, with the reason. */
  async answer(respond: Respond, answer: DialogAnswer): Promise<boolean> {
    const d = this.current;
    if (!d || this.sending) return false;
    this.sending = true;
    this.problem = null;
    try {
      await respond(d.request_id, answer);
      this.remove(d.request_id);
      return true;
    } catch (e) {
      this.sending = false;
      this.problem = errorMessage(e);
      return false;
    }
  }
}
