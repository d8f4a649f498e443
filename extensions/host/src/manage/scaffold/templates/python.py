#!/usr/bin/env python3
"""{{name}}: a zot extension, made by `zot ext new`.

zot provides the `zot_ext` SDK when it starts this file (vendor a copy next
to it, or install one into a .venv here, to pin your own). Try it:

    zot --ext .          then type /{{name}}
"""

from zot_ext import Extension, Response, ToolResult

ext = Extension("{{name}}", "0.1.0")


@ext.command("{{name}}", "say hello from {{name}}")
def hello(ctx, args):
    return Response.display("hello from {{name}}" + (f": {args}" if args else ""))


@ext.tool(
    "{{tool}}",
    "Echo the given text back (a template tool: replace it with yours).",
    {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
)
def echo(ctx, args):
    text = args.get("text")
    if not isinstance(text, str):
        return ToolResult.error("`text` is required and must be a string")
    return ToolResult.text(text)
{{panel}}

ext.run()
