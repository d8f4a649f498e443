"""What an extension registers, as the runtime reads it: the handler types,
the command and tool entries, and the :class:`Registrations` shape. A leaf
below both ``extension`` (which fills it) and ``runtime`` (which runs it), so
neither imports the other back."""

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Protocol, Tuple, Union

from .context import Context, HostInfo
from .decisions import AssistantMessageDecision, ToolCallDecision, TurnStartDecision
from .panel_input import PanelMouse, PanelResize
from .responses import Response, ToolResult

CommandHandler = Callable[[Context, str], Union[Response, str, None]]
"""``(ctx, args) -> Response``; a ``str`` means display it, ``None`` noop."""
ToolHandler = Callable[[Context, Dict[str, Any]], Union[ToolResult, str]]
"""``(ctx, args) -> ToolResult``; a ``str`` means one text block."""


@dataclass
class CommandEntry:
    name: str
    description: str
    handler: CommandHandler


@dataclass
class ToolEntry:
    name: str
    description: str
    schema: Dict[str, Any]
    deferred: bool
    handler: ToolHandler


class Registrations(Protocol):
    """Everything an :class:`~zot_ext.Extension` registered; what the
    runtime reads."""

    name: str
    version: str
    commands: List[CommandEntry]
    tools: List[ToolEntry]
    events: List[Tuple[str, Callable[[Context, Dict[str, Any]], None]]]
    tool_call_interceptor: Optional[Callable[[Context, str, Dict[str, Any]], ToolCallDecision]]
    turn_start_interceptor: Optional[Callable[[Context, int], TurnStartDecision]]
    assistant_message_interceptor: Optional[Callable[[Context, str], AssistantMessageDecision]]
    panel_key_handler: Optional[Callable[[Context, str, str, Optional[str]], None]]
    panel_close_handler: Optional[Callable[[Context, str], None]]
    panel_mouse_handler: Optional[Callable[[Context, PanelMouse], None]]
    panel_resize_handler: Optional[Callable[[Context, PanelResize], None]]
    panel_message_handler: Optional[Callable[[Context, str, Any], None]]
    shutdown_handler: Optional[Callable[[Context], None]]
    config_change_handler: Optional[Callable[[Context, Dict[str, Any]], None]]
    hello_hook: Optional[Callable[[Any, HostInfo], None]]

    def inferred_capabilities(self) -> List[str]:
        """The capabilities announced in ``hello``."""
        ...
