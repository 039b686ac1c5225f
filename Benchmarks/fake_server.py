#!/usr/bin/env python3
"""A small fake OpenAI-compatible chat server for the benchmarks. Python 3 standard library only.

It listens on 127.0.0.1 only. The answer's shape is chosen by the base URL, so every client
(chat, curl, llm, sgpt) can be pointed at the same scenario without extra configuration:

    http://127.0.0.1:PORT/b/n=20000,size=4,delay=0,first=0/v1

    n      number of content pieces (default 1)
    size   bytes of text per piece (default 4; ASCII letters and spaces)
    delay  seconds between pieces (default 0)
    first  seconds before the first piece (default 0), after the response head
    doc    `markdown`: the pieces cut a Markdown answer (headings, paragraphs with emphasis,
           code spans and links, a fenced code block, a table, a list, CJK and emoji) into `n`
           pieces of `size` characters, instead of the letters of ALPHABET
    frame  `event`: each event is its own HTTP chunk, as real servers send them, and every
           chunk has OpenAI's full shape (`id`, `object`, `created`, `model`,
           `system_fingerprint`, `service_tier`, `choices[].logprobs: null`, and `usage: null`
           when usage was asked for; a first chunk with the role, a finish chunk, a usage chunk).
           With no delay the chunks still leave as fast as the socket takes them, in writes of
           about 64 KiB (a proxy that flushed its buffer, a fast local server, a replay).
           Otherwise (`block`, the default) the short chunk shape, and with no delay the stream
           is written as a few large HTTP chunks.

Any POST whose path ends in `/chat/completions` is answered; `"stream": true` in the request
gets Server-Sent Events (one `chat.completion.chunk` per piece, then a finish chunk and
`data: [DONE]`), otherwise one `chat.completion` with the whole text. `GET .../models` lists one
model.

`GET /stats` returns what the server saw of the last chat request, as JSON: when it sent the
first content byte (`first_content_ns`, taken just before the send; CLOCK_MONOTONIC nanoseconds,
the clock of Python's `time.monotonic_ns()`, comparable across processes on Linux), the request body's size, the number
of messages, the last user message, and the whole request body when `?body=1` is given.

Usage: fake_server.py [--port N] [--port-file PATH]   (port 0, the default, picks a free one)
"""

import argparse
import json
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEFAULTS = {"n": 1, "size": 4, "delay": 0.0, "first": 0.0, "doc": "", "frame": "block"}
# With no delay between pieces, the stream is written in blocks of this size (as a fast server
# under load would send it); with a delay, each piece is written, and flushed, on its own.
BLOCK = 64 * 1024
ALPHABET = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789"


def piece_text(index: int, size: int) -> str:
    """The text of piece `index`: deterministic, so a client's output can be checked."""
    start = (index * 7) % len(ALPHABET)
    return "".join(ALPHABET[(start + k) % len(ALPHABET)] for k in range(size))


MARKDOWN = """## Section @K@

A paragraph with **bold**, *italic* and `inline code`, a [link](https://example.com/@K@) and \
a sentence long enough to wrap at the width of most terminals, which it does twice or more.
中文文本没有空格，所以要在字符之间换行；还有表情符号 😀 和 🇯🇵。

```python
def double(x: int) -> int:
    return x * 2  # the @K@th function
```

| Name | Value | Note |
|:-----|------:|------|
| alpha | 1 | *first* |
| beta | 22 | `second` |

- an item
- another item
  - a nested item

"""


def markdown_text(length: int) -> str:
    """A Markdown answer of `length` characters: the section above, numbered, repeated."""
    parts = []
    total = 0
    k = 1
    while total < length:
        part = MARKDOWN.replace("@K@", str(k))
        parts.append(part)
        total += len(part)
        k += 1
    return "".join(parts)[:length]


def pieces(n: int, size: int, doc: str = "") -> list:
    """The answer's `n` pieces."""
    if doc == "markdown":
        text = markdown_text(n * size)
        return [text[i * size:(i + 1) * size] for i in range(n)]
    return [piece_text(i, size) for i in range(n)]


def answer_text(n: int, size: int, doc: str = "") -> str:
    return "".join(pieces(n, size, doc))


def parse_params(path: str) -> dict:
    params = dict(DEFAULTS)
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        if part == "b":
            for item in parts[i + 1].split(","):
                if "=" in item:
                    key, value = item.split("=", 1)
                    if key in ("n", "size"):
                        params[key] = int(value)
                    elif key in ("doc", "frame"):
                        params[key] = value
                    elif key in ("delay", "first"):
                        params[key] = float(value)
            break
    return params


def chunk_event(content=None, finish=None, usage=False) -> bytes:
    choice = {"index": 0, "delta": {} if content is None else {"content": content}, "finish_reason": finish}
    body = {
        "id": "chatcmpl-bench",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "bench",
        "choices": [] if usage else [choice],
    }
    if usage:
        body["usage"] = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    return b"data: " + json.dumps(body, separators=(",", ":")).encode() + b"\n\n"


def full_chunk_event(content=None, finish=None, usage=False, include_usage=False, first=False) -> bytes:
    """A chunk as OpenAI sends it, every field in place, in OpenAI's order."""
    if first:
        delta = {"role": "assistant", "content": "", "refusal": None}
    else:
        delta = {} if content is None else {"content": content}
    choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
    body = {
        "id": "chatcmpl-BbenchAbCdEfGhIjKlMnOpQrStUvW",
        "object": "chat.completion.chunk",
        "created": 1700000000,
        "model": "gpt-4o-mini-2024-07-18",
        "service_tier": "default",
        "system_fingerprint": "fp_0123456789",
        "choices": [] if usage else [choice],
    }
    if usage:
        body["usage"] = {
            "prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                          "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
        }
    elif include_usage:
        body["usage"] = None
    return b"data: " + json.dumps(body, separators=(",", ":")).encode() + b"\n\n"


def full_events(n: int, size: int, include_usage: bool, doc: str = "") -> list:
    """Every event of a stream in the full shape: the role, the pieces, the finish, the usage."""
    events = [full_chunk_event(first=True, include_usage=include_usage)]
    events += [full_chunk_event(text, include_usage=include_usage) for text in pieces(n, size, doc)]
    events.append(full_chunk_event(finish="stop", include_usage=include_usage))
    if include_usage:
        events.append(full_chunk_event(usage=True))
    events.append(b"data: [DONE]\n\n")
    return events


def http_chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def stream_tail(include_usage: bool) -> bytes:
    """What follows the last piece: a finish chunk, the usage chunk if asked for, `[DONE]`."""
    tail = chunk_event(finish="stop")
    if include_usage:
        tail += chunk_event(usage=True)
    return tail + b"data: [DONE]\n\n"


def expected_stream(n: int, size: int, include_usage: bool, doc: str = "", frame: str = "block") -> bytes:
    """The whole event stream (the body after de-chunking), as a client like curl prints it."""
    if frame == "event":
        return b"".join(full_events(n, size, include_usage, doc))
    return b"".join(chunk_event(piece) for piece in pieces(n, size, doc)) + stream_tail(include_usage)


_BLOCKS_CACHE = {}
_BLOCKS_LOCK = threading.Lock()


def stream_blocks(n: int, size: int, tail: bytes, doc: str = ""):
    """The first event alone and the rest of the stream in blocks of about BLOCK bytes; cached."""
    key = (n, size, tail, doc)
    with _BLOCKS_LOCK:
        cached = _BLOCKS_CACHE.get(key)
    if cached is not None:
        return cached
    blocks = []
    block = bytearray()
    texts = pieces(n, size, doc)
    for i in range(1, n):
        block += chunk_event(texts[i])
        if len(block) >= BLOCK:
            blocks.append(bytes(block))
            block.clear()
    block += tail
    blocks.append(bytes(block))
    result = (chunk_event(texts[0]), blocks)
    with _BLOCKS_LOCK:
        if len(_BLOCKS_CACHE) > 16:
            _BLOCKS_CACHE.clear()
        _BLOCKS_CACHE[key] = result
    return result


def event_framed_blocks(n: int, size: int, include_usage: bool, doc: str = ""):
    """The first content event as its own HTTP chunk (with the role chunk before it), then the
    rest of the stream, each event its own HTTP chunk, in writes of about BLOCK bytes; cached."""
    key = ("event", n, size, include_usage, doc)
    with _BLOCKS_LOCK:
        cached = _BLOCKS_CACHE.get(key)
    if cached is not None:
        return cached
    events = full_events(n, size, include_usage, doc)
    first = http_chunk(events[0]) + http_chunk(events[1])
    blocks = []
    block = bytearray()
    for event in events[2:]:
        block += http_chunk(event)
        if len(block) >= BLOCK:
            blocks.append(bytes(block))
            block.clear()
    if block:
        blocks.append(bytes(block))
    result = (first, blocks)
    with _BLOCKS_LOCK:
        if len(_BLOCKS_CACHE) > 16:
            _BLOCKS_CACHE.clear()
        _BLOCKS_CACHE[key] = result
    return result


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.last = {}

    def set(self, record):
        with self.lock:
            self.last = record

    def get(self):
        with self.lock:
            return dict(self.last)


STATS = Stats()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-openai/1"

    def setup(self):
        super().setup()
        # Small pieces must leave at once, not wait for Nagle's algorithm.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):  # quiet
        pass

    def send_json(self, status: int, obj) -> None:
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def do_GET(self):
        if self.path.startswith("/stats"):
            record = STATS.get()
            if "body=1" not in self.path:
                record.pop("body", None)
            self.send_json(200, record)
        elif self.path.endswith("/models"):
            self.send_json(200, {"object": "list", "data": [{"id": "bench", "object": "model", "owned_by": "bench"}]})
        else:
            self.send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if not self.path.endswith("/chat/completions"):
            self.send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        try:
            request = json.loads(raw or b"{}")
        except ValueError:
            self.send_json(400, {"error": {"message": "invalid JSON", "type": "invalid_request_error"}})
            return
        messages = request.get("messages") or []
        last_user = next((m.get("content") for m in reversed(messages) if m.get("role") == "user"), None)
        params = parse_params(self.path)
        record = {
            "path": self.path,
            "request_bytes": len(raw),
            "messages": len(messages),
            "last_user": last_user if isinstance(last_user, str) else None,
            "stream": bool(request.get("stream")),
            "first_content_ns": None,
            "body": raw.decode("utf-8", "replace"),
        }
        STATS.set(record)
        n, size = params["n"], params["size"]
        if not request.get("stream"):
            if params["first"] > 0:
                time.sleep(params["first"])
            content = answer_text(n, size, params["doc"])
            body = {
                "id": "chatcmpl-bench",
                "object": "chat.completion",
                "created": 1700000000,
                "model": "bench",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": n, "total_tokens": n + 1},
            }
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Connection", "close")
            self.end_headers()
            record["first_content_ns"] = time.monotonic_ns()
            self.wfile.write(data)
            self.close_connection = True
            return

        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True

        def write(data: bytes, first_content: bool = False) -> None:
            framed = b"%x\r\n%s\r\n" % (len(data), data)
            if first_content:
                # Just before the send: a reader may see the bytes before send() returns here.
                record["first_content_ns"] = time.monotonic_ns()
            self.wfile.write(framed)

        try:
            if params["first"] > 0:
                time.sleep(params["first"])
            include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
            tail = stream_tail(include_usage)
            if params["frame"] == "event":
                if params["delay"] > 0:
                    events = full_events(n, size, include_usage, params["doc"])
                    self.wfile.write(http_chunk(events[0]))
                    for i, event in enumerate(events[1:]):
                        if 0 < i <= n - 1:
                            time.sleep(params["delay"])
                        if i == 0:
                            record["first_content_ns"] = time.monotonic_ns()
                        self.wfile.write(http_chunk(event))
                else:
                    # Every event its own HTTP chunk, sent as fast as the socket takes them.
                    first, blocks = event_framed_blocks(n, size, include_usage, params["doc"])
                    record["first_content_ns"] = time.monotonic_ns()
                    self.wfile.write(first)
                    for block in blocks:
                        self.wfile.write(block)
            elif params["delay"] > 0 or n <= 1:
                for i, text in enumerate(pieces(n, size, params["doc"])):
                    if i > 0 and params["delay"] > 0:
                        time.sleep(params["delay"])
                    write(chunk_event(text), first_content=i == 0)
                write(tail)
            else:
                # The first piece alone (so its time is known), then the rest in large blocks,
                # prepared once per shape so the server is never the bottleneck.
                first_event, blocks = stream_blocks(n, size, tail, params["doc"])
                write(first_event, first_content=True)
                for block in blocks:
                    write(block)
            self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", help="write the chosen port here once listening")
    options = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", options.port), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    if options.port_file:
        with open(options.port_file + ".tmp", "w") as f:
            f.write(str(port))
        import os

        os.replace(options.port_file + ".tmp", options.port_file)
    else:
        print(port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
