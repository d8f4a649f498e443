"""The zot extension SDK for Python (stdlib only, Python 3.9+).

An extension is a program that speaks newline-delimited JSON with zot over
stdio. This package does the talking: it sends ``hello``, waits for
``hello_ack``, runs your ``on_hello`` hook, announces every registration,
sends ``ready``, then runs your handlers until zot sends ``shutdown``::

    from zot_ext import Extension, Response

    ext = Extension("hello", "1.0.0")

    @ext.command("hello", "say hi")
    def hello(ctx, args):
        return Response.prompt("Greet me in one short sentence.")

    ext.run()
"""

from .context import Context, DialogResult, HostInfo
from .decisions import AssistantMessageDecision, ToolCallDecision, TurnStartDecision
from .extension import Extension
from .panel_input import PanelMouse, PanelResize
from .responses import Response, ToolResult
from .state import SessionState, StateError
from .tool_call import ToolCall

#: This copy's version. zot compares it with the copy it bundles when an
#: extension ships its own (vendored or in its virtualenv) and warns when
#: they differ.
__version__ = "0.1.0"

#: The wire protocol this copy speaks (``hello_ack.protocol_version``).
PROTOCOL_VERSION = 1

__all__ = [
    "SessionState",
    "StateError",
    "ToolCall",
    "PROTOCOL_VERSION",
    "AssistantMessageDecision",
    "Context",
    "DialogResult",
    "Extension",
    "HostInfo",
    "PanelMouse",
    "PanelResize",
    "Response",
    "ToolCallDecision",
    "ToolResult",
    "TurnStartDecision",
]
