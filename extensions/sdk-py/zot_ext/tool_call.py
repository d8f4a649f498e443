"""Long tool calls (docs/protocol.md "Long tool calls"): what a tool
handler gets to report progress and to learn that zot stopped waiting.

A handler that declares a third parameter gets its :class:`ToolCall`::

    @ext.tool("build")
    def build(ctx, args, call):
        for i in range(12):
            if call.cancelled.wait(0.5):   # or: if call.is_cancelled(): ...
                return "stopped"
            call.progress(f"compiling {i + 1} of 12", progress=i + 1, total=12,
                          partial=f"compiled unit {i + 1}\\n")
        return "built"

Handlers with two parameters are called as before. ``call.cancelled`` is
a :class:`threading.Event`; from asyncio code wait on it with
``await asyncio.to_thread(call.cancelled.wait, timeout)`` or poll
``call.is_cancelled()``.
"""

import threading
from typing import Any, Dict, Optional

from .context import Context


class ToolCall:
    """One pending tool call: its id, a progress reporter and a
    cancellation flag set when zot sends ``tool_cancel``."""

    def __init__(self, ctx: Context, call_id: str) -> None:
        self.id = call_id
        self._ctx = ctx
        #: Set when zot stops waiting (Stop, a timeout, the turn ended).
        self.cancelled = threading.Event()
        #: Why, once cancelled: ``aborted``, ``idle_timeout``, ``timeout`` or
        #: ``shutdown``.
        self.reason: Optional[str] = None

    def is_cancelled(self) -> bool:
        """Whether zot has stopped waiting for this call."""
        return self.cancelled.is_set()

    def progress(self, message: Optional[str] = None, progress: Optional[float] = None,
                 total: Optional[float] = None, partial: Optional[str] = None) -> None:
        """Sends ``tool_progress``: restarts the call's idle timeout and
        shows in its card. ``partial`` is output text new since the last
        call; zot appends it. Nothing is sent once cancelled."""
        if self.cancelled.is_set():
            return
        frame: Dict[str, Any] = {"type": "tool_progress", "id": self.id}
        if message is not None:
            frame["message"] = message
        if progress is not None:
            frame["progress"] = progress
        if total is not None:
            frame["total"] = total
        if partial is not None:
            frame["partial"] = partial
        self._ctx.send(frame)

    def output(self, text: str) -> None:
        """Partial output only: ``progress(partial=text)``."""
        self.progress(partial=text)

    def _cancel(self, reason: str) -> None:
        self.reason = reason
        self.cancelled.set()


def wants_call(fn: Any) -> bool:
    """Whether a tool handler takes a third (``call``) parameter."""
    import inspect
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)
