"""An MCP server of the tests' own that speaks ONLY 2026-07-28: no `initialize` (it answers it with
UnsupportedProtocolVersionError, -32022), `server/discover`, and every request checked for the
modern envelope: `_meta` with the protocol version, the client's capabilities (elicitation, form
and url) and its name; over HTTP the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` header
fields equal to the body's, and no session. A request that breaks a rule is refused as the spec
says (-32602 / -32020, HTTP 400) and the rule named in the log.

Its tools: `ask` (a form question through `input_required`, with a `requestState` to be echoed),
`open_page` (a page to open, with no `requestState`), `café` (a name sent base64 in `Mcp-Name`),
`shape` (structuredContent that breaks its own outputSchema), `once` and `again` (over HTTP their
first answer's stream breaks off; `again` is marked idempotent). Its prompts are listed two a
page; `greet` asks a question first. Its resource `file:///notes.txt` asks one first too.

usage: modern_only.py stdio LOG [TTL_MS [break-list]]
       modern_only.py http LOG [TTL_MS [break-list]]   (prints its port, then serves /mcp on 127.0.0.1)
With break-list, over HTTP the stream of its first answer to tools/list breaks off too.
Each request is a JSON line in LOG: transport, method, id, name, violations, inputResponses,
requestState."""
import base64, json, socket, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

VERSION = "2026-07-28"
transport, log_path = sys.argv[1], sys.argv[2]
ttl = int(sys.argv[3]) if len(sys.argv) > 3 else 0
break_list = len(sys.argv) > 4 and sys.argv[4] == "break-list"
lock = threading.Lock()
calls = {}
seen_ids = set()


def log(entry):
    with lock, open(log_path, "a") as f:
        f.write(json.dumps(entry) + "\n")


TOOLS = [
    {"name": "ask", "description": "Asks your name and age.", "inputSchema": {"type": "object"}},
    {"name": "open_page", "description": "Asks you to open a page.", "inputSchema": {"type": "object"}},
    {"name": "café", "description": "A name that is not ASCII.", "inputSchema": {"type": "object"}},
    {"name": "shape", "description": "Breaks its own output schema.", "inputSchema": {"type": "object"},
     "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}},
    {"name": "once", "description": "Must run once.", "inputSchema": {"type": "object"}},
    {"name": "again", "description": "May run twice.", "inputSchema": {"type": "object"},
     "annotations": {"idempotentHint": True}},
]
PROMPTS = [{"name": "greet", "description": "A greeting.", "arguments": [{"name": "who", "required": True}]},
           {"name": "second", "description": "The second."}, {"name": "third", "description": "The third."}]


def result(value, cacheable=False):
    value = dict(value, resultType=value.get("resultType", "complete"))
    if cacheable:
        value.update(ttlMs=ttl, cacheScope="private")
    return value


def check_meta(params):
    """The rules of the modern envelope that params' _meta breaks."""
    problems = []
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        return ["no _meta"]
    if meta.get("io.modelcontextprotocol/protocolVersion") != VERSION:
        problems.append("protocolVersion")
    caps = meta.get("io.modelcontextprotocol/clientCapabilities")
    if not isinstance(caps, dict):
        problems.append("clientCapabilities")
    elif not isinstance(caps.get("elicitation"), dict) or "form" not in caps["elicitation"] or "url" not in caps["elicitation"]:
        problems.append("elicitation capability")
    info = meta.get("io.modelcontextprotocol/clientInfo")
    if not isinstance(info, dict) or info.get("name") != "chat" or not info.get("version"):
        problems.append("clientInfo")
    return problems


def handle(message):
    """(response or None, what to do with the stream: None or "break")."""
    method, id_, params = message.get("method"), message.get("id"), message.get("params") or {}
    if id_ is None:
        return None, None
    if method == "initialize":
        return {"jsonrpc": "2.0", "id": id_, "error": {"code": -32022, "message": "Unsupported protocol version",
                "data": {"supported": [VERSION], "requested": params.get("protocolVersion")}}}, None
    problems = check_meta(params)
    if problems:
        return {"jsonrpc": "2.0", "id": id_, "error": {"code": -32602, "message": "bad _meta: " + ", ".join(problems)}}, None
    ok = lambda value: ({"jsonrpc": "2.0", "id": id_, "result": value}, None)
    if method == "server/discover":
        return ok(result({"supportedVersions": [VERSION], "capabilities": {"tools": {}, "prompts": {}, "resources": {}},
                          "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "modern-only", "version": "1"}}},
                         cacheable=True))
    if method == "tools/list":
        with lock:
            calls["tools/list"] = calls.get("tools/list", 0) + 1
            first = calls["tools/list"] == 1
        if transport == "http" and break_list and first:
            return None, "break"
        return ok(result({"tools": TOOLS}, cacheable=True))
    if method == "tools/call":
        name = params.get("name")
        with lock:
            calls[name] = calls.get(name, 0) + 1
            count = calls[name]
        if name == "ask":
            answers = params.get("inputResponses")
            if answers is None:
                return ok({"resultType": "input_required", "requestState": "state+/=opaque",
                           "inputRequests": {"who": {"method": "elicitation/create", "params": {
                               "message": "Who are you?", "requestedSchema": {"type": "object", "properties": {
                                   "name": {"type": "string", "title": "Name"},
                                   "age": {"type": "integer", "minimum": 0}}, "required": ["name"]}}}}})
            if params.get("requestState") != "state+/=opaque":
                return {"jsonrpc": "2.0", "id": id_, "error": {"code": -32602, "message": "requestState not echoed"}}, None
            answer = answers.get("who", {})
            text = ("Hello %s (%s)" % (answer["content"]["name"], answer["content"].get("age", "?"))
                    if answer.get("action") == "accept" else "no answer: " + str(answer.get("action")))
            return ok(result({"content": [{"type": "text", "text": text}]}))
        if name == "open_page":
            answers = params.get("inputResponses")
            if answers is None:
                return ok({"resultType": "input_required", "inputRequests": {"page": {"method": "elicitation/create",
                           "params": {"mode": "url", "url": "https://example.com/connect?x=1",
                                      "message": "Connect your account."}}}})
            if "requestState" in params:
                return {"jsonrpc": "2.0", "id": id_, "error": {"code": -32602, "message": "a requestState not given"}}, None
            return ok(result({"content": [{"type": "text", "text": "page: " + answers["page"]["action"]}]}))
        if name == "café":
            return ok(result({"content": [{"type": "text", "text": "café served"}]}))
        if name == "shape":
            return ok(result({"content": [], "structuredContent": {"count": "three"}}))
        if name in ("once", "again"):
            if transport == "http" and count == 1:
                return None, "break"
            return ok(result({"content": [{"type": "text", "text": "%s ran %d times" % (name, count)}]}))
        return {"jsonrpc": "2.0", "id": id_, "error": {"code": -32602, "message": "no such tool"}}, None
    if method == "prompts/list":
        start = int(params.get("cursor") or 0)
        page = {"prompts": PROMPTS[start:start + 2]}
        if start + 2 < len(PROMPTS):
            page["nextCursor"] = str(start + 2)
        return ok(result(page, cacheable=True))
    if method == "prompts/get":
        if params.get("inputResponses") is None:
            return ok({"resultType": "input_required", "inputRequests": {"tone": {"method": "elicitation/create",
                       "params": {"message": "Which tone?", "requestedSchema": {"type": "object", "properties": {
                           "tone": {"type": "string", "enum": ["warm", "dry"]}}, "required": ["tone"]}}}}})
        tone = params["inputResponses"]["tone"].get("content", {}).get("tone", "none")
        who = (params.get("arguments") or {}).get("who", "?")
        return ok(result({"description": "A greeting.", "messages": [
            {"role": "user", "content": {"type": "text", "text": "Greet %s, %s." % (who, tone)}},
            {"role": "assistant", "content": {"type": "text", "text": "Hello, %s!" % who}}]}))
    if method == "resources/list":
        return ok(result({"resources": [{"uri": "file:///notes.txt", "name": "notes.txt", "mimeType": "text/plain"}]},
                         cacheable=True))
    if method == "resources/templates/list":
        return ok(result({"resourceTemplates": [{"uriTemplate": "file:///{name}", "name": "a file"}]}, cacheable=True))
    if method == "resources/read":
        if params.get("inputResponses") is None:
            return ok({"resultType": "input_required", "requestState": "read-1", "inputRequests": {"ok": {
                "method": "elicitation/create", "params": {"message": "Read the notes?", "requestedSchema": {
                    "type": "object", "properties": {"sure": {"type": "boolean"}}, "required": ["sure"]}}}}})
        return ok(result({"contents": [{"uri": params.get("uri"), "mimeType": "text/plain", "text": "the notes"}]},
                         cacheable=True))
    return {"jsonrpc": "2.0", "id": id_, "error": {"code": -32601, "message": "Method not found"}}, None


def entry(message, **more):
    params = message.get("params") or {}
    value = {"transport": transport, "method": message.get("method"), "id": message.get("id"),
             "name": params.get("name", params.get("uri")), "inputResponses": params.get("inputResponses"),
             "requestState": params.get("requestState"), "violations": [], "new_id": message.get("id") not in seen_ids}
    seen_ids.add(message.get("id"))
    value.update(more)
    return value


def decode(value):
    if value and value.startswith("=?base64?") and value.endswith("?="):
        return base64.b64decode(value[9:-2]).decode()
    return value


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.send_response(405)
        self.send_header("Allow", "POST")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        params = message.get("params") or {}
        violations = []
        meta = params.get("_meta") or {}
        if self.headers.get("MCP-Protocol-Version") != meta.get("io.modelcontextprotocol/protocolVersion"):
            violations.append("MCP-Protocol-Version")
        if self.headers.get("Mcp-Method") != message.get("method"):
            violations.append("Mcp-Method")
        if message.get("method") in ("tools/call", "prompts/get", "resources/read"):
            if decode(self.headers.get("Mcp-Name")) != params.get("name", params.get("uri")):
                violations.append("Mcp-Name")
        if self.headers.get("Mcp-Session-Id") is not None:
            violations.append("Mcp-Session-Id")
        logged = entry(message, violations=violations, mcp_name=self.headers.get("Mcp-Name"))
        log(logged)
        if violations and message.get("method") != "initialize":
            return self.reply(400, {"jsonrpc": "2.0", "id": message.get("id"), "error": {
                "code": -32020, "message": "Header mismatch: " + ", ".join(violations)}})
        response, stream = handle(message)
        if response is None and stream is None:
            return self.reply(202)
        if stream == "break":
            # The answer's stream begins, then breaks off before the response.
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b": keep-alive\n\n")
            self.wfile.flush()
            self.close_connection = True
            return
        status = 200
        if "error" in response:
            status = 400 if response["error"]["code"] in (-32022, -32602, -32020, -32021) else 404
        self.reply(status, response)


if transport == "http":
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
else:
    for line in sys.stdin:
        message = json.loads(line)
        log(entry(message))
        response, _ = handle(message)
        if response is not None:
            sys.stdout.write(json.dumps(response) + "\n")
            sys.stdout.flush()
