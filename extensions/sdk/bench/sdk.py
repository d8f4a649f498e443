#!/usr/bin/env python3
# The same echo tool through the Python SDK.
from zot_ext import Extension

ext = Extension("bench", "1.0.0")


@ext.tool("echo", "echo", {"type": "object"})
def echo(ctx, args):
    return args.get("text", "")


ext.run()
