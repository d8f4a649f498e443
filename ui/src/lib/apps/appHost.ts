// The host side of MCP Apps (docs/mcp.md "MCP Apps") as plain logic: the
// JSON-RPC 2.0 an app in a tool card speaks over postMessage. The card
// (AppFrame.svelte) hands every message the frame posted to `receive` and
// posts what `post` is given; everything the app may ask goes through the
// `AppDoors` it is built with, so zot's policy (approvals, the user's
// confirmation of a link) stays outside this file.
//
// Bounds, so a page cannot flood the window or the backend: at most
// MAX_PER_SECOND messages a second are read (the rest are dropped and
// counted, said once per burst), at most MAX_TOOL_CALLS of its tool calls
// run at once, and the size it asks for is clamped to the card's limits.

import type { ContentBlock } from "../bindings/ContentBlock";
import type { AppToolResult } from "../bindings/AppToolResult";

/** The MCP Apps protocol version zot speaks. */
export const PROTOCOL_VERSION = "2026-01-26";
/** Messages read from one app per second; beyond, dropped and counted. */
export const MAX_PER_SECOND = 64;
/** An app's tool calls running at once. */
export const MAX_TOOL_CALLS = 4;
/** The tallest a card's app may make itself (px). */
export const MAX_HEIGHT = 640;
/** The shortest (px). */
export const MIN_HEIGHT = 48;
/** The longest `ui/message` text an app may send (characters). */
export const MAX_MESSAGE_TEXT = 16 * 1024;

/** JSON-RPC error codes zot answers with. */
export const ERR = {
  parse: -32700,
  invalid: -32600,
  method: -32601,
  params: -32602,
  /** Refused by zot's policy or the user (the spec's implementation-defined range). */
  denied: -32000,
} as const;

/** What the app may ask of zot, each a door zot's policy sits behind. */
export interface AppDoors {
  /** Posts a message into the frame. */
  post(msg: unknown): void;
  /** Runs a tool of the app's own server, through the approval policy;
   * rejects with why it did not run. */
  callTool(name: string, args: Record<string, unknown>): Promise<AppToolResult>;
  /** Sends `text` into the chat as a prompt from the app. */
  sendMessage(text: string): Promise<void>;
  /** Opens `url` once the user confirms; resolves false when they do not. */
  openLink(url: string): Promise<boolean>;
  /** The app's content size changed (already clamped). */
  resize(height: number): void;
  /** One line for the user and the log (a drop count, a refusal). */
  note(line: string): void;
}

/** What the card knows about the call that made the app. */
export interface AppCall {
  /** The tool's name. */
  tool: string;
  /** The model's arguments. */
  args: unknown;
  /** The call's result, once it is in. */
  result?: { content: ContentBlock[]; isError: boolean; structured?: unknown };
  /** The host context sent with `ui/initialize` (theme, sizes, …). */
  context: Record<string, unknown>;
}

type Id = string | number;

/** MCP content blocks from zot's. */
export function mcpContent(blocks: ContentBlock[]): Record<string, unknown>[] {
  return blocks.map((b) =>
    b.type === "text"
      ? { type: "text", text: b.text }
      : { type: "image", data: b.data, mimeType: b.mime_type },
  );
}

/** An MCP `CallToolResult` from zot's result. */
export function callToolResult(r: { content: ContentBlock[]; isError: boolean; structured?: unknown }) {
  return {
    content: mcpContent(r.content),
    ...(r.structured !== undefined && r.structured !== null ? { structuredContent: r.structured } : {}),
    ...(r.isError ? { isError: true } : {}),
  };
}

/** One app's conversation with zot. */
export class AppHost {
  #doors: AppDoors;
  #call: AppCall;
  #now: () => number;
  #windowStart = 0;
  #inWindow = 0;
  #dropped = 0;
  #burst = 0;
  #toolCalls = 0;
  /** The app said `ui/notifications/initialized`: notifications may go. */
  #initialized = false;
  #inputSent = false;
  #resultSent = false;

  constructor(doors: AppDoors, call: AppCall, now: () => number = () => performance.now()) {
    this.#doors = doors;
    this.#call = call;
    this.#now = now;
  }

  /** Whether the app has finished its handshake. */
  get initialized(): boolean {
    return this.#initialized;
  }

  /** Messages dropped so far for going over the rate. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The call's result arrived (or was there): the app hears it once it
   * is initialised. */
  setResult(result: NonNullable<AppCall["result"]>): void {
    this.#call.result = result;
    this.#flush();
  }

  /** The host context changed (theme, width): the app hears the part
   * that changed. */
  contextChanged(part: Record<string, unknown>): void {
    Object.assign(this.#call.context, part);
    if (this.#initialized) this.#notify("ui/notifications/host-context-changed", part);
  }

  /** Asks the app to tear down (the card goes away); it need not answer. */
  teardown(reason: string): void {
    if (this.#initialized)
      this.#doors.post({
        jsonrpc: "2.0",
        id: "zot-teardown",
        method: "ui/resource-teardown",
        params: { reason },
      });
  }

  /** One message the frame posted. */
  receive(data: unknown): void {
    if (!this.#admit()) return;
    if (!data || typeof data !== "object" || (data as { jsonrpc?: unknown }).jsonrpc !== "2.0") return;
    const m = data as { id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };
    const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
    if (typeof m.method !== "string") return; // a response (to teardown): nothing waits on it
    const params = m.params && typeof m.params === "object" ? (m.params as Record<string, unknown>) : {};
    if (id === undefined) this.#notification(m.method, params);
    else void this.#request(id, m.method, params);
  }

  #admit(): boolean {
    const t = this.#now();
    if (t - this.#windowStart >= 1000) {
      this.#windowStart = t;
      this.#inWindow = 0;
    }
    this.#inWindow++;
    if (this.#inWindow <= MAX_PER_SECOND) return true;
    this.#dropped++;
    // One counted line per burst, once it has had a second to end.
    if (this.#burst++ === 0)
      setTimeout(() => {
        const n = this.#burst;
        this.#burst = 0;
        this.#doors.note(`${n} of its messages were dropped (over ${MAX_PER_SECOND} a second)`);
      }, 1000);
    return false;
  }

  #notification(method: string, params: Record<string, unknown>): void {
    switch (method) {
      case "ui/notifications/initialized":
        this.#initialized = true;
        this.#flush();
        break;
      case "ui/notifications/size-changed": {
        const h = Number(params.height);
        if (Number.isFinite(h) && h > 0) this.#doors.resize(clampHeight(h));
        break;
      }
      case "notifications/message":
        // The app's log: kept out of the chat.
        break;
      default:
        break;
    }
  }

  async #request(id: Id, method: string, params: Record<string, unknown>): Promise<void> {
    switch (method) {
      case "ui/initialize":
        this.#answer(id, {
          protocolVersion: PROTOCOL_VERSION,
          hostInfo: { name: "zot", version: "1" },
          hostCapabilities: { openLinks: {}, serverTools: {}, logging: {} },
          hostContext: {
            toolInfo: { tool: { name: this.#call.tool, inputSchema: { type: "object" } } },
            ...this.#call.context,
          },
        });
        return;
      case "ping":
        this.#answer(id, {});
        return;
      case "tools/call":
        return this.#toolCall(id, params);
      case "ui/message":
        return this.#message(id, params);
      case "ui/open-link":
        return this.#openLink(id, params);
      case "ui/request-display-mode":
        // Inline only, for now: the answer is the mode it stays in.
        this.#answer(id, { mode: "inline" });
        return;
      case "ui/update-model-context":
        this.#fail(id, ERR.method, "zot does not take model context from apps yet");
        return;
      default:
        this.#fail(id, ERR.method, `zot does not support ${method} from an MCP App`);
    }
  }

  async #toolCall(id: Id, params: Record<string, unknown>): Promise<void> {
    const name = params.name;
    const args = params.arguments ?? {};
    if (typeof name !== "string" || !name) return this.#fail(id, ERR.params, 'tools/call needs "name"');
    if (!args || typeof args !== "object" || Array.isArray(args))
      return this.#fail(id, ERR.params, 'tools/call "arguments" must be an object');
    if (this.#toolCalls >= MAX_TOOL_CALLS)
      return this.#fail(
        id,
        ERR.denied,
        `at most ${MAX_TOOL_CALLS} tool calls of an app run at once; wait for one to finish`,
      );
    this.#toolCalls++;
    try {
      const r = await this.#doors.callTool(name, args as Record<string, unknown>);
      this.#answer(
        id,
        callToolResult({ content: r.content, isError: r.is_error, structured: r.structured_content }),
      );
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.#doors.note(`its call of ${name} did not run: ${why}`);
      this.#fail(id, ERR.denied, why);
    } finally {
      this.#toolCalls--;
    }
  }

  async #message(id: Id, params: Record<string, unknown>): Promise<void> {
    const text = messageText(params);
    if (text === null) return this.#fail(id, ERR.params, 'ui/message needs role "user" and text content');
    if (text.length > MAX_MESSAGE_TEXT)
      return this.#fail(
        id,
        ERR.params,
        `ui/message is ${text.length} characters, over the limit of ${MAX_MESSAGE_TEXT}`,
      );
    try {
      await this.#doors.sendMessage(text);
      this.#answer(id, {});
    } catch (e) {
      this.#fail(id, ERR.denied, e instanceof Error ? e.message : String(e));
    }
  }

  async #openLink(id: Id, params: Record<string, unknown>): Promise<void> {
    const url = typeof params.url === "string" ? params.url : "";
    if (!isWebLink(url)) return this.#fail(id, ERR.params, "ui/open-link opens http(s) addresses only");
    const opened = await this.#doors.openLink(url).catch(() => false);
    if (opened) this.#answer(id, {});
    else this.#fail(id, ERR.denied, "Link opening denied by user");
  }

  /** Input, then result, once the app is initialised; each once. */
  #flush(): void {
    if (!this.#initialized) return;
    if (!this.#inputSent) {
      this.#inputSent = true;
      const a = this.#call.args;
      this.#notify("ui/notifications/tool-input", { arguments: a && typeof a === "object" ? a : {} });
    }
    if (!this.#resultSent && this.#call.result) {
      this.#resultSent = true;
      this.#notify("ui/notifications/tool-result", callToolResult(this.#call.result));
    }
  }

  #notify(method: string, params: unknown): void {
    this.#doors.post({ jsonrpc: "2.0", method, params });
  }

  #answer(id: Id, result: unknown): void {
    this.#doors.post({ jsonrpc: "2.0", id, result });
  }

  #fail(id: Id, code: number, message: string): void {
    this.#doors.post({ jsonrpc: "2.0", id, error: { code, message } });
  }
}

/** The text of a `ui/message` (role user, text blocks), or null. */
export function messageText(params: Record<string, unknown>): string | null {
  if (params.role !== undefined && params.role !== "user") return null;
  const c = params.content;
  const blocks = Array.isArray(c) ? c : c ? [c] : [];
  const texts = blocks
    .filter(
      (b): b is { type: "text"; text: string } =>
        !!b && typeof b === "object" && b.type === "text" && typeof b.text === "string",
    )
    .map((b) => b.text);
  const text = texts.join("\n").trim();
  return text ? text : null;
}

/** An address the browser may open: http or https, nothing else. */
export function isWebLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}

/** A height the card may take. */
export function clampHeight(h: number): number {
  return Math.round(Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, h)));
}
