

PANEL = "{{name}}-panel"
state = {"n": 0, "clicked": "nothing yet", "size": "not told yet"}


def panel_lines():
    return [
        f"count: {state['n']}",
        "",
        "press + or - (or turn the wheel) to change it",
        f"last click: {state['clicked']}",
        f"panel size: {state['size']}",
    ]


def render(ctx):
    ctx.render_panel(PANEL, panel_lines(), title="{{name}}", footer="+/- count · wheel · click · esc close")


@ext.command("{{name}}-panel", "open the {{name}} panel")
def open_panel(ctx, args):
    return Response.open_panel(PANEL, panel_lines(), title="{{name}}",
                               footer="+/- count · wheel · click · esc close")


@ext.on_panel_key
def key(ctx, panel_id, key, text):
    if key == "esc":
        ctx.close_panel(panel_id)
        return
    if key == "rune" and text in ("+", "-"):
        state["n"] += 1 if text == "+" else -1
    render(ctx)


# Registering these declares `panel_mouse` and `panel_resize`.
@ext.on_panel_mouse
def mouse(ctx, ev):
    if ev.action == "wheel":
        state["n"] -= ev.delta  # wheel up counts up
    else:
        state["clicked"] = f"{ev.action} on line {ev.row}, character {ev.col}"
    render(ctx)


@ext.on_panel_resize
def resized(ctx, ev):
    state["size"] = f"{ev.cols} x {ev.rows} cells"
    render(ctx)
