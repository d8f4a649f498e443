"""What command and tool handlers return."""

from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Optional

from .wire import drop_none


class Response:
    """A command's answer: what zot should do after ``/name args``."""

    __slots__ = ("fields",)

    def __init__(self, action: str, **fields: Any) -> None:
        self.fields: Dict[str, Any] = {"action": action, **fields}
        """The ``command_response`` fields other than ``type`` and ``id``."""

    def __repr__(self) -> str:
        return f"Response({self.fields!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Response) and other.fields == self.fields

    @staticmethod
    def prompt(text: str) -> "Response":
        """Submit ``text`` as a user message; the agent runs a turn."""
        return Response("prompt", prompt=text)

    @staticmethod
    def insert(text: str) -> "Response":
        """Put ``text`` into the editor at the cursor without submitting."""
        return Response("insert", insert=text)

    @staticmethod
    def display(text: str) -> "Response":
        """Show ``text`` as a one-shot note; no model call."""
        return Response("display", display=text)

    @staticmethod
    def open_panel(
        panel_id: str,
        lines: List[str],
        title: Optional[str] = None,
        footer: Optional[str] = None,
        placement: Optional[str] = None,
    ) -> "Response":
        """Open an extension-owned panel; ``placement`` (``"bottom"``,
        ``"side"``, ``"window"``) is a hint, the user's choice wins."""
        return Response("open_panel", open_panel=drop_none(
            {"id": panel_id, "title": title, "lines": list(lines), "footer": footer,
             "placement": placement}))

    @staticmethod
    def open_html_panel(
        panel_id: str,
        title: str,
        html: str,
        placement: Optional[str] = None,
    ) -> "Response":
        """Open an HTML panel: ``html`` is a complete document, shown in a
        sandboxed frame (no network unless the manifest grants
        ``sandbox.net``; at most 2 MiB). Its page talks to the extension
        with ``window.parent.postMessage(data, "*")``
        (:meth:`Extension.on_panel_message`) and hears
        :meth:`Context.post_message` as ``message`` events."""
        return Response("open_panel", open_panel=drop_none(
            {"id": panel_id, "title": title, "html": html, "lines": [],
             "placement": placement}))

    @staticmethod
    def noop() -> "Response":
        """The extension handled it itself; zot changes nothing."""
        return Response("noop")

    @staticmethod
    def error(message: str) -> "Response":
        """Show ``message`` as a red status line."""
        return Response("noop", error=message)

    def frame(self, request_id: str) -> Dict[str, Any]:
        """The wire frame answering ``request_id``."""
        return {"type": "command_response", "id": request_id, **self.fields}


@dataclass
class ToolResult:
    """A tool's answer: content blocks for the model, maybe an error flag,
    maybe deferred tools to switch on."""

    content: List[Dict[str, Any]] = field(default_factory=list)
    is_error: bool = False
    activate_tools: List[str] = field(default_factory=list)

    @staticmethod
    def text(text: str) -> "ToolResult":
        """One text block."""
        return ToolResult(content=[{"type": "text", "text": text}])

    @staticmethod
    def error(text: str) -> "ToolResult":
        """One text block, marked as a failed call."""
        return ToolResult(content=[{"type": "text", "text": text}], is_error=True)

    def with_image(self, mime_type: str, base64_data: str) -> "ToolResult":
        """Adds a base64 image block."""
        self.content.append({"type": "image", "mime_type": mime_type, "data": base64_data})
        return self

    def activate(self, tools: Iterable[str]) -> "ToolResult":
        """Activates deferred tools by name once this result is delivered."""
        self.activate_tools.extend(tools)
        return self

    def frame(self, request_id: str) -> Dict[str, Any]:
        """The wire frame answering ``request_id``."""
        f: Dict[str, Any] = {"type": "tool_result", "id": request_id, "content": self.content}
        if self.is_error:
            f["is_error"] = True
        if self.activate_tools:
            f["activate_tools"] = self.activate_tools
        return f
