"""A scripted OpenAI Chat Completions server (stdlib only) for the LiteLLM tests: the model behind
the LiteLLM proxy, which is the real third-party server under test (LiteLLMProxyTests).

    python3 litellm-upstream.py LOG     prints its port (127.0.0.1, chosen by the kernel), then serves

Every request is a JSON line in LOG: {"path": …, "body": …} (the body as LiteLLM sent it).
Answers, streamed (SSE, with a usage chunk when stream_options.include_usage asks) or whole:
- offered a tool named …get_current_time, with the last message the user's and about the time: a
  call of it, arguments {"timezone": "Asia/Tokyo"}, call id "call_tokyo_N" (N: 1 + the tool
  results so far);
- after a tool result: "The tool says DATETIME." (the result's "datetime", else its text);
- otherwise: "Upstream heard: TEXT" (the last user message's text), in three pieces.
"""
import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = open(sys.argv[1], "a")


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def answer(body):
    """(text, tool_call): what to answer the request with."""
    messages = body.get("messages", [])
    last = messages[-1] if messages else {}
    tools = [t.get("function", {}).get("name", "") for t in body.get("tools") or []]
    timer = next((name for name in tools if name.endswith("get_current_time")), None)
    if last.get("role") == "user" and timer and "time" in text_of(last.get("content")):
        number = 1 + sum(1 for m in messages if m.get("role") == "tool")
        return None, {"id": f"call_tokyo_{number}", "name": timer, "arguments": json.dumps({"timezone": "Asia/Tokyo"})}
    if last.get("role") == "tool":
        result = text_of(last.get("content"))
        try:
            result = json.loads(result).get("datetime", result)
        except (ValueError, AttributeError):
            pass
        return f"The tool says {result}.", None
    user = next((m for m in reversed(messages) if m.get("role") == "user"), {})
    return "Upstream heard: " + text_of(user.get("content")), None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path.rstrip("/") == "/v1/models":
            return self.send_json(200, {"object": "list", "data": [{"id": "upstream-model", "object": "model"}]})
        self.send_json(404, {"error": {"message": "no route " + self.path}})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        LOG.write(json.dumps({"path": self.path, "body": body}) + "\n")
        LOG.flush()
        if not self.path.endswith("/chat/completions"):
            return self.send_json(404, {"error": {"message": "no route " + self.path, "type": "invalid_request_error"}})
        text, call = answer(body)
        usage = {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16}
        base = {"id": "chatcmpl-upstream", "created": int(time.time()), "model": body.get("model", "upstream-model")}
        if not body.get("stream"):
            message = {"role": "assistant", "content": text}
            if call:
                message["tool_calls"] = [
                    {"id": call["id"], "type": "function",
                     "function": {"name": call["name"], "arguments": call["arguments"]}}]
            choice = {"index": 0, "message": message, "finish_reason": "tool_calls" if call else "stop"}
            return self.send_json(200, dict(base, object="chat.completion", choices=[choice], usage=usage))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()

        def chunk(delta, finish=None, with_usage=False):
            value = dict(base, object="chat.completion.chunk",
                         choices=[] if with_usage else [{"index": 0, "delta": delta, "finish_reason": finish}])
            if with_usage:
                value["usage"] = usage
            self.wfile.write(b"data: " + json.dumps(value).encode() + b"\n\n")
            self.wfile.flush()

        if call:
            chunk({"role": "assistant", "content": None, "tool_calls": [
                {"index": 0, "id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": ""}}]})
            half = len(call["arguments"]) // 2
            for piece in (call["arguments"][:half], call["arguments"][half:]):
                chunk({"tool_calls": [{"index": 0, "function": {"arguments": piece}}]})
            chunk({}, "tool_calls")
        else:
            chunk({"role": "assistant", "content": ""})
            third = max(1, len(text) // 3)
            for piece in (text[:third], text[third:2 * third], text[2 * third:]):
                chunk({"content": piece})
            chunk({}, "stop")
        if (body.get("stream_options") or {}).get("include_usage"):
            chunk({}, with_usage=True)
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
