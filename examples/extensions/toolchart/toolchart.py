#!/usr/bin/env python3
"""The toolchart example: an HTML panel with the Python SDK.

It observes ``tool_call`` events and keeps, per tool, how many calls the
agent made and the arguments of the last few. ``/toolchart`` opens
``chart.html`` (beside this file) as an HTML panel: a bar chart drawn by
the page's own script, with no library and no network (the panel's
sandbox allows none: this manifest does not grant ``sandbox.net``).

The page and this extension talk in small JSON messages:
- page → extension ``{"ready": true}`` when its script runs, answered
  with the counts; ``{"select": name}`` when a bar is clicked, answered
  with that tool's recent calls;
- extension → page ``{"counts": {...}}`` after every tool call while the
  panel is open, so the chart grows live.
It eagerly starts (no ``"activation": "on_use"``): an extension that
starts on first use would miss the calls made before.
"""

import json
import os

# zot_ext is provided by zot (on PYTHONPATH when zot starts this file).
from zot_ext import Extension, Response

PANEL = "toolchart"
RECENT = 5
HERE = os.path.dirname(os.path.abspath(__file__))

ext = Extension("toolchart", "1.0.0")
calls = {}  # tool name -> {"count": n, "recent": [args summaries]}
state = {"open": False}


def summary(args) -> str:
    """A call's arguments in one short line for the page."""
    text = json.dumps(args, sort_keys=True) if args is not None else "{}"
    return text if len(text) <= 120 else text[:119] + "…"


def counts():
    return {name: c["count"] for name, c in sorted(calls.items())}


@ext.on_event("tool_call")
def on_tool_call(ctx, ev):
    name = ev.get("tool_name") or "?"
    c = calls.setdefault(name, {"count": 0, "recent": []})
    c["count"] += 1
    c["recent"] = ([summary(ev.get("tool_args"))] + c["recent"])[:RECENT]
    if state["open"]:
        ctx.post_message(PANEL, {"counts": counts()})


@ext.command("toolchart", "chart the tools the agent called this session")
def toolchart(ctx, args):
    with open(os.path.join(HERE, "chart.html"), encoding="utf-8") as f:
        html = f.read()
    state["open"] = True
    return Response.open_html_panel(PANEL, "Tool calls", html)


@ext.on_panel_message
def on_page(ctx, panel_id, data):
    if not isinstance(data, dict):
        return
    if data.get("ready"):
        ctx.post_message(panel_id, {"counts": counts()})
    elif isinstance(data.get("select"), str):
        name = data["select"]
        c = calls.get(name, {"count": 0, "recent": []})
        ctx.post_message(panel_id, {"selected": name, "count": c["count"], "recent": c["recent"]})


@ext.on_panel_close
def on_close(ctx, panel_id):
    state["open"] = False


if __name__ == "__main__":
    ext.run()
