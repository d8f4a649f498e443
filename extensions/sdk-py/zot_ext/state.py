"""Session-scoped state (docs/protocol.md "Session state"): values that
belong to the conversation, not the project. zot keeps them in the session
file, so they come back on resume and follow the conversation through
clear, fork and rewind. This is the extension's copy: filled from
``hello_ack.state``, replaced by each ``state_restored``, written through
with ``state_set``."""

import copy
import json
import threading
from typing import Any, Callable, Dict, Optional, Type, TypeVar

#: Largest JSON value one ``set`` may store (bytes, serialized).
STATE_VALUE_MAX = 64 * 1024
#: Largest total per extension per session (bytes: keys plus values).
STATE_EXT_MAX = 1024 * 1024
#: Longest key (bytes).
STATE_KEY_MAX = 256

T = TypeVar("T")


def _size(v: Any) -> int:
    return len(json.dumps(v, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


class StateError(ValueError):
    """A value zot would refuse (over a limit, or not JSON); nothing was sent."""


class SessionState:
    """The extension's state in the current session; thread-safe."""

    def __init__(self, initial: Optional[Dict[str, Any]], send: Callable[[Dict[str, Any]], None]) -> None:
        self._values: Dict[str, Any] = dict(initial or {})
        self._send = send
        self._lock = threading.Lock()

    def get(self, key: str, default: Any = None, type: Optional[Type[T]] = None) -> Any:
        """The value under ``key`` (a copy), or ``default``. With ``type``,
        a value of another type also gives ``default``."""
        with self._lock:
            if key not in self._values:
                return default
            v = copy.deepcopy(self._values[key])
        if type is not None and not isinstance(v, type):
            return default
        return v

    def all(self) -> Dict[str, Any]:
        """Every key and value (a copy)."""
        with self._lock:
            return copy.deepcopy(self._values)

    def set(self, key: str, value: Any) -> None:
        """Stores ``value`` (any JSON value) under ``key`` in this session;
        ``None`` removes the key. Raises :class:`StateError` over zot's
        limits (64 KiB a value, 1 MiB in all, keys of 1 to 256 bytes)."""
        try:
            size = _size(value)
        except (TypeError, ValueError) as e:
            raise StateError(f"state {key!r}: the value is not JSON ({e})") from None
        with self._lock:
            problem = self._problem(key, size, value is None)
            if problem:
                raise StateError(f"state {key!r} refused: {problem}")
            if value is None:
                self._values.pop(key, None)
            else:
                self._values[key] = copy.deepcopy(value)
        self._send({"type": "state_set", "key": key, "value": value})

    def remove(self, key: str) -> None:
        """Removes ``key``."""
        self.set(key, None)

    def _replace(self, values: Optional[Dict[str, Any]]) -> None:
        with self._lock:
            self._values = dict(values or {})

    def _problem(self, key: str, size: int, removing: bool) -> Optional[str]:
        kb = len(key.encode("utf-8"))
        if kb == 0:
            return "the key is empty"
        if kb > STATE_KEY_MAX:
            return f"the key is over {STATE_KEY_MAX} bytes"
        if size > STATE_VALUE_MAX:
            return f"the value is {size} bytes of JSON, over the limit of {STATE_VALUE_MAX} per value"
        total = 0 if removing else kb + size
        for k, v in self._values.items():
            if k != key:
                total += len(k.encode("utf-8")) + _size(v)
        if total > STATE_EXT_MAX:
            return f"the extension's session state would be {total} bytes, over the limit of {STATE_EXT_MAX}"
        return None
