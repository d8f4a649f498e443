"""The handshake, then the loop that reads frames and runs handlers.

As in the Rust SDK: one thread at a time is the reader. It reads a frame
and runs the handler itself, inline, so the hot path has no queue and no
thread hand-off. A watchdog thread looks at the reader every millisecond
while frames are flowing; when one handler has run for a whole tick, it
promotes another thread (idle or new) to reader, so a slow tool delays
other frames by a millisecond or two, never by its own duration. Keys,
panel closes and events take a ticket when read and run in ticket order.
"""

import json
import sys
import threading
import time
import traceback
from typing import Any, BinaryIO, Callable, Dict, Optional, Tuple

from .context import Context, HostInfo
from .decisions import AssistantMessageDecision, ToolCallDecision, TurnStartDecision
from .panel_input import PanelMouse, PanelResize
from .registrations import Registrations
from .responses import Response, ToolResult
from .tool_call import ToolCall, wants_call
from .wire import Writer, log

MAX_IDLE = 4
ORDERED = ("event", "panel_key", "panel_close", "config_changed", "panel_mouse", "panel_resize",
           "state_restored", "panel_message")
KNOWN = ("hello_ack", "command_invoked", "tool_call", "tool_cancel", "event", "event_intercept",
         "panel_key", "panel_close", "shutdown", "config_changed", "panel_mouse", "panel_resize", "state_restored",
         "panel_message", "ui_response")


def run(ext: Registrations, stdin: Optional[BinaryIO] = None, out: Optional[Writer] = None) -> None:
    """Runs ``ext`` on the given pipes (the process's own by default)."""
    out = out or Writer.take_stdout()
    stdin = stdin or sys.stdin.buffer
    out.send({"type": "hello", "name": ext.name, **({"version": ext.version} if ext.version else {}),
              "capabilities": ext.inferred_capabilities()})
    host = _await_hello_ack(ext.name, stdin, out)
    if host is None:
        return
    if ext.hello_hook is not None:
        try:
            ext.hello_hook(ext, host)
        except Exception as e:  # registrations made before the error still count
            log(ext.name, f"on_hello raised {e!r}; registering what was set up before it")
    _announce(ext, out)
    pool = _Pool(ext, Context(ext.name, host, out), stdin)
    pool.run()


def _await_hello_ack(name: str, stdin: BinaryIO, out: Writer) -> Optional[HostInfo]:
    while True:
        line = stdin.readline()
        if not line:
            raise SystemExit(f"[{name}] zot closed stdin before sending hello_ack; is this being run outside zot?")
        frame, why = _parse(line)
        if frame is None:
            log(name, why)
        elif frame["type"] == "hello_ack":
            return HostInfo.from_frame(frame)
        elif frame["type"] == "shutdown":
            out.send({"type": "shutdown_ack"})
            return None
        else:
            log(name, f"ignoring {frame['type']} sent before hello_ack")


def _announce(ext: Registrations, out: Writer) -> None:
    for c in ext.commands:
        f: Dict[str, Any] = {"type": "register_command", "name": c.name}
        if c.description:
            f["description"] = c.description
        out.send(f)
    for t in ext.tools:
        f = {"type": "register_tool", "name": t.name, "schema": t.schema}
        if t.description:
            f["description"] = t.description
        if t.deferred:
            f["deferred"] = True
        out.send(f)
    events = []
    for e, _ in ext.events:
        if e not in events:
            events.append(e)
    intercept = [name for name, fn in (("tool_call", ext.tool_call_interceptor),
                                       ("turn_start", ext.turn_start_interceptor),
                                       ("assistant_message", ext.assistant_message_interceptor)) if fn]
    if events or intercept:
        sub: Dict[str, Any] = {"type": "subscribe", "events": events}
        if intercept:
            sub["intercept"] = intercept
        out.send(sub)
    out.send({"type": "ready"})


_decode = json.JSONDecoder().decode


def _parse(line: bytes) -> Tuple[Optional[Dict[str, Any]], str]:
    """A frame, or ``None`` and what to log about the line."""
    try:
        frame = _decode(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as e:
        preview = line[:200].decode("utf-8", "replace").rstrip()
        return None, f"ignoring a line from zot that is not JSON ({e}): {preview}"
    if not isinstance(frame, dict):
        preview = line[:200].decode("utf-8", "replace").rstrip()
        return None, f"ignoring a line from zot that is not a JSON object: {preview}"
    ty = frame.get("type")
    if ty not in KNOWN:
        preview = line[:200].decode("utf-8", "replace").rstrip()
        return None, f"ignoring unknown frame type {ty!r} from zot: {preview}"
    return frame, ""


def _describe(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"


TICK = 0.001
IDLE_TICKS = 50


class _Pool:
    def __init__(self, ext: Registrations, ctx: Context, stdin: BinaryIO) -> None:
        self.ext = ext
        self.ctx = ctx
        self.stdin = stdin
        self.commands = {}
        for c in ext.commands:  # first registration wins, as in the host
            self.commands.setdefault(c.name.lower(), c.handler)
        self.tools = {}
        for t in ext.tools:
            self.tools.setdefault(t.name, t.handler)
        # Handlers that take a ToolCall, and the calls in flight by id.
        self.with_call = {name: wants_call(fn) for name, fn in self.tools.items()}
        self.calls: Dict[str, ToolCall] = {}
        self.calls_lock = threading.Lock()
        self.read_lock = threading.Lock()
        # busy: the sequence number of the frame the reader is handling (0
        # while reading). Whoever clears a non-zero value decides: the
        # reader (stays reader) or the watchdog (promotes another thread).
        self.busy_lock = threading.Lock()
        self.busy = 0
        self.seq = 0
        self.next_ticket = 0
        self.turn = 0
        self.turn_cv = threading.Condition()
        self.idle_cv = threading.Condition()
        self.idle_waiting = 0
        self.promotions = 0
        self.watchdog_cv = threading.Condition()
        self.watchdog_parked = False
        self.done = threading.Event()

    def run(self) -> None:
        threading.Thread(target=self._watchdog, name="zot-ext-watchdog", daemon=True).start()
        self._spawn()
        self.done.wait()

    def _spawn(self) -> None:
        threading.Thread(target=self._thread, name="zot-ext", daemon=True).start()

    def _thread(self) -> None:
        while not self.done.is_set():
            if not self._read_and_handle() and not self._wait_for_promotion():
                return

    def _read_and_handle(self) -> bool:
        """Reads and handles one frame; True if still the reader after."""
        with self.read_lock:
            if self.done.is_set():
                return False
            try:
                line = self.stdin.readline()
            except (OSError, ValueError) as e:
                self.ctx.log(f"reading from zot failed: {e}")
                line = b""
        if not line:
            self.done.set()
            self.ctx._close_dialogs()
            return False
        frame, why = _parse(line)
        if frame is None:
            self.ctx.log(why)
            return True
        if frame["type"] == "shutdown":
            self._dispatch(frame)
            self.done.set()
            return False
        ticket = None
        if frame["type"] in ORDERED:
            ticket = self.next_ticket
            self.next_ticket += 1
        # Only the reader writes a new value, and a plain store is atomic
        # under the GIL; clearing it (reader or watchdog) takes the lock.
        self.seq += 1
        seq = self.busy = self.seq
        if self.watchdog_parked:
            with self.watchdog_cv:
                self.watchdog_parked = False
                self.watchdog_cv.notify()
        if ticket is None:
            self._dispatch(frame)
        else:
            self._in_turn(ticket, frame)
        with self.busy_lock:
            if self.busy == seq:
                self.busy = 0
                return True
            return False  # the watchdog promoted another reader meanwhile

    def _promote(self) -> None:
        with self.idle_cv:
            if self.idle_waiting > self.promotions:
                self.promotions += 1
                self.idle_cv.notify()
                return
        self._spawn()

    def _wait_for_promotion(self) -> bool:
        with self.idle_cv:
            if self.done.is_set() or self.idle_waiting >= MAX_IDLE:
                return False
            self.idle_waiting += 1
            self.idle_cv.wait_for(lambda: self.promotions > 0 or self.done.is_set())
            self.idle_waiting -= 1
            if self.promotions == 0:
                return False
            self.promotions -= 1
            return True

    def _watchdog(self) -> None:
        last, quiet = 0, 0
        while not self.done.is_set():
            time.sleep(TICK)
            with self.busy_lock:
                now = self.busy
                if now and now == last:
                    self.busy = 0
                    promote = True
                else:
                    promote = False
            if promote:
                self._promote()
                last = 0
                continue
            last = now
            quiet = quiet + 1 if now == 0 else 0
            if quiet >= IDLE_TICKS:
                with self.watchdog_cv:
                    self.watchdog_parked = True
                    self.watchdog_cv.wait_for(lambda: not self.watchdog_parked or self.busy or self.done.is_set())
                    self.watchdog_parked = False
                last, quiet = 0, 0

    def _in_turn(self, ticket: int, frame: Dict[str, Any]) -> None:
        with self.turn_cv:
            self.turn_cv.wait_for(lambda: self.turn == ticket)
        try:
            self._dispatch(frame)
        finally:
            with self.turn_cv:
                self.turn += 1
                self.turn_cv.notify_all()

    def _guard(self, what: str, fn: Callable[[], Any]) -> Tuple[Any, Optional[str]]:
        """Runs a handler; an exception becomes ``(None, message)`` and a log
        line with the traceback."""
        try:
            return fn(), None
        except Exception as e:
            return None, self._failed(what, e)

    def _failed(self, what: str, e: Exception) -> str:
        """Logs a handler's exception with its traceback; returns the message."""
        msg = f"{what} raised {_describe(e)}"
        self.ctx.log(msg + "\n" + traceback.format_exc().rstrip())
        return msg

    def _dispatch(self, f: Dict[str, Any]) -> None:
        ty = f["type"]
        ctx = self.ctx
        rid = str(f.get("id", ""))
        if ty == "command_invoked":
            name = str(f.get("name", ""))
            handler = self.commands.get(name.lower())
            if handler is None:
                resp = Response.error(f"{ctx.name} has no command /{name}")
            else:
                r, err = self._guard(f"command /{name}", lambda: handler(ctx, str(f.get("args") or "")))
                resp = Response.error(err) if err else _as_response(r)
            ctx.send(resp.frame(rid))
        elif ty == "tool_call":
            name = str(f.get("name", ""))
            tool = self.tools.get(name)
            if tool is None:
                result = ToolResult.error(f"{ctx.name} has no tool named {name!r}")
            else:
                args = f.get("args")
                call = None
                if self.with_call.get(name):
                    call = ToolCall(ctx, rid)
                    with self.calls_lock:
                        self.calls[rid] = call
                try:
                    if call is None:
                        r = tool(ctx, args if isinstance(args, dict) else {})
                    else:
                        r = tool(ctx, args if isinstance(args, dict) else {}, call)
                except Exception as e:
                    result = ToolResult.error(self._failed(f"tool {name}", e))
                else:
                    if call is not None and call.is_cancelled():
                        return  # zot no longer waits: nothing more for this id
                    if type(r) is str:  # the common case, without building objects
                        ctx.send({"type": "tool_result", "id": rid, "content": [{"type": "text", "text": r}]})
                        return
                    result = _as_tool_result(r)
                finally:
                    if call is not None:
                        with self.calls_lock:
                            self.calls.pop(rid, None)
                if call is not None and call.is_cancelled():
                    return  # zot no longer waits; sending nothing more for it
            ctx.send(result.frame(rid))
        elif ty == "tool_cancel":
            with self.calls_lock:
                pending = self.calls.get(rid)
            if pending is not None:
                pending._cancel(str(f.get("reason", "")))
        elif ty == "event_intercept":
            ctx.send(self._intercept(f, rid))
        elif ty == "event":
            handlers = [fn for e, fn in self.ext.events if e == f.get("event")]
            if not handlers:
                ctx.log(f"ignoring event {f.get('event')!r}: no handler for it")
            for fn in handlers:
                self._guard(f"event handler {f.get('event')}", lambda fn=fn: fn(ctx, f))
        elif ty == "panel_key":
            h = self.ext.panel_key_handler
            if h is None:
                ctx.log(f"ignoring a key for panel {f.get('panel_id')!r}: no on_panel_key handler")
            else:
                self._guard("panel key handler",
                            lambda: h(ctx, str(f.get("panel_id", "")), str(f.get("key", "")), f.get("text")))
        elif ty == "panel_mouse":
            hm = self.ext.panel_mouse_handler
            if hm is not None:
                self._guard("panel mouse handler", lambda: hm(ctx, PanelMouse.from_frame(f)))
        elif ty == "panel_resize":
            hr = self.ext.panel_resize_handler
            if hr is not None:
                self._guard("panel resize handler", lambda: hr(ctx, PanelResize.from_frame(f)))
        elif ty == "panel_message":
            hp = self.ext.panel_message_handler
            if hp is None:
                ctx.log(f"ignoring a message from panel {f.get('panel_id')!r}: no on_panel_message handler")
            else:
                self._guard("panel message handler",
                            lambda: hp(ctx, str(f.get("panel_id", "")), f.get("data")))
        elif ty == "panel_close":
            h2 = self.ext.panel_close_handler
            if h2 is not None:
                self._guard("panel close handler", lambda: h2(ctx, str(f.get("panel_id", ""))))
        elif ty == "shutdown":
            h3 = self.ext.shutdown_handler
            if h3 is not None:
                self._guard("shutdown handler", lambda: h3(ctx))
            ctx.send({"type": "shutdown_ack"})
        elif ty == "ui_response":
            ctx._dialog_answer(f)
        elif ty == "hello_ack":
            ctx.log("ignoring a second hello_ack")
        elif ty == "state_restored":
            st = f.get("state")
            ctx.state._replace(st if isinstance(st, dict) else {})
            h5 = self.ext.state_restored_handler
            if h5 is not None:
                self._guard("state_restored handler", lambda: h5(ctx, ctx.state.all()))
        elif ty == "config_changed":
            values = f.get("config")
            ctx._set_config(values if isinstance(values, dict) else {})
            h4 = self.ext.config_change_handler
            if h4 is not None:
                self._guard("config change handler", lambda: h4(ctx, ctx.config))

    def _intercept(self, f: Dict[str, Any], rid: str) -> Dict[str, Any]:
        event = f.get("event")
        ext, ctx = self.ext, self.ctx
        if event == "tool_call" and ext.tool_call_interceptor:
            fn = ext.tool_call_interceptor
            args = f.get("tool_args")
            args = args if isinstance(args, dict) else {}
            d, err = self._guard("tool_call interceptor", lambda: fn(ctx, str(f.get("tool_name", "")), args))
            return (ToolCallDecision(reason=err) if err else d or ToolCallDecision()).frame(rid)
        if event == "turn_start" and ext.turn_start_interceptor:
            fn2 = ext.turn_start_interceptor
            d, err = self._guard("turn_start interceptor", lambda: fn2(ctx, int(f.get("step") or 0)))
            return (TurnStartDecision(reason=err) if err else d or TurnStartDecision()).frame(rid)
        if event == "assistant_message" and ext.assistant_message_interceptor:
            fn3 = ext.assistant_message_interceptor
            d, err = self._guard("assistant_message interceptor", lambda: fn3(ctx, str(f.get("text") or "")))
            return (AssistantMessageDecision(reason=err) if err else d or AssistantMessageDecision()).frame(rid)
        ctx.log(f"no interceptor for {event!r}; allowing it")
        return {"type": "event_intercept_response", "id": rid}


def _as_response(r: Any) -> Response:
    if isinstance(r, Response):
        return r
    if r is None:
        return Response.noop()
    if isinstance(r, str):
        return Response.display(r)
    return Response.error(f"command handler returned {type(r).__name__}, not a Response")


def _as_tool_result(r: Any) -> ToolResult:
    if isinstance(r, ToolResult):
        return r
    if isinstance(r, str):
        return ToolResult.text(r)
    try:
        return ToolResult.text(json.dumps(r, indent=2))
    except (TypeError, ValueError):
        return ToolResult.error(f"tool handler returned {type(r).__name__}, not a ToolResult")
