// What command handlers, tool handlers and interceptors return.
import type { CommandResponse, ContentBlock, EventInterceptResponse, PanelSpec } from "./protocol/index.js";

/** A command's answer (the `command_response` frame without its id). */
export type Response = Omit<CommandResponse, "id">;

/** Builders for each `command_response` action. */
export const Response = {
  /** Submit `text` as a user message; the agent runs a turn. */
  prompt: (text: string): Response => ({ action: "prompt", prompt: text }),
  /** Put `text` into the editor at the cursor without submitting. */
  insert: (text: string): Response => ({ action: "insert", insert: text }),
  /** Show `text` as a one-shot note; no model call. */
  display: (text: string): Response => ({ action: "display", display: text }),
  /** Open an extension-owned panel. */
  openPanel: (panel: PanelSpec): Response => ({ action: "open_panel", open_panel: panel }),
  /**
   * Open an HTML panel: `html` is a complete document, shown in a sandboxed
   * frame (no network unless the manifest grants `sandbox.net`; at most
   * 2 MiB). Its page talks to the extension with
   * `window.parent.postMessage(data, "*")` (`onPanelMessage`) and hears
   * `ctx.postMessage` as `message` events.
   */
  openHtmlPanel: (id: string, title: string, html: string, placement?: "bottom" | "side"): Response => ({
    action: "open_panel",
    open_panel: { id, title, html, lines: [], ...(placement ? { placement } : {}) },
  }),
  /** The extension handled it itself; zot changes nothing. */
  noop: (): Response => ({ action: "noop" }),
  /** Show `message` as a red status line. */
  error: (message: string): Response => ({ action: "noop", error: message }),
};

/** A tool's answer (the `tool_result` frame without its id). */
export interface ToolResult {
  /** Text and image blocks the model reads. */
  content: ContentBlock[];
  /** Marks the call as failed. */
  is_error?: boolean;
  /** Registered deferred tools that become available after this result. */
  activate_tools?: string[];
}

/** Builders for tool results. */
export const ToolResult = {
  /** One text block. */
  text: (text: string): ToolResult => ({ content: [{ type: "text", text }] }),
  /** One text block, marked as a failed call. */
  error: (text: string): ToolResult => ({ content: [{ type: "text", text }], is_error: true }),
  /** One text block that also activates deferred tools. */
  activating: (text: string, tools: string[]): ToolResult => ({
    content: [{ type: "text", text }],
    activate_tools: tools,
  }),
};

/** An interceptor's verdict; `{}` means allow unchanged (zot's own default). */
export type Decision = Omit<EventInterceptResponse, "id">;

/** Builders for interceptor verdicts. */
export const Decision = {
  /** Let it through unchanged. */
  allow: (): Decision => ({}),
  /** Refuse it: the model (tool calls) or the user (turns, text) sees `reason`. */
  block: (reason: string): Decision => ({ block: true, reason }),
  /** Tool calls only: run with these args instead (a JSON object). */
  rewrite: (args: { [key: string]: unknown }): Decision => ({ modified_args: args as Decision["modified_args"] }),
  /** Assistant messages only: show this text instead. */
  replace: (text: string): Decision => ({ replace_text: text }),
};
