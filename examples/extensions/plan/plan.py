#!/usr/bin/env python3
"""The plan example: a step-by-step plan that belongs to the conversation,
with the Python SDK's session state.

Where the todo example keeps one list per project in a file, this plan
lives in the session (``ctx.state``): resume the conversation and it is
back; clear it and the plan is empty; rewind the conversation or fork it
from an earlier message and the plan is what it was then. zot stores it in
the session file and sends ``state_restored`` whenever the session changes
under the extension, and the open panel is redrawn from it.
"""

from zot_ext import Extension, Response, ToolResult

ext = Extension("plan", "1.0.0")
PANEL = "plan-main"
open_panels = set()  # panels of ours the user has open


def steps(ctx):
    """The plan: a list of {"text", "done"}."""
    return ctx.state.get("steps", [], type=list)


def lines(plan):
    if not plan:
        return ["(no plan yet: /plan <step> adds one, or ask the agent to plan)"]
    return [f"{i}. [{'x' if s.get('done') else ' '}] {s.get('text', '')}" for i, s in enumerate(plan, 1)]


def summary(plan):
    done = sum(1 for s in plan if s.get("done"))
    return f"{done}/{len(plan)} done"


def redraw(ctx):
    plan = steps(ctx)
    for pid in list(open_panels):
        ctx.render_panel(pid, lines(plan), title="Plan", footer=summary(plan))


def save(ctx, plan):
    ctx.state.set("steps", plan)
    redraw(ctx)


@ext.command("plan", "show this conversation's plan; /plan <step> adds one, /plan done <n> ticks one")
def plan_cmd(ctx, args):
    plan = steps(ctx)
    args = args.strip()
    if args.startswith("done "):
        n = args[5:].strip()
        if not n.isdigit() or not 1 <= int(n) <= len(plan):
            return Response.error(f"no step {n!r}: the plan has {len(plan)} steps")
        plan[int(n) - 1]["done"] = True
        save(ctx, plan)
        return Response.display(f"step {n} done ({summary(plan)})")
    if args:
        plan.append({"text": args, "done": False})
        save(ctx, plan)
        return Response.display(f"added step {len(plan)}: {args}")
    open_panels.add(PANEL)
    return Response.open_panel(PANEL, lines(plan), title="Plan", footer=summary(plan))


@ext.tool("plan_update", "Replace this conversation's plan: the steps in order, each with whether it is done.", {
    "type": "object",
    "properties": {
        "steps": {"type": "array", "items": {"type": "object", "properties": {
            "text": {"type": "string"}, "done": {"type": "boolean"}}, "required": ["text"]}},
    },
    "required": ["steps"],
})
def plan_update(ctx, args):
    raw = args.get("steps")
    if not isinstance(raw, list):
        return ToolResult.error("steps must be a list of {text, done}")
    plan = [{"text": str(s.get("text", "")), "done": bool(s.get("done", False))}
            for s in raw if isinstance(s, dict)]
    save(ctx, plan)
    return ToolResult.text("plan saved: " + summary(plan) + "\n" + "\n".join(lines(plan)))


@ext.on_state_restored
def restored(ctx, _state):
    redraw(ctx)


@ext.on_panel_close
def closed(_ctx, panel_id):
    open_panels.discard(panel_id)


ext.run()
