#!/usr/bin/env python3
"""A minimal MCP server over stdio for Benchmarks/network's tool round: one tool, `now`, which
answers at once; each call's start and end (time.monotonic, the same clock as the chat server's)
are appended to $TIMING_FILE as `tool START END`. JSON-RPC messages, one per line."""
import json
import os
import sys
import time


def reply(message_id, result):
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message_id, "result": result}) + "\n")
    sys.stdout.flush()


TOOL = {"name": "now", "description": "The time now.", "inputSchema": {"type": "object", "properties": {}}}

for line in sys.stdin:
    message = json.loads(line)
    method, message_id = message.get("method"), message.get("id")
    if message_id is None:
        continue
    if method == "initialize":
        version = message["params"].get("protocolVersion", "2025-06-18")
        reply(message_id, {"protocolVersion": version, "capabilities": {"tools": {}},
                           "serverInfo": {"name": "bench-tool", "version": "1"}})
    elif method == "tools/list":
        reply(message_id, {"tools": [TOOL]})
    elif method == "tools/call":
        started = time.monotonic()
        result = {"content": [{"type": "text", "text": "12:00"}], "isError": False}
        ended = time.monotonic()
        with open(os.environ["TIMING_FILE"], "a") as f:
            f.write(f"tool {started} {ended}\n")
        reply(message_id, result)
    else:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message_id,
                                     "error": {"code": -32601, "message": "no such method"}}) + "\n")
        sys.stdout.flush()
