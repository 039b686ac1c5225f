"""A chat server as an ASGI app, for hypercorn (HTTP/1.1 and HTTP/2 over TLS) in
Benchmarks/network: every POST is answered, after SERVER_MS milliseconds of "thinking", with a
short streamed answer, "Hello there, friend." in four pieces, each sent on its own. A POST whose
path ends in `/messages` gets it as Anthropic's Messages stream, one ending in `/responses` as
OpenAI's Responses stream (both in their full shapes, from Benchmarks/fake_server.py); any other
as Chat Completions chunks, then [DONE] — except a Chat Completions request that offers tools and
ends with the person's message, which is answered with a call of its first tool. With
$TIMING_FILE set, each request's arrival and the end of its answer (time.monotonic) are appended
to it as `request ARRIVED ENDED`, for the tool round's row."""
import asyncio
import json
import os
import time

import fake_server  # the same directory (hypercorn runs with it as the working directory)

SERVER_SECONDS = int(os.environ.get("SERVER_MS", "10")) / 1000
TIMING_FILE = os.environ.get("TIMING_FILE")
PIECES = ["Hello", " there", ",", " friend."]


def event(data):
    return ("data: %s\n\n" % data).encode()


def chunk(content=None, finish=None, call=None):
    delta = {"content": content} if content is not None else {}
    if call is not None:
        delta = {"tool_calls": [{"index": 0, "id": "call_bench", "type": "function",
                                 "function": {"name": call, "arguments": "{}"}}]}
    return json.dumps({
        "id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1, "model": "bench",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    })


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            else:
                await send({"type": "lifespan.shutdown.complete"})
                return
    arrived = time.monotonic()
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    request = json.loads(body or b"{}")
    tools = request.get("tools") or []
    messages = request.get("messages") or [{}]
    await asyncio.sleep(SERVER_SECONDS)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]})
    wire = next((name for suffix, name in fake_server.WIRES if scope["path"].endswith(suffix)), "openai")
    if wire != "openai":
        # The events before the first piece and the first piece leave together, as a server's
        # first write would; then each piece, then the rest.
        events, first = fake_server.wire_events_of(wire, PIECES)
        last_piece = first + len(PIECES) - 1
        await send({"type": "http.response.body", "body": b"".join(events[:first + 1]), "more_body": True})
        for event_bytes in events[first + 1:last_piece + 1]:
            await send({"type": "http.response.body", "body": event_bytes, "more_body": True})
        last = b"".join(events[last_piece + 1:])
    elif tools and messages[-1].get("role") == "user":
        name = tools[0]["function"]["name"]
        last = event(chunk(call=name)) + event(chunk(finish="tool_calls")) + event("[DONE]")
    else:
        for piece in PIECES:
            await send({"type": "http.response.body", "body": event(chunk(piece)), "more_body": True})
        last = event(chunk(finish="stop")) + event("[DONE]")
    await send({"type": "http.response.body", "body": last})
    if TIMING_FILE:
        with open(TIMING_FILE, "a") as f:
            f.write(f"request {arrived} {time.monotonic()}\n")
