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

Three wires, by the path the POST ends in, each answered with the same pieces:

- `/chat/completions` (OpenAI's Chat Completions): `"stream": true` in the request gets
  Server-Sent Events (one `chat.completion.chunk` per piece, then a finish chunk and
  `data: [DONE]`), otherwise one `chat.completion` with the whole text.
- `/messages` (Anthropic's Messages API): streamed, each event with its `event:` line, as the API
  sends them: `message_start` (the message with its usage), `content_block_start`, `ping`, one
  `content_block_delta` (`text_delta`) per piece, `content_block_stop`, `message_delta` (the
  stop reason and the usage), `message_stop`; otherwise one `message`.
- `/responses` (OpenAI's Responses API): streamed, each event with its `event:` line and its
  `sequence_number`: `response.created` and `response.in_progress` (the whole response,
  `in_progress`), `response.output_item.added`, `response.content_part.added`, one
  `response.output_text.delta` per piece (`item_id`, `output_index`, `content_index`, `delta`,
  `logprobs: []`, and the `obfuscation` padding the API adds by default), then
  `response.output_text.done`, `response.content_part.done` and `response.output_item.done`
  (each with the whole text) and `response.completed` (the whole response, its output and its
  usage); otherwise one `response`.

The two newer wires always have their full shape; `frame` chooses only how the stream is cut
into HTTP chunks (`event`: each event its own, in writes of about 64 KiB; `block`, with no delay:
everything up to the first piece in one HTTP chunk, then HTTP chunks of about 64 KiB; with a
delay, each event its own either way). `GET .../models` lists one model.

`GET /stats` returns what the server saw of the last chat request (of any wire), as JSON: the
wire (`openai`, `anthropic`, `responses`), when it sent the first content byte
(`first_content_ns`, taken just before the send; CLOCK_MONOTONIC nanoseconds, the clock of
Python's `time.monotonic_ns()`, comparable across processes on Linux), the request body's size,
the number of messages (of input items, for `/responses`), the last user message's text, and
the whole request body when `?body=1` is given.

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


def _cache_get(key):
    """A stream's blocks made before for `key`, or None."""
    with _BLOCKS_LOCK:
        return _BLOCKS_CACHE.get(key)


def _cache_put(key, result):
    """Keeps `result` for `key` (at most 17 streams' blocks) and returns it."""
    with _BLOCKS_LOCK:
        if len(_BLOCKS_CACHE) > 16:
            _BLOCKS_CACHE.clear()
        _BLOCKS_CACHE[key] = result
    return result


def stream_blocks(n: int, size: int, tail: bytes, doc: str = ""):
    """The first event alone and the rest of the stream in blocks of about BLOCK bytes; cached."""
    key = (n, size, tail, doc)
    cached = _cache_get(key)
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
    return _cache_put(key, result)


def event_framed_blocks(n: int, size: int, include_usage: bool, doc: str = ""):
    """The first content event as its own HTTP chunk (with the role chunk before it), then the
    rest of the stream, each event its own HTTP chunk, in writes of about BLOCK bytes; cached."""
    key = ("event", n, size, include_usage, doc)
    cached = _cache_get(key)
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
    return _cache_put(key, result)


# MARK: - Anthropic's Messages API and OpenAI's Responses API

ANTHROPIC_MODEL = "claude-haiku-4-5-20251001"
ANTHROPIC_ID = "msg_01XFDUDYJgAACzvnptvVoYEL"
RESPONSES_MODEL = "gpt-4o-mini-2024-07-18"
RESPONSES_ID = "resp_68b5e1f0c2a48193b6bd4c2bd8a0c4e40e1e9a3f5d6c7b8a"
RESPONSES_ITEM = "msg_68b5e1f1a6f48193a7b3c91de2f0a4b50e1e9a3f5d6c7b8a"


def sse(name: str, body) -> bytes:
    """One Server-Sent Event with its `event:` line, as both APIs send them."""
    return b"event: " + name.encode() + b"\ndata: " + json.dumps(body, separators=(",", ":")).encode() + b"\n\n"


def anthropic_usage(output_tokens: int) -> dict:
    return {"input_tokens": 8, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
            "cache_creation": {"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": 0},
            "output_tokens": output_tokens, "service_tier": "standard"}


def anthropic_message(content: list, stop_reason, output_tokens: int) -> dict:
    return {"model": ANTHROPIC_MODEL, "id": ANTHROPIC_ID, "type": "message", "role": "assistant",
            "content": content, "stop_reason": stop_reason, "stop_sequence": None,
            "usage": anthropic_usage(output_tokens)}


def anthropic_events(texts: list) -> tuple:
    """A Messages stream of the answer's pieces, and the index of the first piece's event."""
    n = len(texts)
    events = [
        sse("message_start", {"type": "message_start", "message": anthropic_message([], None, 1)}),
        sse("content_block_start", {"type": "content_block_start", "index": 0,
                                    "content_block": {"type": "text", "text": ""}}),
        sse("ping", {"type": "ping"}),
    ]
    first = len(events)
    events += [sse("content_block_delta", {"type": "content_block_delta", "index": 0,
                                           "delta": {"type": "text_delta", "text": text}})
               for text in texts]
    events += [
        sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        sse("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                              "usage": {"input_tokens": 8, "cache_creation_input_tokens": 0,
                                        "cache_read_input_tokens": 0, "output_tokens": n}}),
        sse("message_stop", {"type": "message_stop"}),
    ]
    return events, first


def responses_object(status: str, text=None, output_tokens: int = 0) -> dict:
    """The whole response, as `response.created`, `response.completed` and a plain answer carry it."""
    output = []
    if text is not None:
        output = [{"id": RESPONSES_ITEM, "type": "message", "status": "completed",
                   "content": [{"type": "output_text", "annotations": [], "logprobs": [], "text": text}],
                   "role": "assistant"}]
    done = status == "completed"
    return {
        "id": RESPONSES_ID, "object": "response", "created_at": 1756750320, "status": status,
        "background": False, "completed_at": 1756750321 if done else None, "error": None,
        "incomplete_details": None, "instructions": None, "max_output_tokens": None, "max_tool_calls": None,
        "model": RESPONSES_MODEL, "output": output, "parallel_tool_calls": True, "previous_response_id": None,
        "prompt_cache_key": None, "reasoning": {"effort": None, "summary": None}, "safety_identifier": None,
        "service_tier": "default" if done else "auto", "store": False, "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"}, "tool_choice": "auto", "tools": [],
        "top_logprobs": 0, "top_p": 1.0, "truncation": "disabled",
        "usage": {"input_tokens": 8, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": output_tokens,
                  "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 8 + output_tokens}
        if done else None,
        "user": None, "metadata": {},
    }


def obfuscation(index: int, text: str) -> str:
    """The padding the API adds to each delta (random there; deterministic here), so that the
    delta and its padding are about the same length whatever the text."""
    length = max(0, 16 - len(text))
    return "".join(ALPHABET[(index * 13 + k) % len(ALPHABET)] for k in range(length)).replace(" ", "x")


def responses_events(texts: list, obfuscate: bool = True) -> tuple:
    """A Responses stream of the answer's pieces, and the index of the first piece's event."""
    n = len(texts)
    whole = "".join(texts)
    seq = iter(range(n + 16))
    part = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
    item = {"id": RESPONSES_ITEM, "type": "message", "status": "in_progress", "content": [], "role": "assistant"}

    def event(kind, **fields):
        return sse(kind, dict({"type": kind, "sequence_number": next(seq)}, **fields))

    events = [
        event("response.created", response=responses_object("in_progress")),
        event("response.in_progress", response=responses_object("in_progress")),
        event("response.output_item.added", output_index=0, item=item),
        event("response.content_part.added", item_id=RESPONSES_ITEM, output_index=0, content_index=0, part=part),
    ]
    first = len(events)
    for i, text in enumerate(texts):
        fields = dict(item_id=RESPONSES_ITEM, output_index=0, content_index=0, delta=text, logprobs=[])
        if obfuscate:
            fields["obfuscation"] = obfuscation(i, text)
        events.append(event("response.output_text.delta", **fields))
    done_part = dict(part, text=whole)
    events += [
        event("response.output_text.done", item_id=RESPONSES_ITEM, output_index=0, content_index=0, text=whole,
              logprobs=[]),
        event("response.content_part.done", item_id=RESPONSES_ITEM, output_index=0, content_index=0, part=done_part),
        event("response.output_item.done", output_index=0,
              item=dict(item, status="completed", content=[done_part])),
        event("response.completed", response=responses_object("completed", whole, n)),
    ]
    return events, first


def wire_events_of(wire: str, texts: list, obfuscate: bool = True) -> tuple:
    """The stream of a newer wire (`anthropic`, `responses`) with these pieces, and the index of
    its first piece's event."""
    if wire == "anthropic":
        return anthropic_events(texts)
    return responses_events(texts, obfuscate)


def wire_events(wire: str, n: int, size: int, doc: str = "", obfuscate: bool = True) -> tuple:
    """The stream of a newer wire with the answer's `n` pieces, and the index of its first piece's."""
    return wire_events_of(wire, pieces(n, size, doc), obfuscate)


def wire_stream(wire: str, n: int, size: int, doc: str = "", obfuscate: bool = True) -> bytes:
    """The whole event stream of a newer wire (the body after de-chunking), as curl prints it."""
    return b"".join(wire_events(wire, n, size, doc, obfuscate)[0])


def wire_blocks(wire: str, n: int, size: int, doc: str, frame: str, obfuscate: bool = True):
    """What a newer wire's stream is written as, with no delay: every event up to the first
    piece's in the first write, then the rest in writes of about BLOCK bytes; with `frame=event`
    each event is its own HTTP chunk, otherwise each write is one HTTP chunk. Cached."""
    key = ("wire", wire, n, size, doc, frame, obfuscate)
    cached = _cache_get(key)
    if cached is not None:
        return cached
    events, first_index = wire_events(wire, n, size, doc, obfuscate)
    if frame == "event":
        first = b"".join(http_chunk(e) for e in events[:first_index + 1])
    else:
        first = http_chunk(b"".join(events[:first_index + 1]))
    blocks = []
    block = bytearray()
    for event in events[first_index + 1:]:
        block += http_chunk(event) if frame == "event" else event
        if len(block) >= BLOCK:
            blocks.append(bytes(block) if frame == "event" else http_chunk(bytes(block)))
            block.clear()
    if block:
        blocks.append(bytes(block) if frame == "event" else http_chunk(bytes(block)))
    result = (first, blocks)
    return _cache_put(key, result)


def wire_answer(wire: str, n: int, size: int, doc: str = "") -> dict:
    """A newer wire's answer, not streamed: a `message` or a `response`."""
    text = answer_text(n, size, doc)
    if wire == "anthropic":
        return anthropic_message([{"type": "text", "text": text}], "end_turn", n)
    return responses_object("completed", text, n)


def request_text(content):
    """The text of a message's content: a string, or the text of its parts (either API's)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [part.get("text") for part in content if isinstance(part, dict) and isinstance(part.get("text"), str)]
        return "".join(texts) if texts else None
    return None


WIRES = (("/chat/completions", "openai"), ("/messages", "anthropic"), ("/responses", "responses"))


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

    def send_whole(self, data: bytes, record: dict) -> None:
        """A whole (non-streamed) JSON answer, its first byte's time noted in `record`."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        record["first_content_ns"] = time.monotonic_ns()
        self.wfile.write(data)
        self.close_connection = True

    def start_stream(self, content_type: str) -> None:
        """The head of a streamed answer, sent at once, its body chunked."""
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True

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
        wire = next((name for suffix, name in WIRES if self.path.endswith(suffix)), None)
        if wire is None:
            self.send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        try:
            request = json.loads(raw or b"{}")
        except ValueError:
            self.send_json(400, {"error": {"message": "invalid JSON", "type": "invalid_request_error"}})
            return
        if wire != "openai":
            self.answer_wire(wire, request, raw)
            return
        messages = request.get("messages") or []
        last_user = next((m.get("content") for m in reversed(messages) if m.get("role") == "user"), None)
        params = parse_params(self.path)
        record = {
            "wire": wire,
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
            self.send_whole(json.dumps(body).encode(), record)
            return

        self.start_stream("text/event-stream")

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

    def answer_wire(self, wire: str, request: dict, raw: bytes) -> None:
        """Answers a newer wire (`anthropic`, `responses`): the same pieces, the same URL
        parameters, the same /stats record as the Chat Completions path."""
        if wire == "anthropic":
            messages = request.get("messages") or []
        else:
            messages = request.get("input") or []
            if isinstance(messages, str):
                messages = [{"role": "user", "content": messages}]
        last_user = next((request_text(m.get("content")) for m in reversed(messages)
                          if isinstance(m, dict) and m.get("role") == "user"), None)
        params = parse_params(self.path)
        record = {
            "wire": wire,
            "path": self.path,
            "request_bytes": len(raw),
            "messages": len(messages),
            "last_user": last_user,
            "stream": bool(request.get("stream")),
            "first_content_ns": None,
            "body": raw.decode("utf-8", "replace"),
        }
        STATS.set(record)
        n, size, doc = params["n"], params["size"], params["doc"]
        if not request.get("stream"):
            if params["first"] > 0:
                time.sleep(params["first"])
            self.send_whole(json.dumps(wire_answer(wire, n, size, doc)).encode(), record)
            return

        # Obfuscation is on unless the request turns it off, as OpenAI's API does.
        obfuscate = (request.get("stream_options") or {}).get("include_obfuscation") is not False
        self.start_stream("text/event-stream; charset=utf-8")
        try:
            if params["first"] > 0:
                time.sleep(params["first"])
            if params["delay"] > 0:
                # Each event its own HTTP chunk (either framing), a delay between the pieces.
                events, first_index = wire_events(wire, n, size, doc, obfuscate)
                self.wfile.write(b"".join(http_chunk(e) for e in events[:first_index]))
                for i in range(first_index, first_index + n):
                    if i > first_index:
                        time.sleep(params["delay"])
                    else:
                        record["first_content_ns"] = time.monotonic_ns()
                    self.wfile.write(http_chunk(events[i]))
                self.wfile.write(b"".join(http_chunk(e) for e in events[first_index + n:]))
            else:
                first, blocks = wire_blocks(wire, n, size, doc, params["frame"], obfuscate)
                record["first_content_ns"] = time.monotonic_ns()
                self.wfile.write(first)
                for block in blocks:
                    self.wfile.write(block)
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
