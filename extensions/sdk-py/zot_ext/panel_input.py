"""Typed pointer and size events for panels (``panel_mouse`` and
``panel_resize``). An extension gets them only when it declares the
capability, which registering :meth:`Extension.on_panel_mouse` or
:meth:`Extension.on_panel_resize` does."""

from dataclasses import dataclass
from typing import Any, Dict, Optional


@dataclass(frozen=True)
class PanelMouse:
    """A click, double click, context click or wheel over a panel."""

    panel_id: str
    action: str
    """``"click"``, ``"double_click"`` (after the click it follows),
    ``"context"`` (right click) or ``"wheel"``."""
    row: Optional[int] = None
    """The index into the panel's last ``lines``; ``None`` for a wheel."""
    col: Optional[int] = None
    """The character under the pointer (SGR escapes not counted), or the
    line's length past its end; ``None`` for a wheel."""
    delta: Optional[int] = None
    """Wheel only: lines, positive = down."""

    @staticmethod
    def from_frame(f: Dict[str, Any]) -> "PanelMouse":
        def num(k: str) -> Optional[int]:
            v = f.get(k)
            return v if isinstance(v, int) and not isinstance(v, bool) else None
        return PanelMouse(str(f.get("panel_id", "")), str(f.get("action", "")),
                          num("row"), num("col"), num("delta"))


@dataclass(frozen=True)
class PanelResize:
    """A panel's text area in monospace cells: once after it opens, then
    on every change."""

    panel_id: str
    cols: int
    rows: int

    @staticmethod
    def from_frame(f: Dict[str, Any]) -> "PanelResize":
        def num(k: str) -> int:
            v = f.get(k)
            return v if isinstance(v, int) and not isinstance(v, bool) else 0
        return PanelResize(str(f.get("panel_id", "")), num("cols"), num("rows"))
