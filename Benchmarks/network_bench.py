#!/usr/bin/env python3
"""Time to the first token over a network: chat, and a Python client that keeps its connection
(httpx), against an OpenAI-compatible server over TLS (a test CA; hypercorn, HTTP/1.1 and then
HTTP/2) behind Benchmarks/latency_proxy.py, which adds a fixed delay each way. Rows: the REPL's
turn 1 (after a second of "typing") and turns 2-5, the first token timed from the moment the line
is written; a one-shot with its question piped after a second; a one-shot with the question as
an argument, from the process's start; a tool round (the gap between an answer calling an MCP
tool and the request carrying its result). Each against the ideal (round trips x 2 x delay + the
server's own time). Those rows speak OpenAI's Chat Completions; the REPL's turns are also timed
on Anthropic's Messages wire and OpenAI's Responses wire (chat pointed at each by a config that
names its `provider`), a row each. Writes its section of docs/PERFORMANCE.md (between its own
markers).

    network_bench.py --chat PATH [--before PATH] [--delay-ms 20] [--server-ms 10] [--rounds 5]
                     [--venv DIR] [--out docs/PERFORMANCE.md]
"""
import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ANSWER = b"Hello there, friend.\n"
BEGIN = "<!-- Benchmarks/network writes from here to its end marker; edit outside the markers. -->"
END = "<!-- End of what Benchmarks/network writes. -->"


def make_venv(path):
    """A venv with hypercorn and httpx (HTTP/2), from the package index pip is set up for."""
    python = os.path.join(path, "bin", "python")
    check = [python, "-c", "import hypercorn, httpx, h2"]
    if os.path.exists(python) and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    subprocess.run([sys.executable, "-m", "venv", path], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", "hypercorn", "httpx[http2]"], check=True)
    subprocess.run(check, check=True)
    return python


def make_ca(directory):
    """A CA and a server certificate for 127.0.0.1 (EC P-256), as the TLS tests make them."""
    def openssl(*arguments):
        subprocess.run(["openssl", *arguments], check=True, capture_output=True)
    key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    d = directory
    openssl("req", "-x509", *key, "-keyout", f"{d}/ca.key", "-out", f"{d}/ca.pem", "-days", "2",
            "-subj", "/CN=bench CA", "-addext", "basicConstraints=critical,CA:TRUE",
            "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    openssl("req", "-new", *key, "-keyout", f"{d}/server.key", "-out", f"{d}/server.csr", "-subj", "/CN=127.0.0.1")
    with open(f"{d}/server.ext", "w") as f:
        f.write("basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", f"{d}/server.csr", "-CA", f"{d}/ca.pem", "-CAkey", f"{d}/ca.key",
            "-set_serial", "2", "-days", "2", "-out", f"{d}/server.pem", "-extfile", f"{d}/server.ext")
    return f"{d}/ca.pem"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


class Proxy:
    """Benchmarks/latency_proxy.py, counting the connections it accepts."""

    def __init__(self, upstream, delay_ms):
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "latency_proxy.py"), str(upstream), str(delay_ms)],
            stdout=subprocess.PIPE)
        self.port = int(self.process.stdout.readline())
        self.accepted = 0
        threading.Thread(target=self._count, daemon=True).start()

    def _count(self):
        for line in self.process.stdout:
            if line.strip() == b"accept":
                self.accepted += 1

    def stop(self):
        self.process.kill()
        self.process.wait()


class Output:
    """A child's stdout, read on a thread of its own: when its first byte came after a mark,
    and when a whole answer (up to its newline) had."""

    def __init__(self, stream, mark=None):
        self.stream = stream
        self.lock = threading.Condition()
        self.data = b""
        self.mark = mark
        self.first = None
        self.expected = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            chunk = os.read(self.stream.fileno(), 65536)
            now = time.monotonic()
            with self.lock:
                if chunk and self.mark is not None and self.first is None:
                    self.first = now
                self.data += chunk
                self.lock.notify_all()
            if not chunk:
                return

    def start(self):
        with self.lock:
            self.mark, self.first = time.monotonic(), None
            self.expected = self.data.count(b"\n") + 1
        return self.mark

    def wait_answer(self, timeout=30):
        with self.lock:
            ok = self.lock.wait_for(lambda: self.data.count(b"\n") >= self.expected, timeout)
            if not ok:
                raise RuntimeError(f"no answer; output so far: {self.data[-200:]!r}")
            return self.first - self.mark


# The other wires chat speaks: a row's name, and the `provider` its config names.
WIRES = [("Anthropic Messages", "anthropic"), ("OpenAI Responses", "openai-responses")]


def chat_repl(chat, base, ca, turns, typing, options=()):
    """First-token seconds of each REPL turn."""
    process = subprocess.Popen([chat, "-i", *options, "--base-url", base, "--ca-cert", ca, "--no-history"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = Output(process.stdout)
    time.sleep(typing)
    times = []
    for turn in range(turns):
        output.start()
        process.stdin.write(b"question %d\n" % turn)
        process.stdin.flush()
        times.append(output.wait_answer())
        time.sleep(0.2)
    process.stdin.close()
    if process.wait(timeout=20) != 0:
        raise RuntimeError(process.stderr.read().decode())
    if output.data.count(ANSWER.strip()) != turns:
        raise RuntimeError(f"the REPL's answers were not the server's; output: {output.data[-300:]!r}")
    return times


def chat_piped(chat, base, ca, typing):
    """First-token seconds of a one-shot whose question comes on stdin after `typing` seconds."""
    process = subprocess.Popen([chat, "--base-url", base, "--ca-cert", ca, "--no-history"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = Output(process.stdout)
    time.sleep(typing)
    output.start()
    process.stdin.write(b"question\n")
    process.stdin.close()
    seconds = output.wait_answer()
    process.wait(timeout=20)
    return seconds


def chat_argument(chat, base, ca):
    """First-token seconds of a one-shot with the question as an argument, from the start."""
    started = time.monotonic()
    process = subprocess.Popen([chat, "--base-url", base, "--ca-cert", ca, "--no-history", "question"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output = Output(process.stdout, mark=started)
    seconds = output.wait_answer()
    process.wait(timeout=20)
    return seconds


PYTHON_CLIENT = r"""
import httpx, json, sys, time
base, ca, http2, turns, typing = sys.argv[1], sys.argv[2], sys.argv[3] == "h2", int(sys.argv[4]), float(sys.argv[5])
body = {"model": "bench", "stream": True, "messages": [{"role": "user", "content": "question"}]}
times = []
with httpx.Client(http2=http2, verify=ca, timeout=30) as client:
    time.sleep(typing)
    for turn in range(turns):
        started = time.monotonic()
        first = None
        with client.stream("POST", base + "/chat/completions", json=body,
                           headers={"Authorization": "Bearer bench"}) as response:
            for line in response.iter_lines():
                if first is None and line.startswith("data: ") and '"content"' in line:
                    first = time.monotonic() - started
        times.append(first)
        time.sleep(0.2)
print(json.dumps(times))
"""


def tool_gaps(timing_file):
    """From the server's and the tool's timings of one tool round: seconds between the end of the
    answer that called the tool and the arrival of the request carrying its result, less the
    tool's own time."""
    requests, tool = [], 0.0
    with open(timing_file) as f:
        for line in f:
            kind, start, end = line.split()
            if kind == "request":
                requests.append((float(start), float(end)))
            else:
                tool += float(end) - float(start)
    if len(requests) != 2:
        raise RuntimeError(f"a tool round is two requests; the server saw {len(requests)}")
    return requests[1][0] - requests[0][1] - tool


def chat_tool_round(chat, base, ca, timing_file):
    """A one-shot whose answer calls the benchmark's MCP tool (approved for the run): the gap."""
    open(timing_file, "w").close()
    result = subprocess.run([chat, "-T", "bench", "--yes-tools", "bench", "--base-url", base, "--ca-cert", ca,
                             "--no-history", "what time is it?"], stdin=subprocess.DEVNULL, capture_output=True,
                            timeout=60)
    if result.returncode != 0 or ANSWER.strip() not in result.stdout:
        raise RuntimeError(f"the tool round failed: {result.stderr.decode()}")
    return tool_gaps(timing_file)


PYTHON_TOOL_CLIENT = r"""
import httpx, sys
base, ca, http2 = sys.argv[1], sys.argv[2], sys.argv[3] == "h2"
tool = {"type": "function", "function": {"name": "now", "parameters": {"type": "object", "properties": {}}}}
messages = [{"role": "user", "content": "what time is it?"}]
with httpx.Client(http2=http2, verify=ca, timeout=30) as client:
    for _ in range(2):
        body = {"model": "bench", "stream": True, "messages": messages, "tools": [tool]}
        with client.stream("POST", base + "/chat/completions", json=body,
                           headers={"Authorization": "Bearer bench"}) as response:
            for line in response.iter_lines():
                pass
        call = {"id": "call_bench", "type": "function", "function": {"name": "now", "arguments": "{}"}}
        messages += [{"role": "assistant", "tool_calls": [call]},
                     {"role": "tool", "tool_call_id": "call_bench", "content": "12:00"}]
"""


def speaks(chat, options, base, ca):
    """Whether this chat binary takes the wire's config (an earlier release may not know it)."""
    result = subprocess.run([chat, *options, "--base-url", base, "--ca-cert", ca, "--no-history", "question"],
                            stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
    return result.returncode == 0 and ANSWER.strip() in result.stdout


def python_tool_round(python, base, ca, protocol, timing_file):
    open(timing_file, "w").close()
    subprocess.run([python, "-c", PYTHON_TOOL_CLIENT, base, ca, protocol], capture_output=True, check=True)
    return tool_gaps(timing_file)


def python_client(python, base, ca, protocol, turns, typing):
    result = subprocess.run([python, "-c", PYTHON_CLIENT, base, ca, protocol, str(turns), str(typing)],
                            capture_output=True, check=True)
    return json.loads(result.stdout)


def stop_group(process):
    """Ends `process` and the processes of its session (it leads its own group)."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    except ProcessLookupError:
        pass
    # Workers that outlived their parent are still in the group.
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def med_ms(values):
    return statistics.median(values) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chat", required=True)
    parser.add_argument("--before", help="another chat binary to measure beside it (e.g. one before a change)")
    parser.add_argument("--before-label", default="chat before", help="its row's name")
    parser.add_argument("--delay-ms", type=int, default=20, help="added each way (default 20: a 40 ms round trip)")
    parser.add_argument("--server-ms", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--typing", type=float, default=1.0)
    parser.add_argument("--venv", default=os.path.join(HERE, "..", ".build", "bench-venv"))
    parser.add_argument("--out")
    options = parser.parse_args()
    python = make_venv(os.path.abspath(options.venv))
    hypercorn = os.path.join(os.path.dirname(python), "hypercorn")
    work = tempfile.mkdtemp(prefix="chat-network-")
    ca = make_ca(work)
    timing_file = os.path.join(work, "timing")
    env = dict(os.environ, OPENAI_API_KEY="bench", ANTHROPIC_API_KEY="bench", HOME=work, XDG_CONFIG_HOME=work + "/config",
               XDG_DATA_HOME=work + "/data", SERVER_MS=str(options.server_ms), TIMING_FILE=timing_file)
    # The tool round's MCP server; the other rows ask for no tools, so it is never started for them.
    os.makedirs(work + "/config/chat")
    with open(work + "/config/chat/config.json", "w") as f:
        json.dump({"mcp_servers": {"bench": {"command": sys.executable, "args": [os.path.join(HERE, "network_tool.py")],
                                             "env": {"TIMING_FILE": timing_file}}}}, f)
    # A config per other wire, naming only its provider (given with --config: no MCP servers).
    wire_configs = {}
    for label, provider in WIRES:
        wire_configs[label] = os.path.join(work, f"config-{provider}.json")
        with open(wire_configs[label], "w") as f:
            json.dump({"provider": provider}, f)
    os.environ.update(env)
    for name in ("https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        os.environ.pop(name, None)
    rtt = 2 * options.delay_ms / 1000
    ideal = {"kept": rtt + options.server_ms / 1000, "new": 3 * rtt + options.server_ms / 1000}
    load_before = os.getloadavg()[0]
    started = time.time()
    results = {}
    notes = []
    for protocol in ("h1", "h2"):
        port = free_port()
        config = os.path.join(work, f"hypercorn-{protocol}.toml")
        with open(config, "w") as f:
            f.write(f'bind = ["127.0.0.1:{port}"]\ncertfile = "{work}/server.pem"\nkeyfile = "{work}/server.key"\n'
                    f'alpn_protocols = {json.dumps(["h2", "http/1.1"] if protocol == "h2" else ["http/1.1"])}\n'
                    'loglevel = "WARNING"\n')
        # A session of its own: hypercorn's workers are its children, ended with it (stop_group).
        server = subprocess.Popen([hypercorn, "--config", config, "network_server:app"], cwd=HERE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for_port(port)
        proxy = Proxy(port, options.delay_ms)
        base = f"https://127.0.0.1:{proxy.port}/v1"
        clients = [("chat", options.chat)] + ([(options.before_label, options.before)] if options.before else [])
        rows = {}
        for name, binary in clients:
            repl, connections, piped, argument, tool, tool_connections = [], [], [], [], [], []
            for _ in range(options.rounds):
                if name == "chat":  # a binary from before tools has no -T
                    before = proxy.accepted
                    tool.append(chat_tool_round(binary, base, ca, timing_file))
                    tool_connections.append(proxy.accepted - before)
                before = proxy.accepted
                repl.append(chat_repl(binary, base, ca, 5, options.typing))
                time.sleep(0.1)
                connections.append(proxy.accepted - before)
                piped.append(chat_piped(binary, base, ca, options.typing))
                argument.append(chat_argument(binary, base, ca))
            rows[name] = {"turn1": [r[0] for r in repl], "later": [t for r in repl for t in r[1:]],
                          "connections": connections, "piped": piped, "argument": argument, "tool": tool,
                          "tool_connections": tool_connections}
        # The REPL on the other wires: the same turns, chat pointed at each by its config.
        for label, provider in WIRES:
            options_for_wire = ["--config", wire_configs[label]]
            for name, binary in clients:
                if name != "chat" and not speaks(binary, options_for_wire, base, ca):
                    notes.append(f"{name} is not run on the {label} wire: it does not take "
                                 f"`\"provider\": \"{provider}\"`")
                    continue
                repl, connections = [], []
                for _ in range(options.rounds):
                    before = proxy.accepted
                    repl.append(chat_repl(binary, base, ca, 5, options.typing, options_for_wire))
                    time.sleep(0.1)
                    connections.append(proxy.accepted - before)
                rows[f"{name} ({label})"] = {"turn1": [r[0] for r in repl], "later": [t for r in repl for t in r[1:]],
                                             "connections": connections, "wire": label, "client": name}
        repl, connections, tool = [], [], []
        for _ in range(options.rounds):
            tool.append(python_tool_round(python, base, ca, protocol, timing_file))
            before = proxy.accepted
            repl.append(python_client(python, base, ca, protocol, 5, options.typing))
            connections.append(proxy.accepted - before)
        rows["httpx"] = {"turn1": [r[0] for r in repl], "later": [t for r in repl for t in r[1:]],
                         "connections": connections, "tool": tool}
        proxy.stop()
        stop_group(server)
        results[protocol] = rows
    elapsed = time.time() - started
    markdown = render(results, options, ideal, load_before, os.getloadavg()[0], elapsed, sorted(set(notes)))
    print(markdown)
    if options.out:
        write_section(options.out, markdown)


def render(results, options, ideal, load_before, load_after, elapsed, notes=()):
    lines = [
        "## Over a network: time to the first token",
        "",
        f"Measured by [`Benchmarks/network`](../Benchmarks/network) on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} "
        f"(load average {load_before:.2f} before, {load_after:.2f} after; {elapsed:.0f} s): chat and a Python client "
        "that keeps its connection (httpx, in a venv the benchmark makes) against hypercorn over TLS (a test CA; "
        f"HTTP/1.1, then HTTP/2) behind a proxy that adds {options.delay_ms} ms each way "
        f"({2 * options.delay_ms} ms round trip, the TCP handshake included); the server thinks {options.server_ms} ms "
        "before its first piece. Medians over "
        f"{options.rounds} rounds (turns 2-5: over all of them), in ms, with the ratio to the ideal: one round trip "
        f"and the server's time ({ideal['kept'] * 1000:.0f} ms) on a connection made before the question, three "
        f"(TCP, TLS 1.3, the request: {ideal['new'] * 1000:.0f} ms) on a new one, which for the one-shot with "
        "its question as an argument also holds the process's start. The tool round: a one-shot whose first "
        "answer calls an MCP tool (Benchmarks/network_tool.py, over stdio, approved with --yes-tools), timed at "
        "the server from the end of that answer to the arrival of the request carrying the tool's result, less "
        f"the tool's own time, against one round trip ({rtt_ms(options)} ms), the ideal; a new connection for it "
        "would add two more. These rows speak OpenAI's Chat Completions; the rows `chat (Anthropic Messages)` and "
        "`chat (OpenAI Responses)` time the same REPL turns on those wires (chat given a config that names the "
        "`provider`; the server sends the same four pieces in each API's full event shapes).",
        "",
    ] + [note + "." for note in notes] + ([""] if notes else []) + [
        "| Protocol | Client | REPL turn 1 (after 1 s of typing) | REPL turns 2-5 | Connections per 5-turn REPL "
        "| One-shot, question piped after 1 s | One-shot, question as argument (from the start) "
        "| Tool round (connections) |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def cell(values, against):
        if not values:
            return "—"
        ms = med_ms(values)
        return f"{ms:.0f} ({ms / (against * 1000):.2f}×)"

    for protocol, rows in results.items():
        label = "HTTP/1.1" if protocol == "h1" else "HTTP/2"
        for name, row in rows.items():
            connections = sorted(set(row["connections"]))
            lines.append(
                f"| {label} | {name} | {cell(row['turn1'], ideal['kept'])} | {cell(row['later'], ideal['kept'])} "
                f"| {'–'.join(str(c) for c in connections)} | {cell(row.get('piped', []), ideal['kept'])} "
                f"| {cell(row.get('argument', []), ideal['new'])} "
                f"| {cell(row.get('tool', []), 2 * options.delay_ms / 1000)}"
                f"{' (' + '–'.join(str(c) for c in sorted(set(row['tool_connections']))) + ')' if row.get('tool_connections') else ''} |")
    lines += ["", "Budgets (issues 26 and 39): REPL turns 2-5 ≤ 1.15× the ideal on each provider's wire, REPL "
              "turn 1 ≤ 1.3×, a tool round adds at most one round trip (here: its gap ≤ 1.15× one round trip)."]

    def turns(row):
        later, first = med_ms(row["later"]) / (ideal["kept"] * 1000), med_ms(row["turn1"]) / (ideal["kept"] * 1000)
        return (f"turns 2-5 {later:.2f}× ({'met' if later <= 1.15 else 'not met'}), "
                f"turn 1 {first:.2f}× ({'met' if first <= 1.3 else 'not met'})")

    for protocol, rows in results.items():
        row = rows["chat"]
        label = "HTTP/1.1" if protocol == "h1" else "HTTP/2"
        tool = med_ms(row["tool"]) / (2 * options.delay_ms)
        wires = "".join(f"; {r['wire']}: {turns(r)}" for r in rows.values() if r.get("client") == "chat")
        lines.append(f"- {label}: Chat Completions: {turns(row)}, "
                     f"tool round {tool:.2f} round trips ({'met' if tool <= 1.15 else 'not met'}){wires}.")
    return "\n".join(lines)


def rtt_ms(options):
    return 2 * options.delay_ms


def write_section(path, markdown):
    """Replaces this benchmark's section of `path` (between its markers), or appends it."""
    with open(path) as f:
        text = f.read()
    section = BEGIN + "\n" + markdown + "\n" + END
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
