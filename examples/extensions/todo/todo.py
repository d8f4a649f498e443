#!/usr/bin/env python3
"""The todo example: a persistent panel plus the ``todo_manage`` tool, with
the Python SDK.

State lives in ``todos.json`` in the extension's data dir (from
``hello_ack``), written atomically: a temp file, fsync, then rename, so a
crash never leaves half a file. A ``todos.json`` that cannot be read is
moved aside to ``todos.json.corrupt-<time>`` and reported, never silently
overwritten.
"""

import os

# zot_ext is provided by zot (on PYTHONPATH when zot starts this file); a
# copy vendored next to this file or in a .venv here would win.
from store import Store, check_due
from panel import Panel
from zot_ext import Extension, Response, ToolResult

ext = Extension("todo", "1.0.0")
# Esc reaches the panel as a key (it cancels the editor, and outside it the
# panel closes itself) instead of closing the panel at once; Ctrl+C still
# closes it (docs/extensions.md, "Panels").
ext.capabilities.append("panel_esc")
state = {}  # filled in on_hello, once the data dir is known


def store() -> Store:
    return state["store"]


def report_problem(ctx) -> str:
    """Tells the user (once) that todos.json was moved aside; returns the text."""
    msg = store().take_problem()
    if msg:
        ctx.notify(msg, "warn")
    return msg


@ext.on_hello
def hello(_ext, host):
    state["store"] = Store(host.data_dir or os.path.dirname(os.path.abspath(__file__)))
    state["panel"] = Panel(state["store"])


@ext.command("todo", "open the todo panel, or /todo <text> to add one")
def todo(ctx, args):
    report_problem(ctx)
    if args:
        item = store().add(args)
        return Response.display(f"added #{item['id']}: {item['text']}")
    spec = state["panel"].spec()
    return Response.open_panel(spec["id"], spec["lines"], title=spec["title"], footer=spec["footer"])


@ext.on_panel_key
def key(ctx, panel_id, key, text):
    report_problem(ctx)
    panel = state["panel"]
    what = panel.key(key, text)
    if what == "close":
        ctx.close_panel(panel_id)
        return
    if what == "delete":
        # Deleting cannot be undone: ask first (docs/extensions.md, "Dialogs").
        item = panel.current()
        if item is None:
            return
        answer = ctx.confirm(f"Delete “{item['text']}”?", message="It cannot be undone.")
        if not answer.accepted:
            return
        panel.delete(item["id"])
    if what == "add_form":
        # A new item with its due date: one form (docs/extensions.md, "Dialogs").
        answer = ctx.form("New todo", NEW_ITEM, message="The due date is optional.")
        if not answer.accepted:
            return  # nothing was typed into the panel, so nothing is lost
        panel.add(answer.value["text"], check_due(answer.value.get("due")))
    spec = panel.spec()
    ctx.render_panel(panel_id, spec["lines"], title=spec["title"], footer=spec["footer"])


# The form `A` opens. zot checks the answer against it (text not empty,
# due a date) before it reaches us, and the window checks as the user types.
NEW_ITEM = {
    "type": "object",
    "properties": {
        "text": {"type": "string", "title": "Todo", "minLength": 1},
        "due": {"type": "string", "title": "Due", "format": "date",
                "description": "YYYY-MM-DD; leave empty for none"},
    },
    "required": ["text"],
}


def render(ctx, panel_id):
    spec = state["panel"].spec()
    ctx.render_panel(panel_id, spec["lines"], title=spec["title"], footer=spec["footer"])


# Registering these declares `panel_mouse` and `panel_resize`: clicks and
# the wheel come here instead of scrolling the panel, and so does the
# panel's width, which long items are cut to (panel.py).
@ext.on_panel_mouse
def mouse(ctx, ev):
    state["panel"].mouse(ev.action, ev.row, ev.delta)
    render(ctx, ev.panel_id)


@ext.on_panel_resize
def resized(ctx, ev):
    state["panel"].resize(ev.cols)
    render(ctx, ev.panel_id)


@ext.on_panel_close
def closed(ctx, panel_id):
    state["panel"].reset()


SCHEMA = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["list", "add", "complete", "edit", "remove"]},
        "text": {"type": "string", "description": "the todo's text (add, edit)"},
        "id": {"type": "integer", "description": "the todo's id (complete, edit, remove)"},
        "due": {"type": "string", "description": "the due date as YYYY-MM-DD (add; optional)"},
    },
    "required": ["action"],
}


@ext.tool("todo_manage", "Manage the user's todo list: list, add, complete, edit or remove items.", SCHEMA)
def manage(ctx, args):
    note = report_problem(ctx)
    action = args.get("action")
    s = store()
    try:
        if action == "list":
            msg = "todo list"
        elif action == "add":
            item = s.add(_text(args), check_due(args.get("due")))
            msg = f"added #{item['id']}"
        elif action == "complete":
            item = s.complete(_id(args))
            msg = f"completed #{item['id']}"
        elif action == "edit":
            item = s.edit(_id(args), _text(args))
            msg = f"edited #{item['id']}"
        elif action == "remove":
            item = s.remove(_id(args))
            msg = f"removed #{item['id']}"
        else:
            return ToolResult.error(f"unknown action {action!r}; use list, add, complete, edit or remove")
    except (KeyError, ValueError) as e:
        return ToolResult.error(str(e.args[0]) if e.args else str(e))
    body = "\n".join(s.render()) or "(no todos)"
    return ToolResult.text((note + "\n" if note else "") + f"{msg}:\n{body}")


def _text(args) -> str:
    text = str(args.get("text") or "").strip()
    if not text:
        raise ValueError("this action needs a non-empty \"text\"")
    return text


def _id(args) -> int:
    try:
        return int(args["id"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("this action needs an integer \"id\" (see action \"list\")") from None


ext.run()
