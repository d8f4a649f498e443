"""Drives an extension process over its real pipes: frames written to its
stdin, every stdout line parsed as a frame (a line that is not JSON fails
the test: stdout must carry frames only)."""

import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
SDK = os.path.dirname(HERE)


class Ext:
    """A running extension process."""

    def __init__(self, argv: List[str], env: Optional[Dict[str, str]] = None) -> None:
        self.log = tempfile.NamedTemporaryFile(prefix="zot-ext-py-", suffix=".log", delete=False)
        full_env = dict(os.environ, PYTHONPATH=SDK, **(env or {}))
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.log, env=full_env)
        self.frames: "queue.Queue[Any]" = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def fixture(cls, name: str = "kitchen_sink.py") -> "Ext":
        return cls([sys.executable, os.path.join(HERE, "fixtures", name)])

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.frames.put(json.loads(line))
            except ValueError:
                self.frames.put(AssertionError(f"non-frame line on stdout: {line!r}"))
        self.frames.put(EOFError())

    def send_raw(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def send(self, frame: Dict[str, Any]) -> None:
        self.send_raw(json.dumps(frame).encode())

    def recv(self) -> Dict[str, Any]:
        f = self.frames.get(timeout=20)
        if isinstance(f, BaseException):
            raise f
        return f

    def handshake(self, cwd: str = "/proj", config: Any = None,
                  state: Any = None) -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
        hello = self.recv()
        assert hello["type"] == "hello", hello
        ack = {"type": "hello_ack", "protocol_version": 1, "zot_version": "0.1.0", "provider": "test",
               "model": "m", "cwd": cwd, "extension_dir": "/tmp", "data_dir": "/tmp"}
        if config is not None:
            ack["config"] = config
        if state is not None:
            ack["state"] = state
        self.send(ack)
        regs = []
        while True:
            f = self.recv()
            if f["type"] == "ready":
                return hello, regs
            regs.append(f)

    def log_text(self) -> str:
        with open(self.log.name, encoding="utf-8", errors="replace") as fh:
            return fh.read()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for s in (self.proc.stdin, self.proc.stdout):
            if s:
                s.close()
        self.log.close()
        os.unlink(self.log.name)
