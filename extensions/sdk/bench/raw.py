#!/usr/bin/env python3
# The spec's quick-start loop, answering tool calls: the floor the Python SDK
# is measured against.
import json, sys

def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

emit({"type":"hello","name":"bench","version":"1.0.0","capabilities":["tools"]})

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello_ack":
        emit({"type":"register_tool","name":"echo","description":"echo","schema":{"type":"object"}})
        emit({"type":"ready"})
    elif msg["type"] == "tool_call":
        emit({"type":"tool_result","id":msg["id"],"content":[{"type":"text","text":msg["args"].get("text","")}]})
    elif msg["type"] == "shutdown":
        emit({"type":"shutdown_ack"})
        break
