
PANEL = "{{name}}-panel"
count = {"n": 0}


def panel_lines():
    return [f"count: {count['n']}", "", "press + or - to change it"]


@ext.command("{{name}}-panel", "open the {{name}} panel")
def open_panel(ctx, args):
    return Response.open_panel(PANEL, panel_lines(), title="{{name}}", footer="+/- count · esc close")


@ext.on_panel_key
def key(ctx, panel_id, key, text):
    if key == "esc":
        ctx.close_panel(panel_id)
        return
    if key == "rune" and text in ("+", "-"):
        count["n"] += 1 if text == "+" else -1
    ctx.render_panel(panel_id, panel_lines(), title="{{name}}", footer="+/- count · esc close")
