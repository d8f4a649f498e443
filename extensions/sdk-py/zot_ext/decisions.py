"""What interceptors return. Every decision defaults to "allow, unchanged",
the same default zot applies when an extension does not answer in 5 s."""

from dataclasses import dataclass
from typing import Any, Dict, Optional

from .wire import drop_none


@dataclass(frozen=True)
class ToolCallDecision:
    """The verdict on a tool call: allow, block with a reason, or rewrite args."""

    block: bool = False
    reason: Optional[str] = None
    modified_args: Optional[Dict[str, Any]] = None

    @staticmethod
    def allow() -> "ToolCallDecision":
        """Let it run unchanged."""
        return ToolCallDecision()

    @staticmethod
    def refuse(reason: str) -> "ToolCallDecision":
        """Refuse it; the model sees ``reason`` as the tool's error."""
        return ToolCallDecision(block=True, reason=reason)

    @staticmethod
    def rewrite(args: Dict[str, Any]) -> "ToolCallDecision":
        """Let it run with different args (a JSON object)."""
        return ToolCallDecision(modified_args=args)

    def frame(self, request_id: str) -> Dict[str, Any]:
        """The ``event_intercept_response`` answering ``request_id``."""
        return _frame(request_id, self.block, reason=self.reason, modified_args=self.modified_args)


@dataclass(frozen=True)
class TurnStartDecision:
    """The verdict on a turn about to start: allow or block."""

    block: bool = False
    reason: Optional[str] = None

    @staticmethod
    def allow() -> "TurnStartDecision":
        """Let the turn run."""
        return TurnStartDecision()

    @staticmethod
    def refuse(reason: str) -> "TurnStartDecision":
        """Stop the turn; ``reason`` is shown to the user."""
        return TurnStartDecision(block=True, reason=reason)

    def frame(self, request_id: str) -> Dict[str, Any]:
        """The ``event_intercept_response`` answering ``request_id``."""
        return _frame(request_id, self.block, reason=self.reason)


@dataclass(frozen=True)
class AssistantMessageDecision:
    """The verdict on the assistant's final text: allow, block, or replace."""

    block: bool = False
    reason: Optional[str] = None
    replace_text: Optional[str] = None

    @staticmethod
    def allow() -> "AssistantMessageDecision":
        """Show it unchanged."""
        return AssistantMessageDecision()

    @staticmethod
    def refuse(reason: str) -> "AssistantMessageDecision":
        """Hide it; ``reason`` is shown to the user."""
        return AssistantMessageDecision(block=True, reason=reason)

    @staticmethod
    def replace(text: str) -> "AssistantMessageDecision":
        """Show ``text`` instead (the transcript keeps the original)."""
        return AssistantMessageDecision(replace_text=text)

    def frame(self, request_id: str) -> Dict[str, Any]:
        """The ``event_intercept_response`` answering ``request_id``."""
        return _frame(request_id, self.block, reason=self.reason, replace_text=self.replace_text)


def _frame(request_id: str, block: bool, **fields: Any) -> Dict[str, Any]:
    f: Dict[str, Any] = {"type": "event_intercept_response", "id": request_id}
    if block:
        f["block"] = True
    f.update(drop_none(fields))
    return f
