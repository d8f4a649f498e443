// "Rewind to here" (docs/desktop.md "Checkpoints"): the preview of one
// checkpoint (`checkpoint_preview`: each file that will change, with its
// text now and then for the diff card, and whether it was changed outside
// zot), then the user's choice of what to rewind (`rewind`) or a fork
// (`fork`). After a rewind of the conversation, or a fork, the chat is
// reloaded from the backend, so what is shown is what the agent holds.
import type { AppState } from "../app.svelte";
import type { CheckpointPreviewResult } from "../bindings/CheckpointPreviewResult";
import type { FileChange } from "../bindings/FileChange";
import type { RewindScope } from "../bindings/RewindScope";
import type { ChatItem } from "../chat/chat.svelte";
import { errorMessage } from "../backend/errors";

/** A file of the preview as the diff card shows it (a synthetic tool
 * row: the card diffs `old_string` → `new_string`). */
export function fileCard(f: FileChange, id: number): Extract<ChatItem, { kind: "tool" }> {
  const verb = f.change === "added" ? "restored" : f.change === "deleted" ? "deleted" : "rewritten";
  return {
    id,
    kind: "tool",
    callId: `rewind:${f.path}`,
    name: "rewind_file",
    args: { path: f.path, change: verb, old_string: f.now ?? "", new_string: f.then ?? "" },
    result: [{ type: "text", text: f.note ? `${f.path}: ${f.note}, not shown` : "" }],
    isError: false,
    done: true,
  };
}

/** What the dialog says of a rewind's outcome. */
export function outcome(files: string[], messages: number, scope: RewindScope): string {
  const parts: string[] = [];
  if (scope !== "conversation")
    parts.push(files.length === 1 ? "1 file restored" : `${files.length} files restored`);
  if (scope !== "code") parts.push(`conversation rewound to ${messages} message${messages === 1 ? "" : "s"}`);
  return parts.join("; ");
}

/** The rewind dialog's state. */
export class RewindState {
  readonly app: AppState;
  /** The checkpoint being previewed, if the dialog is open. */
  checkpoint: string | null = $state(null);
  preview: CheckpointPreviewResult | null = $state(null);
  loading = $state(false);
  working = $state(false);
  error: string | null = $state(null);
  /** The last rewind of code's undo checkpoint (an "Undo rewind" button). */
  undo: string | null = $state(null);

  constructor(app: AppState) {
    this.app = app;
  }

  /** Opens the preview of `checkpoint`. */
  async open(checkpoint: string): Promise<void> {
    this.checkpoint = checkpoint;
    this.preview = null;
    this.error = null;
    this.loading = true;
    try {
      this.preview = await this.app.backend.rpc({ type: "checkpoint_preview", checkpoint });
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.loading = false;
    }
  }

  /** `/rewind`: the preview of the newest prompt's checkpoint. */
  async openLatest(): Promise<void> {
    const users = this.app.chat.items.filter(
      (i): i is Extract<ChatItem, { kind: "user" }> => i.kind === "user" && !!i.checkpoint,
    );
    const last = users.at(-1);
    if (!last?.checkpoint) {
      this.app.chat.push({
        kind: "status",
        level: "warn",
        text: "nothing to rewind: no prompt in this conversation has a checkpoint yet",
      });
      return;
    }
    await this.open(last.checkpoint);
  }

  close(): void {
    this.checkpoint = null;
    this.preview = null;
    this.error = null;
  }

  /** Rewinds to the open checkpoint. */
  async rewind(scope: RewindScope): Promise<void> {
    const checkpoint = this.checkpoint;
    if (!checkpoint) return;
    this.working = true;
    this.error = null;
    try {
      const r = await this.app.backend.rpc({ type: "rewind", checkpoint, scope });
      if (scope !== "code") await this.reload();
      this.undo = r.undo ?? null;
      this.app.chat.push({
        kind: "status",
        level: "success",
        text: `rewind: ${outcome(r.files, r.messages, scope)}`,
      });
      this.close();
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.working = false;
    }
  }

  /** Undoes the last rewind of code (its files as they were before it). */
  async undoRewind(): Promise<void> {
    const checkpoint = this.undo;
    if (!checkpoint) return;
    try {
      const r = await this.app.backend.rpc({ type: "rewind", checkpoint, scope: "code" });
      this.undo = null;
      this.app.chat.push({
        kind: "status",
        level: "success",
        text: `rewind undone: ${outcome(r.files, 0, "code")}`,
      });
    } catch (e) {
      this.app.chat.push({ kind: "error", text: `could not undo the rewind: ${errorMessage(e)}` });
    }
  }

  /** Continues in a new session from before the open checkpoint's prompt. */
  async fork(code: boolean): Promise<void> {
    const checkpoint = this.checkpoint;
    if (!checkpoint) return;
    this.working = true;
    this.error = null;
    try {
      const r = await this.app.backend.rpc({ type: "fork", checkpoint, code });
      await this.reload();
      this.undo = r.undo ?? null;
      this.app.chat.push({
        kind: "status",
        level: "success",
        text: `forked into a new session (${r.messages} messages)`,
      });
      this.close();
      void this.app.sessions.load();
    } catch (e) {
      this.error = errorMessage(e);
    } finally {
      this.working = false;
    }
  }

  async reload(): Promise<void> {
    this.app.chat.clear();
    await this.app.loadSession();
  }
}
