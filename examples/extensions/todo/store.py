"""todos.json: loading (moving a corrupt file aside), and atomic saves.

An item is ``{"id": int, "text": str, "done": bool}`` plus, when it has
one, ``"due": "YYYY-MM-DD"``. Files written before items had a due date
simply lack the key, and load as items without one.
"""

import datetime
import json
import os
import sys
import tempfile
import threading
import time
from typing import Any, Dict, List, Optional

FILE = "todos.json"


class Store:
    """The todo list, persisted after every change."""

    def __init__(self, data_dir: str) -> None:
        self.path = os.path.join(data_dir, FILE)
        self.lock = threading.RLock()
        self.todos: List[Dict[str, Any]] = []
        self.problem: Optional[str] = None
        self._load()

    def _load(self) -> None:
        try:
            with open(self.path, "rb") as f:
                raw = f.read()
        except FileNotFoundError:
            return
        try:
            doc = json.loads(raw)
            todos = doc["todos"] if isinstance(doc, dict) else doc
            if not isinstance(todos, list) or not all(
                    isinstance(t, dict) and isinstance(t.get("id"), int) and isinstance(t.get("text"), str)
                    and isinstance(t.get("due"), (str, type(None)))
                    for t in todos):
                raise ValueError("expected {\"todos\": [{\"id\": int, \"text\": str, \"done\": bool, "
                                 "\"due\"?: \"YYYY-MM-DD\"}, …]}")
            self.todos = [_item(t["id"], t["text"], bool(t.get("done")), t.get("due")) for t in todos]
        except (ValueError, KeyError, TypeError) as e:
            # Never lose the user's data: keep the unreadable file under a new name.
            aside = f"{self.path}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
            os.replace(self.path, aside)
            self.problem = (f"todo: {FILE} could not be read ({e}); it was moved to "
                            f"{os.path.basename(aside)} and the list starts empty")
            sys.stderr.write(f"[todo] {self.problem} (full path: {aside})\n")

    def take_problem(self) -> str:
        """The load problem, once; empty afterwards."""
        with self.lock:
            p, self.problem = self.problem, None
            return p or ""

    def save(self) -> None:
        """Writes a temp file, fsyncs it, and renames it over todos.json."""
        with self.lock:
            data = json.dumps({"version": 1, "todos": self.todos}, indent=2, ensure_ascii=False) + "\n"
            d = os.path.dirname(self.path)
            fd, tmp = tempfile.mkstemp(prefix=".todos-", suffix=".tmp", dir=d)
            try:
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, self.path)
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise

    def _find(self, todo_id: int) -> Dict[str, Any]:
        for t in self.todos:
            if t["id"] == todo_id:
                return t
        raise KeyError(f"no todo #{todo_id}")

    def add(self, text: str, due: Optional[str] = None) -> Dict[str, Any]:
        """Appends an item; ``due`` must already be checked (:func:`check_due`)."""
        with self.lock:
            item = _item(max((t["id"] for t in self.todos), default=0) + 1, text.strip(), False, due)
            self.todos.append(item)
            self.save()
            return item

    def complete(self, todo_id: int, done: bool = True) -> Dict[str, Any]:
        with self.lock:
            item = self._find(todo_id)
            item["done"] = done
            self.save()
            return item

    def toggle(self, index: int) -> None:
        with self.lock:
            if 0 <= index < len(self.todos):
                self.todos[index]["done"] = not self.todos[index]["done"]
                self.save()

    def edit(self, todo_id: int, text: str) -> Dict[str, Any]:
        with self.lock:
            item = self._find(todo_id)
            item["text"] = text.strip()
            self.save()
            return item

    def remove(self, todo_id: int) -> Dict[str, Any]:
        with self.lock:
            item = self._find(todo_id)
            self.todos.remove(item)
            self.save()
            return item

    def render(self) -> List[str]:
        """One line per todo, for tool results."""
        with self.lock:
            return [f"#{t['id']} [{'x' if t['done'] else ' '}] {t['text']}{due_suffix(t)}" for t in self.todos]


def _item(todo_id: int, text: str, done: bool, due: Optional[str]) -> Dict[str, Any]:
    """One item; ``due`` is left out when there is none, so lists without
    due dates are saved exactly as before."""
    item: Dict[str, Any] = {"id": todo_id, "text": text, "done": done}
    if due:
        item["due"] = due
    return item


def check_due(due: Any) -> Optional[str]:
    """A due date as stored (``YYYY-MM-DD``), None for none (missing or
    empty); raises ValueError saying what is wrong otherwise."""
    if due is None or due == "":
        return None
    try:
        return datetime.date.fromisoformat(str(due).strip()).isoformat()
    except ValueError:
        raise ValueError(f"\"due\" must be a date as YYYY-MM-DD, not {due!r}") from None


def due_suffix(item: Dict[str, Any]) -> str:
    """What a line shows after the text: `` (due 2027-04-15)`` or nothing."""
    return f" (due {item['due']})" if item.get("due") else ""
