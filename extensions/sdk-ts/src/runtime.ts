// The handshake, then dispatch. JavaScript has one thread, so concurrency is
// the event loop's: requests (commands, tools, intercepts) run concurrently,
// each awaited on its own, so a tool that awaits for 10 s never delays a
// panel key. Keys, panel closes and events are chained so a panel never sees
// `x` before the `down` that preceded it.
import { Context, type HostInfo } from "./context.js";
import type { Registrations, ToolArgs } from "./registrations.js";
import type { ExtToHost, HostToExt } from "./protocol/index.js";
import { Response, ToolResult, type Decision } from "./responses.js";
import { ToolCall } from "./tool_call.js";

/** Where frames come from and go to; the process's own stdio by default. */
export interface RunOptions {
  /** Frames in. */
  input?: NodeJS.ReadableStream;
  /** Frames out. */
  output?: NodeJS.WritableStream;
  /** Exit the process after `shutdown_ack` (default true with real stdio). */
  exitOnShutdown?: boolean;
}

const KNOWN = new Set(["hello_ack", "command_invoked", "tool_call", "tool_cancel", "event", "event_intercept", "panel_key", "panel_close", "shutdown", "config_changed", "panel_mouse", "panel_resize", "panel_message", "ui_response", "state_restored"]);
const ORDERED = new Set(["event", "panel_key", "panel_close", "config_changed", "panel_mouse", "panel_resize", "panel_message", "state_restored"]);

function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Keeps stray console.log / process.stdout writes off the wire. */
function takeStdout(): (line: string) => void {
  const stdout = process.stdout;
  const raw = stdout.write.bind(stdout);
  stdout.write = ((chunk: any, enc?: any, cb?: any) => process.stderr.write(chunk, enc, cb)) as typeof stdout.write;
  return (line) => {
    raw(line);
  };
}

/** Runs `ext` until `shutdown` (or end of input). */
export function run<E extends Registrations>(ext: E, options: RunOptions = {}): Promise<void> {
  const input = options.input ?? process.stdin;
  const write = options.output ? (l: string) => void options.output!.write(l) : takeStdout();
  const exitOnShutdown = options.exitOnShutdown ?? !options.output;
  const send = (f: ExtToHost) => write(JSON.stringify(f) + "\n");
  const log = (m: string) => process.stderr.write(`[${ext.name}] ${m}\n`);

  return new Promise<void>((resolve) => {
    let phase: "handshake" | "running" | "done" = "handshake";
    let ctx: Context | undefined;
    let handshake: Promise<void> = Promise.resolve();
    let ordered: Promise<void> = Promise.resolve();
    const commands = new Map<string, Registrations["commands"][number]>();
    const tools = new Map<string, Registrations["tools"][number]>();

    const finish = () => {
      if (phase === "done") return;
      phase = "done";
      ctx?.closeDialogs();
      input.removeListener("data", onData);
      if ("pause" in input) input.pause();
      resolve();
      if (exitOnShutdown) process.exit(0);
    };

    send({ type: "hello", name: ext.name, ...(ext.version ? { version: ext.version } : {}), capabilities: ext.inferredCapabilities() });

    const parse = (line: string): HostToExt | undefined => {
      let f: any;
      try {
        f = JSON.parse(line);
      } catch (e) {
        log(`ignoring a line from zot that is not JSON (${describe(e)}): ${line.slice(0, 200)}`);
        return undefined;
      }
      if (typeof f !== "object" || f === null || Array.isArray(f)) {
        log(`ignoring a line from zot that is not a JSON object: ${line.slice(0, 200)}`);
        return undefined;
      }
      if (!KNOWN.has(f.type)) {
        log(`ignoring unknown frame type ${JSON.stringify(f.type)} from zot: ${line.slice(0, 200)}`);
        return undefined;
      }
      return f as HostToExt;
    };

    const startRunning = async (host: HostInfo) => {
      if (ext.helloHook) {
        try {
          await ext.helloHook(ext, host);
        } catch (e) {
          log(`onHello threw ${describe(e)}; registering what was set up before it`);
        }
      }
      for (const c of ext.commands) {
        if (!commands.has(c.name.toLowerCase())) commands.set(c.name.toLowerCase(), c);
        send({ type: "register_command", name: c.name, ...(c.description ? { description: c.description } : {}) });
      }
      for (const t of ext.tools) {
        if (!tools.has(t.name)) tools.set(t.name, t);
        send({
          type: "register_tool", name: t.name, ...(t.description ? { description: t.description } : {}),
          schema: t.schema as any, ...(t.deferred ? { deferred: true } : {}),
        });
      }
      const events = [...new Set(ext.events.map(([e]) => e))];
      const intercept = (
        [["tool_call", ext.toolCallInterceptor], ["turn_start", ext.turnStartInterceptor], ["assistant_message", ext.assistantMessageInterceptor]] as const
      ).filter(([, f]) => f).map(([e]) => e);
      if (events.length || intercept.length) send({ type: "subscribe", events, ...(intercept.length ? { intercept } : {}) });
      send({ type: "ready" });
      ctx = new Context(ext.name, host, send);
      phase = "running";
    };

    const guard = async <T>(what: string, f: () => T | Promise<T>): Promise<[T | undefined, string | undefined]> => {
      try {
        return [await f(), undefined];
      } catch (e) {
        const msg = `${what} threw ${describe(e)}`;
        log(e instanceof Error && e.stack ? `${msg}\n${e.stack}` : msg);
        return [undefined, msg];
      }
    };

    // Runs a handler and passes its value on, synchronously when it returns
    // a plain value (no promise hops on the hot path), after settling when
    // it returns a promise; a throw or rejection becomes `failed(message)`.
    const settle = <T>(what: string, f: () => T | Promise<T>, ok: (v: T) => void, failed: (m: string) => void): void => {
      const fail = (e: unknown) => {
        const msg = `${what} threw ${describe(e)}`;
        log(e instanceof Error && e.stack ? `${msg}\n${e.stack}` : msg);
        failed(msg);
      };
      let v: T | Promise<T>;
      try {
        v = f();
      } catch (e) {
        return fail(e);
      }
      if (v instanceof Promise || (v !== null && typeof v === "object" && typeof (v as any).then === "function")) {
        (v as Promise<T>).then(ok, fail);
      } else {
        ok(v as T);
      }
    };

    const calls = new Map<string, ToolCall>();
    const handleRequest = (f: HostToExt & { type: "command_invoked" | "tool_call" }): void => {
      const c = ctx!;
      switch (f.type) {
        case "command_invoked": {
          const cmd = commands.get(f.name.toLowerCase());
          const reply = (r: Response) => send({ type: "command_response", id: f.id, ...r });
          if (!cmd) return reply(Response.error(`${ext.name} has no command /${f.name}`));
          return settle(`command /${f.name}`, () => cmd.handler(c, f.args ?? ""),
            (v) => reply(typeof v === "string" ? Response.display(v) : v ?? Response.noop()),
            (err) => reply(Response.error(err)));
        }
        case "tool_call": {
          const tool = tools.get(f.name);
          const reply = (r: ToolResult) => send({ type: "tool_result", id: f.id, ...r });
          if (!tool) return reply(ToolResult.error(`${ext.name} has no tool named ${JSON.stringify(f.name)}`));
          const args = (f.args && typeof f.args === "object" && !Array.isArray(f.args) ? f.args : {}) as ToolArgs;
          const call = new ToolCall(f.id, send);
          calls.set(f.id, call);
          // Once zot has cancelled the call it no longer waits: nothing
          // more is sent for that id, whatever the handler returns.
          const answer = (r: ToolResult) => {
            calls.delete(f.id);
            if (!call.signal.aborted) reply(r);
          };
          return settle(`tool ${f.name}`, () => tool.handler(c, args, call),
            (v) => answer(typeof v === "string" ? ToolResult.text(v) : v),
            (err) => answer(ToolResult.error(err)));
        }
      }
    };

    const handle = async (f: HostToExt): Promise<void> => {
      const c = ctx!;
      switch (f.type) {
        case "event_intercept": {
          let d: Decision | undefined;
          let err: string | undefined;
          if (f.event === "tool_call" && ext.toolCallInterceptor) {
            const h = ext.toolCallInterceptor;
            [d, err] = await guard("tool_call interceptor", () => h(c, f.tool_name ?? "", (f.tool_args ?? {}) as ToolArgs));
          } else if (f.event === "turn_start" && ext.turnStartInterceptor) {
            const h = ext.turnStartInterceptor;
            [d, err] = await guard("turn_start interceptor", () => h(c, f.step ?? 0));
          } else if (f.event === "assistant_message" && ext.assistantMessageInterceptor) {
            const h = ext.assistantMessageInterceptor;
            [d, err] = await guard("assistant_message interceptor", () => h(c, f.text ?? ""));
          } else {
            log(`no interceptor for ${JSON.stringify(f.event)}; allowing it`);
          }
          send({ type: "event_intercept_response", id: f.id, ...(err ? { reason: err } : d ?? {}) });
          return;
        }
        case "event": {
          const hs = ext.events.filter(([e]) => e === f.event);
          if (!hs.length) log(`ignoring event ${JSON.stringify(f.event)}: no handler for it`);
          for (const [, h] of hs) await guard(`event handler ${f.event}`, () => h(c, f));
          return;
        }
        case "panel_key": {
          const h = ext.panelKeyHandler;
          if (!h) log(`ignoring a key for panel ${JSON.stringify(f.panel_id)}: no onPanelKey handler`);
          else await guard("panel key handler", () => h(c, f));
          return;
        }
        case "panel_mouse": {
          const h = ext.panelMouseHandler;
          if (h) await guard("panel mouse handler", () => h(c, f));
          return;
        }
        case "panel_resize": {
          const h = ext.panelResizeHandler;
          if (h) await guard("panel resize handler", () => h(c, f));
          return;
        }
        case "panel_message": {
          const h = ext.panelMessageHandler;
          if (!h) log(`ignoring a message from panel ${JSON.stringify(f.panel_id)}: no onPanelMessage handler`);
          else await guard("panel message handler", () => h(c, f.panel_id, f.data));
          return;
        }
        case "panel_close": {
          const h = ext.panelCloseHandler;
          if (h) await guard("panel close handler", () => h(c, f.panel_id));
          return;
        }
        case "shutdown": {
          const h = ext.shutdownHandler;
          if (h) await guard("shutdown handler", () => h(c));
          send({ type: "shutdown_ack" });
          finish();
          return;
        }
        case "ui_response":
          if (!c.answerDialog(f)) log(`ignoring a ui_response for ${JSON.stringify(f.id)}: no dialog waits for it`);
          return;
        case "hello_ack":
          log("ignoring a second hello_ack");
          return;
        case "tool_cancel":
          calls.get(f.id)?.cancel(f.reason);
          return;
        case "state_restored": {
          c.state.replace(f.state);
          const h = ext.stateRestoredHandler;
          if (h) await guard("state_restored handler", () => h(c, c.state.all()));
          return;
        }
        case "config_changed": {
          c.currentConfig = { ...(f.config ?? {}) };
          const h = ext.configChangeHandler;
          if (h) await guard("config change handler", () => h(c, c.config));
          return;
        }
      }
    };

    const dispatch = (f: HostToExt) => {
      if (f.type === "shutdown") {
        // Everything ordered before it has been queued; let it drain first.
        ordered = ordered.then(() => handle(f));
      } else if (ORDERED.has(f.type)) {
        ordered = ordered.then(() => handle(f));
      } else if (f.type === "command_invoked" || f.type === "tool_call") {
        handleRequest(f); // synchronous for synchronous handlers
      } else {
        void handle(f);
      }
    };

    const onLine = (line: string) => {
      if (phase === "done" || line.trim() === "") return;
      if (phase === "running") {
        const f = parse(line);
        if (f) dispatch(f);
        return;
      }
      handshake = handshake.then(async () => {
        if (phase === "running") {
          const f = parse(line);
          if (f) dispatch(f);
          return;
        }
        if (phase === "done") return;
        const f = parse(line);
        if (!f) return;
        if (f.type === "hello_ack") await startRunning(f);
        else if (f.type === "shutdown") {
          send({ type: "shutdown_ack" });
          finish();
        } else log(`ignoring ${f.type} sent before hello_ack`);
      });
    };

    let pending = "";
    const onData = (chunk: string | Buffer) => {
      // One scan per chunk, one slice per line: a chunk holding many lines
      // is not copied once per line.
      const buf = pending + (typeof chunk === "string" ? chunk : chunk.toString("utf8"));
      let start = 0;
      let nl: number;
      while ((nl = buf.indexOf("\n", start)) >= 0) {
        const end = nl > start && buf.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        onLine(buf.slice(start, end));
        start = nl + 1;
      }
      pending = buf.slice(start);
    };
    if ("setEncoding" in input) input.setEncoding("utf8");
    input.on("data", onData);
    input.on("end", () => {
      if (pending) onLine(pending);
      void handshake.then(() => ordered).then(finish);
    });
  });
}
