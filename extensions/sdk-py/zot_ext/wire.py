"""The two pipes: frames out on the real stdout, lines in from stdin.

stdout carries frames only. A stray ``print()`` in a handler would corrupt
the stream, so the SDK keeps a private duplicate of the original stdout for
frames and points file descriptor 1 (and ``sys.stdout``) at stderr: anything
else printed lands in the extension's log instead of on the wire.
"""

import json
import os
import sys
import threading
from typing import Any, BinaryIO, Dict, Optional


# Built once: json.dumps with non-default options builds a new encoder per call.
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class Writer:
    """Writes whole frames, one line each, never interleaved across threads."""

    def __init__(self, out: BinaryIO) -> None:
        self._out = out
        self._lock = threading.Lock()

    @classmethod
    def take_stdout(cls) -> "Writer":
        """Takes over stdout for frames and sends everything else to stderr."""
        sys.stdout.flush()
        fd = os.dup(1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        return cls(os.fdopen(fd, "wb", buffering=0))

    def send(self, frame: Dict[str, Any]) -> None:
        """Serialises and writes one frame (no buffering: zot sees it now)."""
        data = (_encode(frame) + "\n").encode()
        with self._lock:
            self._out.write(data)


def log(name: str, msg: str) -> None:
    """A line on stderr, which zot appends to the extension's log file."""
    try:
        sys.stderr.write(f"[{name}] {msg}\n")
        sys.stderr.flush()
    except Exception:  # a closed stderr must never take a handler down
        pass


def drop_none(d: Dict[str, Optional[Any]]) -> Dict[str, Any]:
    """Omits absent optional fields, as the protocol's own types do."""
    return {k: v for k, v in d.items() if v is not None}
