// The object authors use: register commands, tools, hooks and handlers,
// then `run()`.
import type { Context, HostInfo } from "./context.js";
import type { Event, LifecycleEvent, PanelKeyFrame, PanelMouseFrame, PanelResizeFrame } from "./protocol/index.js";
import type { Decision } from "./responses.js";
import type { CommandEntry, CommandHandler, JsonSchema, MaybePromise, Registrations, ToolArgs, ToolEntry, ToolHandler } from "./registrations.js";
import { run, type RunOptions } from "./runtime.js";

/** An extension: everything it registers and every handler it runs. */
export class Extension implements Registrations {
  /** @internal */ readonly commands: CommandEntry[] = [];
  /** @internal */ readonly tools: ToolEntry[] = [];
  /** @internal */ readonly events: [LifecycleEvent, (ctx: Context, event: Event) => MaybePromise<void>][] = [];
  /** @internal */ readonly capabilities: string[] = [];
  /** @internal */ toolCallInterceptor?: (ctx: Context, tool: string, args: ToolArgs) => MaybePromise<Decision>;
  /** @internal */ turnStartInterceptor?: (ctx: Context, step: number) => MaybePromise<Decision>;
  /** @internal */ assistantMessageInterceptor?: (ctx: Context, text: string) => MaybePromise<Decision>;
  /** @internal */ panelKeyHandler?: (ctx: Context, key: PanelKeyFrame) => MaybePromise<void>;
  /** @internal */ panelCloseHandler?: (ctx: Context, panelId: string) => MaybePromise<void>;
  /** @internal */ panelMouseHandler?: (ctx: Context, ev: PanelMouseFrame) => MaybePromise<void>;
  /** @internal */ panelResizeHandler?: (ctx: Context, ev: PanelResizeFrame) => MaybePromise<void>;
  /** @internal */ panelMessageHandler?: (ctx: Context, panelId: string, data: unknown) => MaybePromise<void>;
  /** @internal */ shutdownHandler?: (ctx: Context) => MaybePromise<void>;
  /** @internal */ stateRestoredHandler?: (ctx: Context, state: Readonly<Record<string, unknown>>) => MaybePromise<void>;
  /** @internal */ configChangeHandler?: (ctx: Context, config: Readonly<Record<string, unknown>>) => MaybePromise<void>;
  /** @internal */ helloHook?: (ext: Extension, host: HostInfo) => MaybePromise<void>;

  /** `name` must match `extension.json`. */
  constructor(readonly name: string, readonly version = "") {}

  /** Adds a slash command; the handler gets everything typed after it. */
  command(name: string, description: string, handler: CommandHandler): this {
    this.commands.push({ name, description, handler });
    return this;
  }

  /** Adds a tool the model can call; `schema` is a JSON Schema object. */
  tool(name: string, description: string, schema: JsonSchema, handler: ToolHandler): this {
    this.tools.push({ name, description, schema, deferred: false, handler });
    return this;
  }

  /** Adds a tool hidden from the model until a result's `activate_tools` names it. */
  deferredTool(name: string, description: string, schema: JsonSchema, handler: ToolHandler): this {
    this.tools.push({ name, description, schema, deferred: true, handler });
    return this;
  }

  /** Runs once after `hello_ack`, before registrations are announced. */
  onHello(hook: (ext: Extension, host: HostInfo) => MaybePromise<void>): this {
    this.helloHook = hook;
    return this;
  }

  /** Observes a lifecycle event; event handlers run one at a time, in order. */
  onEvent(event: LifecycleEvent, handler: (ctx: Context, event: Event) => MaybePromise<void>): this {
    this.events.push([event, handler]);
    return this;
  }

  /** Tool calls: allow, block with a reason, or rewrite args. */
  interceptToolCall(handler: (ctx: Context, tool: string, args: ToolArgs) => MaybePromise<Decision>): this {
    this.toolCallInterceptor = handler;
    return this;
  }

  /** The start of each model step: allow or block. */
  interceptTurnStart(handler: (ctx: Context, step: number) => MaybePromise<Decision>): this {
    this.turnStartInterceptor = handler;
    return this;
  }

  /** The assistant's final text: allow, block, or replace. */
  interceptAssistantMessage(handler: (ctx: Context, text: string) => MaybePromise<Decision>): this {
    this.assistantMessageInterceptor = handler;
    return this;
  }

  /** Keys for this extension's focused panels, in order. */
  onPanelKey(handler: (ctx: Context, key: PanelKeyFrame) => MaybePromise<void>): this {
    this.panelKeyHandler = handler;
    return this;
  }

  /** The user closed one of this extension's panels. */
  onPanelClose(handler: (ctx: Context, panelId: string) => MaybePromise<void>): this {
    this.panelCloseHandler = handler;
    return this;
  }

  /**
   * Clicks, double clicks (after the click they follow), context clicks
   * (with `row`/`col`) and the wheel (with `delta` in lines) over this
   * extension's panels, in order with its keys. Declares `panel_mouse`, so
   * the wheel no longer scrolls the panel by itself.
   */
  onPanelMouse(handler: (ctx: Context, ev: PanelMouseFrame) => MaybePromise<void>): this {
    this.panelMouseHandler = handler;
    return this;
  }

  /**
   * A panel's text area in monospace cells, once after it opens and again
   * on every change. Declares `panel_resize`.
   */
  onPanelResize(handler: (ctx: Context, ev: PanelResizeFrame) => MaybePromise<void>): this {
    this.panelResizeHandler = handler;
    return this;
  }

  /**
   * What the page of one of its HTML panels posted with
   * `window.parent.postMessage(data, "*")`, in order.
   */
  onPanelMessage(handler: (ctx: Context, panelId: string, data: unknown) => MaybePromise<void>): this {
    this.panelMessageHandler = handler;
    return this;
  }

  /**
   * The user changed the extension's settings while it runs
   * (`config_changed`); `ctx.config` already holds the new values.
   */
  onConfigChange(handler: (ctx: Context, config: Readonly<Record<string, unknown>>) => MaybePromise<void>): this {
    this.configChangeHandler = handler;
    return this;
  }

  /**
   * The session changed under the extension (`state_restored`: clear,
   * another session opened, a rewind of the conversation, a fork);
   * `ctx.state` already holds the new values. Redraw what shows them.
   */
  onStateRestored(handler: (ctx: Context, state: Readonly<Record<string, unknown>>) => MaybePromise<void>): this {
    this.stateRestoredHandler = handler;
    return this;
  }

  /** Runs on `shutdown`, before the acknowledgement; keep it short (zot waits 2 s). */
  onShutdown(handler: (ctx: Context) => MaybePromise<void>): this {
    this.shutdownHandler = handler;
    return this;
  }

  /** Declares a capability beyond those inferred from registrations. */
  capability(name: string): this {
    this.capabilities.push(name);
    return this;
  }

  /** @internal The capabilities announced in `hello`. */
  inferredCapabilities(): string[] {
    const caps = new Set<string>();
    if (this.commands.length) caps.add("commands");
    if (this.tools.length) caps.add("tools");
    if (this.events.length || this.toolCallInterceptor || this.turnStartInterceptor || this.assistantMessageInterceptor)
      caps.add("events");
    if (this.panelKeyHandler || this.panelCloseHandler || this.panelMessageHandler) caps.add("panels");
    if (this.panelMouseHandler) caps.add("panel_mouse");
    if (this.panelResizeHandler) caps.add("panel_resize");
    for (const c of this.capabilities) caps.add(c);
    return [...caps];
  }

  /** Speaks the protocol on stdin/stdout until `shutdown` or end of stdin. */
  run(options: RunOptions = {}): Promise<void> {
    return run(this, options);
  }
}
