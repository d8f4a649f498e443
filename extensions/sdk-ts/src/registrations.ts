// What an extension registers, as the runtime reads it: the handler types
// and the `Registrations` shape. A leaf below both `extension.ts` (which
// fills it) and `runtime.ts` (which runs it), so neither imports the other
// back.
import type { Context, HostInfo } from "./context.js";
import type { ToolCall } from "./tool_call.js";
import type { Event, LifecycleEvent, PanelKeyFrame, PanelMouseFrame, PanelResizeFrame } from "./protocol/index.js";
import type { Decision, Response, ToolResult } from "./responses.js";

/** A value or a promise of one: every handler may be async. */
export type MaybePromise<T> = T | Promise<T>;
/** `(ctx, args) => Response`; a string means display it, nothing means noop. */
export type CommandHandler = (ctx: Context, args: string) => MaybePromise<Response | string | void>;
/** Tool args as the model produced them (a JSON object). */
export type ToolArgs = { [key: string]: any };
/** `(ctx, args) => ToolResult`; a string means one text block. */
/** A tool's handler; the third argument (optional to declare) reports
 * progress and carries an `AbortSignal` for `tool_cancel`. */
export type ToolHandler = (ctx: Context, args: ToolArgs, call: ToolCall) => MaybePromise<ToolResult | string>;
/** A JSON Schema object describing a tool's args. */
export type JsonSchema = { [key: string]: unknown };

/** @internal */
export interface CommandEntry { name: string; description: string; handler: CommandHandler }
/** @internal */
export interface ToolEntry { name: string; description: string; schema: JsonSchema; deferred: boolean; handler: ToolHandler }

/** @internal Everything an `Extension` registered; what `run` reads. */
export interface Registrations {
  readonly name: string;
  readonly version: string;
  readonly commands: CommandEntry[];
  readonly tools: ToolEntry[];
  readonly events: [LifecycleEvent, (ctx: Context, event: Event) => MaybePromise<void>][];
  toolCallInterceptor?: (ctx: Context, tool: string, args: ToolArgs) => MaybePromise<Decision>;
  turnStartInterceptor?: (ctx: Context, step: number) => MaybePromise<Decision>;
  assistantMessageInterceptor?: (ctx: Context, text: string) => MaybePromise<Decision>;
  panelKeyHandler?: (ctx: Context, key: PanelKeyFrame) => MaybePromise<void>;
  panelCloseHandler?: (ctx: Context, panelId: string) => MaybePromise<void>;
  panelMouseHandler?: (ctx: Context, ev: PanelMouseFrame) => MaybePromise<void>;
  panelResizeHandler?: (ctx: Context, ev: PanelResizeFrame) => MaybePromise<void>;
  panelMessageHandler?: (ctx: Context, panelId: string, data: unknown) => MaybePromise<void>;
  shutdownHandler?: (ctx: Context) => MaybePromise<void>;
  configChangeHandler?: (ctx: Context, config: Readonly<Record<string, unknown>>) => MaybePromise<void>;
  stateRestoredHandler?: (ctx: Context, state: Readonly<Record<string, unknown>>) => MaybePromise<void>;
  helloHook?: (ext: this, host: HostInfo) => MaybePromise<void>;
  /** The capabilities announced in `hello`. */
  inferredCapabilities(): string[];
}
