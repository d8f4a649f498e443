"""What a handler can do besides return: push notes, prompts and panel
frames, and read what zot said about itself in ``hello_ack``."""

import itertools
import threading
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from .state import SessionState
from .wire import Writer, drop_none, log

LEVELS = ("info", "success", "warn", "error")


@dataclass(frozen=True)
class HostInfo:
    """The host metadata from ``hello_ack``."""

    protocol_version: int = 1
    zot_version: str = ""
    provider: str = ""
    model: str = ""
    cwd: str = ""
    """The user's project directory (the extension itself runs elsewhere)."""
    extension_dir: str = ""
    data_dir: str = ""
    """Where to keep state such as ``todos.json``."""
    config: Dict[str, Any] = field(default_factory=dict)
    """The settings at start (the manifest's ``config``, defaults filled in,
    secrets included); ``Context.config`` has the current ones."""
    state: Dict[str, Any] = field(default_factory=dict)
    """The session state at start (``hello_ack.state``); ``Context.state``
    has the current values."""

    @classmethod
    def from_frame(cls, f: Dict[str, Any]) -> "HostInfo":
        """Reads a ``hello_ack`` frame, tolerating missing fields."""
        return cls(
            protocol_version=int(f.get("protocol_version") or 1),
            zot_version=str(f.get("zot_version") or ""),
            provider=str(f.get("provider") or ""),
            model=str(f.get("model") or ""),
            cwd=str(f.get("cwd") or ""),
            extension_dir=str(f.get("extension_dir") or ""),
            data_dir=str(f.get("data_dir") or ""),
            config=dict(f.get("config") or {}) if isinstance(f.get("config"), dict) else {},
            state=dict(f.get("state") or {}) if isinstance(f.get("state"), dict) else {},
        )


@dataclass(frozen=True)
class DialogResult:
    """The one answer to a dialog: ``action`` is ``"accept"`` (``value``
    holds the answer), ``"decline"`` or ``"cancel"`` (``reason`` says why:
    ``"timeout"``, ``"too many"``, ``"no user"``, a refused field, …)."""

    action: str
    value: Any = None
    reason: Optional[str] = None

    @property
    def accepted(self) -> bool:
        """The user answered (for a confirm: said yes)."""
        return self.action == "accept"


class Context:
    """A handle every handler receives; safe to keep and use from any thread.

    One-way frames are fire-and-forget, as the spec makes them: if zot has
    gone away the failure is logged and the extension ends on its next read.
    """

    def __init__(self, name: str, host: HostInfo, out: Writer) -> None:
        self.name = name
        """The extension's name as sent in ``hello``."""
        self.host = host
        """zot's metadata from ``hello_ack``."""
        self._out = out
        self._config: Dict[str, Any] = dict(host.config)
        self.state = SessionState(host.state, self.send)
        """The extension's state in the current session (``state.get`` /
        ``state.set``): it follows the conversation through resume, clear,
        fork and rewind."""
        self._dialog_ids = itertools.count(1)
        self._dialogs: Dict[str, Tuple[threading.Event, List[DialogResult]]] = {}
        self._dialogs_lock = threading.Lock()

    @property
    def config(self) -> Dict[str, Any]:
        """The current settings (defaults filled in, secrets included):
        ``hello_ack.config``, replaced by each ``config_changed``. Never log
        or display a sensitive value."""
        return dict(self._config)

    def _set_config(self, values: Dict[str, Any]) -> None:
        self._config = dict(values)

    def send(self, frame: Dict[str, Any]) -> None:
        """Sends any frame; the escape hatch for protocol additions."""
        try:
            self._out.send(frame)
        except OSError as e:
            log(self.name, f"could not write a frame to zot: {e}")

    def notify(self, message: str, level: str = "info") -> None:
        """Pushes a note (``info``, ``success``, ``warn`` or ``error``)."""
        if level not in LEVELS:
            raise ValueError(f"notify level must be one of {LEVELS}, not {level!r}")
        self.send({"type": "notify", "level": level, "message": message})

    def clear_notes(self) -> None:
        """Removes every note this extension pushed."""
        self.send({"type": "clear_notes"})

    def submit(self, text: str) -> None:
        """Submits text as a user prompt (queued if a turn is running)."""
        self.send({"type": "submit", "text": text})

    def render_panel(
        self,
        panel_id: str,
        lines: List[str],
        title: Optional[str] = None,
        footer: Optional[str] = None,
        placement: Optional[str] = None,
    ) -> None:
        """Redraws an open panel. ``placement`` (``"bottom"``, ``"side"``,
        ``"window"``) is a hint; the user's choice wins."""
        self.send(drop_none({"type": "panel_render", "panel_id": panel_id, "title": title,
                             "lines": list(lines), "footer": footer, "placement": placement}))

    def post_message(self, panel_id: str, data: Any) -> None:
        """Sends ``data`` (any JSON value, at most 256 KiB serialised) to
        the page of HTML panel ``panel_id``, where it arrives as a
        ``message`` event."""
        self.send({"type": "panel_message", "panel_id": panel_id, "data": data})

    def close_panel(self, panel_id: str) -> None:
        """Closes a panel this extension opened."""
        self.send({"type": "panel_close", "panel_id": panel_id})

    def confirm(self, title: str, message: Optional[str] = None,
                timeout_ms: Optional[int] = None) -> DialogResult:
        """Asks yes or no; blocks this handler until the user answers.
        ``result.accepted`` is the yes. Needs the ``dialogs`` permission."""
        return self._ask({"kind": "confirm", "title": title, "message": message,
                          "timeout_ms": timeout_ms})

    def select(self, title: str, options: List[str], default: Optional[str] = None,
               message: Optional[str] = None, timeout_ms: Optional[int] = None) -> DialogResult:
        """Asks for one of ``options``; ``result.value`` is the choice."""
        return self._ask({"kind": "select", "title": title, "options": list(options),
                          "default": default, "message": message, "timeout_ms": timeout_ms})

    def input(self, title: str, default: Optional[str] = None, placeholder: Optional[str] = None,
              message: Optional[str] = None, timeout_ms: Optional[int] = None) -> DialogResult:
        """Asks for a line of text; ``result.value`` is the text."""
        return self._ask({"kind": "input", "title": title, "default": default,
                          "placeholder": placeholder, "message": message,
                          "timeout_ms": timeout_ms})

    def form(self, title: str, schema: Dict[str, Any], default: Optional[Dict[str, Any]] = None,
             message: Optional[str] = None, timeout_ms: Optional[int] = None) -> DialogResult:
        """Asks for a form (a flat object schema in the MCP elicitation
        subset); ``result.value`` is an object zot checked against it."""
        return self._ask({"kind": "form", "title": title, "schema": schema, "default": default,
                          "message": message, "timeout_ms": timeout_ms})

    def _ask(self, fields: Dict[str, Any]) -> DialogResult:
        rid = f"dlg-{next(self._dialog_ids)}"
        done = threading.Event()
        slot: List[DialogResult] = []
        with self._dialogs_lock:
            self._dialogs[rid] = (done, slot)
        self.send(drop_none(dict({"type": "ui_request", "id": rid}, **fields)))
        # zot answers every request exactly once (a timeout included); the
        # wait ends at the latest when zot closes stdin (``_close_dialogs``).
        done.wait()
        return slot[0] if slot else DialogResult("cancel", reason="zot went away")

    def _dialog_answer(self, f: Dict[str, Any]) -> None:
        rid = str(f.get("id", ""))
        with self._dialogs_lock:
            waiting = self._dialogs.pop(rid, None)
        if waiting is None:
            self.log(f"ignoring a ui_response for {rid!r}: no dialog waits for it")
            return
        done, slot = waiting
        slot.append(DialogResult(str(f.get("action") or "cancel"), f.get("value"), f.get("reason")))
        done.set()

    def _close_dialogs(self) -> None:
        with self._dialogs_lock:
            waiting, self._dialogs = self._dialogs, {}
        for done, _ in waiting.values():
            done.set()

    def log(self, msg: str) -> None:
        """A line in the extension's log (stderr)."""
        log(self.name, msg)
