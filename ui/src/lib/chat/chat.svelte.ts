// The transcript as the user sees it: their messages, streamed assistant
// text, tool cards, errors, status lines and extension failures. Extension
// failures live here (not in the model's transcript) until /clear.
import type { ScopeChoice } from "../bindings/ScopeChoice";
import type { ContentBlock } from "../bindings/ContentBlock";
import type { ToolApp } from "../bindings/ToolApp";
import type { JsonValue } from "../bindings/serde_json/JsonValue";
import type { NoteLevel } from "../bindings/NoteLevel";
import type { UiEvent } from "../bindings/UiEvent";
import type { ImageInput } from "../bindings/ImageInput";
import { appendPartial, type ToolProgressState } from "./toolprogress";
import { afterState, type Recovery } from "./crash";
import type { ExtensionSummary } from "../bindings/ExtensionSummary";

/** One row of the chat. */
export type ChatItem =
  | {
      id: number;
      kind: "user";
      text: string;
      images?: ImageInput[];
      /** The checkpoint taken before this prompt ("Rewind to here"). */
      checkpoint?: string;
      /** Who sent it when the user did not type it: "sent by /ask (fx)". */
      sentBy?: string;
    }
  | { id: number; kind: "assistant"; text: string; streaming: boolean }
  | {
      id: number;
      kind: "tool";
      callId: string;
      name: string;
      args: JsonValue;
      extension?: string;
      result?: ContentBlock[];
      isError: boolean;
      done: boolean;
      /** An approval card for it waits for the user. */
      awaiting?: boolean;
      /** What a running extension tool reported (`tool_progress`). */
      progress?: ToolProgressState;
      /** Its approval, once answered: folded into this card's line. */
      approval?: ApprovalFold;
      /** The MCP App its result is shown with (apps/AppFrame.svelte). */
      app?: ToolApp;
      /** Why its MCP App is not shown. */
      appNote?: string;
    }
  | {
      id: number;
      kind: "approval";
      /** The approval's id, for `approve_tool`. */
      approvalId: string;
      callId: string;
      tool: string;
      args: JsonValue;
      extension?: string;
      /** The extension says the tool only reads: its claim, shown as such. */
      readOnlyClaim: boolean;
      reason: string;
      /** What "Always allow" remembers, in words: the chosen scope's
       * label once answered, the narrowest one before. */
      remember: string;
      /** What "Always allow" may remember, narrowest first; empty when the
       * call can only be allowed once. */
      scopes: ScopeChoice[];
      /** write/edit: the file's current text, for the diff. */
      before?: string;
      state: ApprovalState;
      /** Why the last answer failed (the card stays open). */
      problem?: string;
      /** The call ended while the user's answer was on its way: the
       * answer decides the fold, and a refused one expires the card. */
      ended?: boolean;
      /** Answered and shown on its tool card: the transcript leaves it out. */
      folded?: boolean;
      /** Answered with no tool card to fold into (an MCP App's own call):
       * the card itself becomes that one line, naming the call. */
      answered?: ApprovalFold;
    }
  | { id: number; kind: "error"; text: string }
  | { id: number; kind: "status"; level: NoteLevel; text: string; extension?: string }
  | {
      id: number;
      kind: "ext_error";
      extension: string;
      text: string;
      logPath: string;
      exitStatus?: string;
      /** What supervision did since (chat/crash.ts). */
      recovery: Recovery;
      attempt?: number;
      delayMs?: number;
      backAt?: number;
      /** How many of its panels the crash closed, and the command that
       * had opened them (to open them again), when one did. */
      closedPanels: number;
      reopen?: string;
    };

/** Where an approval card is: waiting for the user, answered, or gone
 * unanswered (the prompt was aborted or ended). */
export type ApprovalState = "waiting" | "sending" | "allowed" | "always" | "denied" | "expired";

/** An answered approval as its tool card tells it: what was decided, when,
 * and what "always" remembered. Only this window's user answers cards (a
 * call a remembered rule or the policy lets through sends no event), so
 * "by whom" is the user. */
export interface ApprovalFold {
  state: "allowed" | "always" | "denied" | "expired";
  /** When it was answered (ms since the epoch). */
  at: number;
  /** For "always": the rule remembered, in words. */
  remember?: string;
}

/** One message of `get_messages` (the agent's transcript). `system`
 * messages hold Kimi's tool announcements and loaded schemas, and blocks
 * of other types (Anthropic's tool search) are the model's business: the
 * chat shows neither. */
export interface TranscriptMessage {
  role: "user" | "assistant" | "system";
  /** On a prompt's user message: its checkpoint. */
  checkpoint?: string;
  content: (
    | { type: "text"; text: string }
    | { type: "image"; mime_type: string; data: string }
    | { type: "tool_use"; id: string; name: string; input: JsonValue }
    | { type: "tool_result"; tool_use_id: string; content: ContentBlock[]; is_error?: boolean }
  )[];
}

/** Distributes Omit over the union so each variant keeps its own fields. */
type NewItem = ChatItem extends infer T ? (T extends ChatItem ? Omit<T, "id"> : never) : never;

/** Reactive chat rows plus the streaming cursor. */
export class ChatState {
  items: ChatItem[] = $state([]);
  /** A turn is in flight (Stop button, Esc aborts). */
  /** The last user row, the one Retry and Edit are offered on. */
  lastUserId = $derived(this.items.findLast((it) => it.kind === "user")?.id ?? -1);
  busy = $state(false);
  #next = 1;
  #streaming: number | null = null;

  /** Appends a row and returns its id. */
  push(item: NewItem): number {
    const id = this.#next++;
    this.items.push({ ...item, id } as ChatItem);
    return id;
  }

  #find(id: number | null): ChatItem | undefined {
    if (id === null) return undefined;
    for (let i = this.items.length - 1; i >= 0; i--) if (this.items[i].id === id) return this.items[i];
    return undefined;
  }

  /** `assistant_start`. */
  startAssistant(): void {
    this.#streaming = this.push({ kind: "assistant", text: "", streaming: true });
  }

  /** `text_delta`: appended to the message being streamed (started if none). */
  delta(text: string): void {
    let item = this.#find(this.#streaming);
    if (!item || item.kind !== "assistant") {
      this.startAssistant();
      item = this.#find(this.#streaming);
    }
    if (item && item.kind === "assistant") item.text += text;
  }

  /** `assistant_message`: the final user-visible text (after any rewrite). */
  finishAssistant(content: string): void {
    const item = this.#find(this.#streaming);
    if (item && item.kind === "assistant") {
      item.text = content;
      item.streaming = false;
    } else if (content) {
      this.push({ kind: "assistant", text: content, streaming: false });
    }
    this.#streaming = null;
  }

  /** Ends any stream left open (abort, error, done). */
  endStream(): void {
    const item = this.#find(this.#streaming);
    if (item && item.kind === "assistant") {
      item.streaming = false;
      if (!item.text) this.items = this.items.filter((i) => i.id !== item.id);
    }
    this.#streaming = null;
  }

  /** `tool_call`. */
  toolCall(callId: string, name: string, args: JsonValue, extension?: string): void {
    this.endStream();
    this.push({ kind: "tool", callId, name, args, extension, isError: false, done: false });
  }

  /** The latest crash row of `extension`, if any. */
  crashRow(extension: string): Extract<ChatItem, { kind: "ext_error" }> | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it.kind === "ext_error" && it.extension === extension) return it;
    }
    return undefined;
  }

  /** `ext_restarting`: the crash row says supervision restarts it; false
   * when there is no row to tell (the caller then says it another way). */
  restarting(extension: string, attempt: number, delayMs: number): boolean {
    const row = this.crashRow(extension);
    if (!row || row.recovery === "back") return false;
    Object.assign(row, { recovery: "restarting", attempt, delayMs });
    return true;
  }

  /** A fresh `ext_list`: crash rows learn whether their extension is back. */
  extensionStates(exts: ExtensionSummary[]): void {
    for (const it of this.items) {
      if (it.kind !== "ext_error") continue;
      const state = exts.find((e) => e.name === it.extension)?.state;
      Object.assign(it, afterState(it, state));
    }
  }

  /** `tool_approval`: a card under the call, waiting for the user. */
  approval(e: Extract<UiEvent, { type: "tool_approval" }>): void {
    this.endStream();
    this.#markAwaiting(e.call_id, true);
    this.push({
      kind: "approval",
      approvalId: e.id,
      callId: e.call_id,
      tool: e.tool,
      args: e.args,
      extension: e.extension,
      readOnlyClaim: e.read_only_claim === true,
      reason: e.reason,
      remember: e.remember,
      scopes: e.scopes ?? [],
      before: e.before,
      state: "waiting",
    });
  }

  /** The oldest approval card still waiting for the user, if any. */
  waitingApproval(): Extract<ChatItem, { kind: "approval" }> | undefined {
    for (const it of this.items) if (it.kind === "approval" && it.state === "waiting") return it;
    return undefined;
  }

  /** The approval card for `approvalId`. */
  findApproval(approvalId: string): Extract<ChatItem, { kind: "approval" }> | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it.kind === "approval" && it.approvalId === approvalId) return it;
    }
    return undefined;
  }

  /** Marks the tool card of `callId` as waiting for approval (or not). */
  #markAwaiting(callId: string, awaiting: boolean): void {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it.kind === "tool" && it.callId === callId) {
        it.awaiting = awaiting;
        return;
      }
    }
  }

  /** An approval was answered: its call runs (or not) from here. */
  settleApproval(approvalId: string, at = Date.now()): void {
    const card = this.findApproval(approvalId);
    if (!card) return;
    this.#markAwaiting(card.callId, false);
    this.#fold(card, at);
  }

  /** Folds an answered card into its call's tool card, which then says
   * what was decided and when; without a tool card (an MCP App's own
   * call) the card shrinks to that line itself. */
  #fold(card: Extract<ChatItem, { kind: "approval" }>, at: number): void {
    const s = card.state;
    if (s === "waiting" || s === "sending") return;
    const fold: ApprovalFold = { state: s, at, ...(s === "always" ? { remember: card.remember } : {}) };
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it.kind === "tool" && it.callId === card.callId) {
        it.approval = fold;
        card.folded = true;
        return;
      }
    }
    card.answered = fold;
  }

  /** Cards still waiting when their call ended without an answer (an
   * abort, the end of the prompt) can no longer be answered. */
  expireApprovals(callId?: string): void {
    for (const it of this.items)
      if (it.kind === "approval" && (it.state === "waiting" || it.state === "sending"))
        if (callId === undefined || it.callId === callId) {
          this.#markAwaiting(it.callId, false);
          // zot can run (or refuse) the call and send its result before
          // `approve_tool`'s own response arrives: that answer decides.
          if (it.state === "sending") it.ended = true;
          else this.#expire(it);
        }
  }

  /** An answer that was refused: the card takes answers again, unless
   * its call has ended or zot said nothing waits for it (`gone`). */
  answerRefused(card: Extract<ChatItem, { kind: "approval" }>, gone = false): void {
    if (card.ended || gone) this.#expire(card);
    else card.state = "waiting";
  }

  #expire(card: Extract<ChatItem, { kind: "approval" }>): void {
    card.state = "expired";
    this.#fold(card, Date.now());
  }

  /** `tool_progress`, matched to its card by call id: the latest
   * message and numbers, the partial output appended. */
  toolProgress(e: Extract<UiEvent, { type: "tool_progress" }>): void {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it.kind === "tool" && it.callId === e.id) {
        if (it.done) return;
        const prev = it.progress ?? { partial: "" };
        it.progress = {
          message: e.message ?? prev.message,
          progress: e.progress ?? prev.progress,
          total: e.total ?? prev.total,
          partial: e.partial ? appendPartial(prev.partial, e.partial) : prev.partial,
        };
        return;
      }
    }
  }

  /** `tool_result`, matched to its card by call id. */
  toolResult(
    callId: string,
    content: ContentBlock[],
    isError: boolean,
    extension?: string,
    app?: { app?: ToolApp; note?: string },
  ): void {
    this.expireApprovals(callId);
    const appPart = {
      ...(app?.app ? { app: app.app } : {}),
      ...(app?.note ? { appNote: app.note } : {}),
    };
    for (let i = this.items.length - 1; i >= 0; i--) {
      const it = this.items[i];
      if (it.kind === "tool" && it.callId === callId) {
        it.result = content;
        it.isError = isError;
        it.done = true;
        it.awaiting = false;
        if (extension) it.extension = extension;
        Object.assign(it, appPart);
        return;
      }
    }
    this.push({
      kind: "tool",
      callId,
      name: "?",
      args: null,
      extension,
      result: content,
      isError,
      done: true,
      ...appPart,
    });
  }

  /** A resumed session's transcript (`get_messages`), placed before any
   * rows already shown. Built in one assignment so 10⁴ messages cost one
   * update. Tool results are folded into their call's card. */
  loadTranscript(messages: TranscriptMessage[]): void {
    const rows: ChatItem[] = [];
    const cards = new Map<string, Extract<ChatItem, { kind: "tool" }>>();
    for (const m of messages) {
      if (m.role === "system") continue;
      const text = m.content
        .filter((b) => b.type === "text")
        .map((b) => (b as { text: string }).text)
        .join("");
      // A prompt's images sit beside its text (tool output images are
      // inside their tool_result, shown on the card).
      const images: ImageInput[] =
        m.role === "user"
          ? m.content.flatMap((b) => (b.type === "image" ? [{ mime_type: b.mime_type, data: b.data }] : []))
          : [];
      if (m.role === "user" && (text || images.length)) {
        rows.push({
          id: this.#next++,
          kind: "user",
          text,
          ...(images.length ? { images } : {}),
          ...(m.checkpoint ? { checkpoint: m.checkpoint } : {}),
        });
      } else if (text) {
        rows.push({ id: this.#next++, kind: "assistant", text, streaming: false });
      }
      for (const b of m.content) {
        if (b.type === "tool_use") {
          const card: Extract<ChatItem, { kind: "tool" }> = {
            id: this.#next++,
            kind: "tool",
            callId: b.id,
            name: b.name,
            args: b.input,
            isError: false,
            done: false,
          };
          cards.set(b.id, card);
          rows.push(card);
        } else if (b.type === "tool_result") {
          const card = cards.get(b.tool_use_id);
          if (card) {
            card.result = b.content;
            card.isError = b.is_error ?? false;
            card.done = true;
          }
        }
      }
    }
    this.items = [...rows, ...this.items];
  }

  /** Drops everything (/clear). */
  clear(): void {
    this.items = [];
    this.#streaming = null;
  }
}

/** The label of a prompt an extension sent: its command when a command's
 * answer sent it, else the extension alone (a `submit`). */
export function sentBy(extension: string, command?: string, app?: string): string {
  if (app) return `sent by the MCP App ${app} (${extension})`;
  return command ? `sent by /${command} (${extension})` : `sent by extension ${extension}`;
}
