"""An OpenAI-compatible chat server as an ASGI app, for hypercorn (HTTP/1.1 and HTTP/2 over
TLS) in Benchmarks/network: every POST is answered, after SERVER_MS milliseconds of "thinking",
with a short streamed answer, "Hello there, friend." in four pieces, then [DONE]."""
import asyncio
import json
import os

SERVER_SECONDS = int(os.environ.get("SERVER_MS", "10")) / 1000
PIECES = ["Hello", " there", ",", " friend."]


def event(data):
    return ("data: %s\n\n" % data).encode()


def chunk(content=None, finish=None):
    delta = {"content": content} if content is not None else {}
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
    while (await receive()).get("more_body"):
        pass
    await asyncio.sleep(SERVER_SECONDS)
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"text/event-stream"), (b"cache-control", b"no-cache")]})
    for piece in PIECES:
        await send({"type": "http.response.body", "body": event(chunk(piece)), "more_body": True})
    await send({"type": "http.response.body", "body": event(chunk(finish="stop")) + event("[DONE]")})
