"""The object authors use: register commands, tools, hooks and handlers
(as decorators), then :meth:`Extension.run`."""

from typing import Any, Callable, Dict, List, Optional, Tuple, TypeVar

from .context import Context, HostInfo
from .decisions import AssistantMessageDecision, ToolCallDecision, TurnStartDecision
from .panel_input import PanelMouse, PanelResize
from .registrations import CommandEntry, ToolEntry
from .runtime import run as _run

F = TypeVar("F", bound=Callable[..., Any])

EVENTS = ("session_start", "turn_start", "turn_end", "tool_call", "assistant_message")


class Extension:
    """An extension: everything it registers and every handler it runs."""

    def __init__(self, name: str, version: str = "") -> None:
        self.name = name
        """Must match ``extension.json``."""
        self.version = version
        self.capabilities: List[str] = []
        """Declared on top of the ones inferred from registrations."""
        self.commands: List[CommandEntry] = []
        self.tools: List[ToolEntry] = []
        self.events: List[Tuple[str, Callable[[Context, Dict[str, Any]], None]]] = []
        self.tool_call_interceptor: Optional[Callable[[Context, str, Dict[str, Any]], ToolCallDecision]] = None
        self.turn_start_interceptor: Optional[Callable[[Context, int], TurnStartDecision]] = None
        self.assistant_message_interceptor: Optional[Callable[[Context, str], AssistantMessageDecision]] = None
        self.panel_key_handler: Optional[Callable[[Context, str, str, Optional[str]], None]] = None
        self.panel_close_handler: Optional[Callable[[Context, str], None]] = None
        self.panel_mouse_handler: Optional[Callable[[Context, PanelMouse], None]] = None
        self.panel_resize_handler: Optional[Callable[[Context, PanelResize], None]] = None
        self.panel_message_handler: Optional[Callable[[Context, str, Any], None]] = None
        self.shutdown_handler: Optional[Callable[[Context], None]] = None
        self.config_change_handler: Optional[Callable[[Context, Dict[str, Any]], None]] = None
        self.state_restored_handler: Optional[Callable[[Context, Dict[str, Any]], None]] = None
        self.hello_hook: Optional[Callable[["Extension", HostInfo], None]] = None

    def command(self, name: str, description: str = "") -> Callable[[F], F]:
        """Decorator: adds a slash command; the handler gets the text after it."""
        def deco(fn: F) -> F:
            self.commands.append(CommandEntry(name, description, fn))
            return fn
        return deco

    def tool(self, name: str, description: str = "", schema: Optional[Dict[str, Any]] = None,
             deferred: bool = False) -> Callable[[F], F]:
        """Decorator: adds a tool the model can call; ``schema`` is a JSON
        Schema object. ``deferred`` tools stay hidden until a
        :meth:`ToolResult.activate` names them."""
        def deco(fn: F) -> F:
            self.tools.append(ToolEntry(name, description, schema or {"type": "object"}, deferred, fn))
            return fn
        return deco

    def on_hello(self, fn: Callable[["Extension", HostInfo], None]) -> Callable[["Extension", HostInfo], None]:
        """Decorator: runs once after ``hello_ack``, before registrations are
        announced, so it can register more using the host's metadata."""
        self.hello_hook = fn
        return fn

    def on_event(self, event: str) -> Callable[[F], F]:
        """Decorator: observes a lifecycle event; handlers run in order."""
        if event not in EVENTS:
            raise ValueError(f"unknown event {event!r}; expected one of {EVENTS}")
        def deco(fn: F) -> F:
            self.events.append((event, fn))
            return fn
        return deco

    def intercept_tool_call(self, fn: F) -> F:
        """Decorator: ``(ctx, tool, args) -> ToolCallDecision``."""
        self.tool_call_interceptor = fn
        return fn

    def intercept_turn_start(self, fn: F) -> F:
        """Decorator: ``(ctx, step) -> TurnStartDecision``."""
        self.turn_start_interceptor = fn
        return fn

    def intercept_assistant_message(self, fn: F) -> F:
        """Decorator: ``(ctx, text) -> AssistantMessageDecision``."""
        self.assistant_message_interceptor = fn
        return fn

    def on_panel_key(self, fn: F) -> F:
        """Decorator: ``(ctx, panel_id, key, text)`` for keys, in order."""
        self.panel_key_handler = fn
        return fn

    def on_panel_close(self, fn: F) -> F:
        """Decorator: ``(ctx, panel_id)`` when the user closes a panel."""
        self.panel_close_handler = fn
        return fn

    def on_panel_mouse(self, fn: F) -> F:
        """Decorator: ``(ctx, event: PanelMouse)`` for clicks and the wheel
        over this extension's panels; declares ``panel_mouse``, so the
        wheel no longer scrolls the panel by itself."""
        self.panel_mouse_handler = fn
        return fn

    def on_panel_resize(self, fn: F) -> F:
        """Decorator: ``(ctx, event: PanelResize)`` with a panel's size in
        cells after it opens and on every change; declares ``panel_resize``."""
        self.panel_resize_handler = fn
        return fn

    def on_panel_message(self, fn: F) -> F:
        """Decorator: ``(ctx, panel_id, data)`` with what the page of one of
        this extension's HTML panels posted to ``window.parent``, in order."""
        self.panel_message_handler = fn
        return fn

    def on_config_change(self, fn: F) -> F:
        """Decorator: ``(ctx, config)`` when the user changed the settings
        while the extension runs; ``ctx.config`` already holds them."""
        self.config_change_handler = fn
        return fn

    def on_state_restored(self, fn: F) -> F:
        """Decorator: ``(ctx, state)`` when the session changed under the
        extension (clear, another session opened, a rewind of the
        conversation, a fork); ``ctx.state`` already holds the new values."""
        self.state_restored_handler = fn
        return fn

    def on_shutdown(self, fn: F) -> F:
        """Decorator: ``(ctx)`` before ``shutdown_ack``; keep it short."""
        self.shutdown_handler = fn
        return fn

    def inferred_capabilities(self) -> List[str]:
        """The capabilities announced in ``hello``."""
        caps: List[str] = []
        def add(c: str) -> None:
            if c not in caps:
                caps.append(c)
        if self.commands:
            add("commands")
        if self.tools:
            add("tools")
        if self.events or self.tool_call_interceptor or self.turn_start_interceptor \
                or self.assistant_message_interceptor:
            add("events")
        if self.panel_key_handler or self.panel_close_handler or self.panel_message_handler:
            add("panels")
        if self.panel_mouse_handler:
            add("panel_mouse")
        if self.panel_resize_handler:
            add("panel_resize")
        for c in self.capabilities:
            add(c)
        return caps

    def run(self) -> None:
        """Speaks the protocol on stdin/stdout until ``shutdown`` or end of stdin."""
        _run(self)
