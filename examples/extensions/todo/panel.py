"""The todo panel: a cursor, a list, and a one-line editor for add/edit.

Keys: up/down move, x toggles, a adds, A adds through a form that also
takes a due date, e edits, d deletes (after a yes in a dialog); while
editing,
typed text goes into the line, backspace deletes, enter saves and esc
cancels. esc outside the editor closes the panel. The extension declares
the ``panel_esc`` capability, so zot sends it esc instead of closing the
panel itself.

The mouse (``panel_mouse``): a click on an item toggles it and puts the
cursor there; a double click opens it in the editor (zot sends the click
first, so the double click undoes that click's toggle); the wheel moves
the cursor, and the window keeps the cursor in view. The size
(``panel_resize``): an item longer than the panel is wide is cut to fit,
ending in an ellipsis, so a line never runs off the panel's edge.
"""

import unicodedata
from typing import Any, Dict, List, Optional

from store import Store, due_suffix

PANEL_ID = "todos-main"
FOOTER = "↑/↓ move · x toggle · a add · A add with due date · e edit · d delete · esc close"
EDIT_FOOTER = "type · enter save · esc cancel"


class Panel:
    """Cursor and editor state over a :class:`Store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.cursor = 0
        self.editing: Optional[str] = None  # "add" or "edit"
        self.buffer = ""
        self.cols: Optional[int] = None  # the panel's width in cells, once told
        self.clicked: Optional[int] = None  # the item the last click toggled

    def reset(self) -> None:
        """Forgets the editor (the panel was closed)."""
        self.editing = None
        self.buffer = ""

    def key(self, key: str, text: Optional[str]) -> Optional[str]:
        """Applies one key; returns "close" when the panel should close."""
        with self.store.lock:
            n = len(self.store.todos)
            if self.editing is not None:
                return self._edit_key(key, text)
            if key == "up":
                self.cursor = max(0, self.cursor - 1)
            elif key == "down":
                self.cursor = min(max(n - 1, 0), self.cursor + 1)
            elif key == "home":
                self.cursor = 0
            elif key == "end":
                self.cursor = max(n - 1, 0)
            elif key == "esc":
                return "close"
            elif key == "rune" and text == "x":
                self.store.toggle(self.cursor)
            elif key == "rune" and text == "a":
                self.editing, self.buffer = "add", ""
            elif key == "rune" and text == "A":
                # The caller asks with a form (text and due date), outside the lock.
                return "add_form"
            elif key == "rune" and text == "e" and n:
                self.editing, self.buffer = "edit", self.store.todos[self.cursor]["text"]
            elif key == "rune" and text == "d" and n:
                # The caller asks the user first (a dialog), outside the lock.
                return "delete"
            return None

    def mouse(self, action: str, row: Optional[int], delta: Optional[int]) -> None:
        """Applies one ``panel_mouse``; rows are item indices (items come first)."""
        with self.store.lock:
            n = len(self.store.todos)
            if action == "wheel" and delta and n and self.editing is None:
                self.cursor = min(max(self.cursor + delta, 0), n - 1)
                return
            if self.editing is not None or row is None or not 0 <= row < n:
                self.clicked = None
                return
            if action == "click":
                self.cursor = row
                self.store.toggle(row)
                self.clicked = row
            elif action == "double_click":
                if self.clicked == row:
                    self.store.toggle(row)  # the click that began it toggled it
                self.clicked = None
                self.cursor = row
                self.editing, self.buffer = "edit", self.store.todos[row]["text"]

    def resize(self, cols: int) -> None:
        """The panel is ``cols`` cells wide now."""
        self.cols = cols if cols > 0 else None

    def current(self) -> Optional[Dict[str, Any]]:
        """The item under the cursor, if any."""
        with self.store.lock:
            todos = self.store.todos
            return dict(todos[self.cursor]) if 0 <= self.cursor < len(todos) else None

    def delete(self, item_id: int) -> None:
        """Deletes item ``item_id`` (the user said yes) and keeps the cursor on a row."""
        with self.store.lock:
            if any(t["id"] == item_id for t in self.store.todos):
                self.store.remove(item_id)
            self.cursor = min(self.cursor, max(len(self.store.todos) - 1, 0))

    def add(self, text: str, due: Optional[str]) -> None:
        """Adds an item the form gave, and puts the cursor on it."""
        with self.store.lock:
            self.store.add(text, due)
            self.cursor = len(self.store.todos) - 1

    def _edit_key(self, key: str, text: Optional[str]) -> Optional[str]:
        if key == "rune" and text:
            self.buffer += text
        elif key == "backspace":
            self.buffer = self.buffer[:-1]
        elif key == "esc":
            self.reset()
        elif key == "enter":
            line = self.buffer.strip()
            if line and self.editing == "add":
                self.store.add(line)
                self.cursor = len(self.store.todos) - 1
            elif line and self.editing == "edit" and self.store.todos:
                self.store.edit(self.store.todos[self.cursor]["id"], line)
            self.reset()
        return None

    def spec(self) -> Dict[str, Any]:
        """The panel's title, lines and footer as they should look now."""
        with self.store.lock:
            todos = self.store.todos
            done = sum(1 for t in todos if t["done"])
            lines: List[str] = []
            for i, t in enumerate(todos):
                mark = "✓" if t["done"] else "□"
                pointer = "▸" if i == self.cursor and self.editing != "add" else " "
                lines.append(fit(f"{pointer} {mark} {t['text']}{due_suffix(t)}", self.cols))
            if not todos:
                lines.append("  (no todos: press a to add one)")
            if self.editing:
                lines.append("")
                lines.append(f"{'new' if self.editing == 'add' else 'edit'}: {self.buffer}▏")
            return {"id": PANEL_ID, "title": f"Todos ({done}/{len(todos)} done)", "lines": lines,
                    "footer": EDIT_FOOTER if self.editing else FOOTER}


def cells(ch: str) -> int:
    """Cells a character takes: East Asian wide and fullwidth ones take two."""
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def fit(line: str, cols: Optional[int]) -> str:
    """``line`` cut to ``cols`` cells, ending in an ellipsis when cut."""
    if cols is None or sum(cells(c) for c in line) <= cols:
        return line
    out, used = [], 0
    for c in line:
        if used + cells(c) > cols - 1:
            break
        out.append(c)
        used += cells(c)
    return "".join(out) + "…"
