#!/usr/bin/env python3
"""Benchmarks the release `chat` against `curl -sN` (the floor) and, when installed, `llm` and
`sgpt`, all talking to Benchmarks/fake_server.py on 127.0.0.1, and writes a Markdown report.
The scenarios speak OpenAI's Chat Completions; the event-framed long stream is also run on
Anthropic's Messages wire and OpenAI's Responses wire (chat and curl, and the baseline where it
speaks the wire), chat pointed at each by a config that names its `provider`.

Run it through Benchmarks/run, which builds the binaries first. Python 3 standard library only.

Method, for every scenario: one warm-up run per client, then K rounds; each round runs every
client once, in alternating order (chat, curl, peers…, then the reverse), so drift in the machine
hits all clients alike. A ratio against curl is computed per round (client ÷ curl of the same
round) and the median of those ratios is reported, with their min and max. Wall time is from
spawn to exit (as hyperfine measures it); CPU (user + sys) and peak RSS come from wait4's rusage
of the child. Every run's output is checked.
"""

import argparse
import datetime
import fcntl
import hashlib
import json
import os
import platform
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fake_server  # noqa: E402  (same directory)

NO_HISTORY = "chat --no-history"
BEFORE = "chat (before)"
RENDERED = "chat, rendering on"
RAW = "chat --raw"
RUN_TIMEOUT = 120  # seconds; a run that takes longer is killed and counted as failed


# MARK: - Processes


class Run:
    """What one run of one client gave."""

    def __init__(self, wall, cpu, rss_kib, status, stdout, stderr):
        self.wall = wall  # seconds
        self.cpu = cpu  # seconds, user + sys
        self.rss_kib = rss_kib
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.ok = status == 0
        self.note = ""
        self.added = None  # time to first token: seconds the client added to the server's


def _kill_after(pid, seconds):
    def kill():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(seconds, kill)
    timer.daemon = True
    timer.start()
    return timer


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def run_measured(argv, env, stdin_path=None, workdir=None, rss=False):
    """Runs argv with stdout and stderr to files; wall time and CPU from wait4.

    Peak RSS (`rss`) needs GNU time in between: a child forked from this Python process keeps
    Python's high-water mark through exec, so wait4's ru_maxrss would be Python's, not the client's.
    /usr/bin/time is small, and forks the client from itself.
    """
    out_path = os.path.join(workdir, "stdout")
    err_path = os.path.join(workdir, "stderr")
    rss_path = os.path.join(workdir, "rss")
    if rss and GNU_TIME:
        argv = [GNU_TIME, "-f", "%M", "-o", rss_path] + argv
    with open(stdin_path or os.devnull, "rb") as stdin, open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter_ns()
        process = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=err, env=env, close_fds=True)
        timer = _kill_after(process.pid, RUN_TIMEOUT)
        _, status, usage = os.wait4(process.pid, 0)
        end = time.perf_counter_ns()
        timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
    with open(out_path, "rb") as f:
        stdout = f.read()
    with open(err_path, "rb") as f:
        stderr = f.read()
    peak = None
    if rss and GNU_TIME:
        try:
            with open(rss_path) as f:
                peak = int(f.read().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
    return Run((end - start) / 1e9, usage.ru_utime + usage.ru_stime, peak, process.returncode, stdout, stderr)


def run_on_pty(argv, env, marker: bytes):
    """Runs argv with stdout on a pseudo-terminal (stderr to a pipe) and notes, in the clock of
    time.monotonic_ns(), when `marker` (the first piece's text) has appeared on the terminal."""
    master, slave = os.openpty()
    # A terminal of 100 columns and 40 rows, as a person's might be.
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    start = time.perf_counter_ns()
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.PIPE, env=env, close_fds=True
    )
    os.close(slave)
    timer = _kill_after(process.pid, RUN_TIMEOUT)
    seen_ns = None
    data = bytearray()
    while True:
        readable, _, _ = select.select([master], [], [], RUN_TIMEOUT)
        if not readable:
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every holder of the terminal's other end has closed it
            break
        now = time.monotonic_ns()
        if not chunk:
            break
        data += chunk
        if seen_ns is None and marker in data:
            seen_ns = now
    os.close(master)
    stderr = process.stderr.read()
    process.stderr.close()
    _, status, usage = os.wait4(process.pid, 0)
    end = time.perf_counter_ns()
    timer.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    run = Run((end - start) / 1e9, usage.ru_utime + usage.ru_stime, None, process.returncode, bytes(data), stderr)
    run.seen_ns = seen_ns
    return run


# MARK: - The fake server


class Server:
    def __init__(self, workdir):
        port_file = os.path.join(workdir, "port")
        # A port file left by an earlier run (history_scale.py keeps its work directory) would be
        # read before this server writes its own.
        if os.path.exists(port_file):
            os.remove(port_file)
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "fake_server.py"), "--port-file", port_file],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 10
        while not os.path.exists(port_file):
            if time.time() > deadline or self.process.poll() is not None:
                raise SystemExit("bench: the fake server did not start")
            time.sleep(0.02)
        with open(port_file) as f:
            self.port = int(f.read())
        self.root = f"http://127.0.0.1:{self.port}"

    def base(self, n=1, size=4, delay=0.0, first=0.0, v1=True, doc="", frame=""):
        shape = f"n={n},size={size},delay={delay},first={first}" + (f",doc={doc}" if doc else "") \
            + (f",frame={frame}" if frame else "")
        return f"{self.root}/b/{shape}" + ("/v1" if v1 else "")

    def stats(self, body=False):
        with urllib.request.urlopen(self.root + "/stats" + ("?body=1" if body else ""), timeout=10) as response:
            return json.loads(response.read())

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()


# MARK: - Clients


class Client:
    """A way to ask one scenario's question: argv and env, given the base URL."""

    def __init__(self, name, reps, make, warm=True):
        self.name = name
        self.reps = reps
        self.make = make  # () -> (argv, env[, stdin_path])
        self.warm = warm  # one unmeasured run first


def curl_args(body_path, url, accept="text/event-stream", endpoint="/chat/completions", headers=()):
    # -q: ignore ~/.curlrc. Same headers as chat; `Expect:` as chat sends it (none).
    extra = [arg for header in headers for arg in ("-H", header)]
    return ["curl", "-q", "-sN", "-H", "Content-Type: application/json", "-H", f"Accept: {accept}", *extra,
            "-H", "Expect:", "--data-binary", "@" + body_path, url + endpoint]


class Wire:
    """One of the APIs chat speaks besides Chat Completions, as the stream rows drive it: the
    `provider` a config of its own names (`--config`), where the request goes, the headers chat
    sends with it (so curl sends them too)."""

    def __init__(self, key, title, provider, endpoint, headers=()):
        self.key = key  # fake_server's name for the wire
        self.title = title
        self.provider = provider
        self.endpoint = endpoint
        self.headers = headers


WIRES = [
    Wire("anthropic", "Anthropic Messages", "anthropic", "/messages", ("anthropic-version: 2023-06-01",)),
    Wire("responses", "OpenAI Responses", "openai-responses", "/responses"),
]


def rounds(clients, measure):
    """Runs each client `reps` times, alternating the order each round; returns name -> [Run]."""
    results = {c.name: [] for c in clients}
    for client in clients:  # warm-up: caches, .pyc files, first-run set-up of the peers
        if client.warm:
            measure(client)
    for index in range(max(c.reps for c in clients)):
        active = [c for c in clients if index < c.reps]
        for client in (active if index % 2 == 0 else list(reversed(active))):
            results[client.name].append(measure(client))
    return results


def ratios(runs, floor, value):
    pairs = [value(a) / value(b) for a, b in zip(runs, floor) if value(b) and value(a) is not None]
    return pairs


# MARK: - Formatting


def med(values):
    return statistics.median(values) if values else None


def fmt_ms(seconds, digits=1):
    return "–" if seconds is None else f"{seconds * 1000:.{digits}f}"


def fmt_range_ms(values, digits=1):
    if not values:
        return "–"
    return f"{fmt_ms(med(values), digits)} ({fmt_ms(min(values), digits)}–{fmt_ms(max(values), digits)})"


def fmt_ratio(values):
    if not values:
        return "–"
    return f"{med(values):.2f}× ({min(values):.2f}–{max(values):.2f})"


def fmt_mib(kib_values):
    kib_values = [v for v in kib_values if v is not None]
    if not kib_values:
        return "–"
    return f"{med(kib_values) / 1024:.1f} (max {max(kib_values) / 1024:.1f})"


def checks(runs):
    bad = [r for r in runs if not r.ok]
    if not bad:
        return f"{len(runs)}/{len(runs)} ok"
    note = bad[0].note or f"exit {bad[0].status}: {bad[0].stderr[-200:].decode('utf-8', 'replace').strip()}"
    return f"{len(runs) - len(bad)}/{len(runs)} ok ({note})"


# MARK: - Main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chat", required=True, help="the release chat binary")
    parser.add_argument("--parser-benchmark", help="the release ParserBenchmark binary")
    parser.add_argument("--out", help="write the Markdown report here (default: stdout only)")
    parser.add_argument("--quick", action="store_true", help="fewer rounds (about half)")
    parser.add_argument("--no-peers", action="store_true", help="skip llm and sgpt even if installed")
    parser.add_argument("--pieces", type=int, default=20000, help="pieces in the long stream (20000)")
    parser.add_argument("--baseline", help="another chat binary (an earlier release), run beside chat in the same "
                        "rounds as the client `chat (before)`, in a home of its own")
    options = parser.parse_args()

    scale = 0.5 if options.quick else 1.0

    def reps(n):
        return max(3, int(n * scale))

    chat = os.path.abspath(options.chat)
    if not os.access(chat, os.X_OK):
        raise SystemExit(f"bench: {chat} is not an executable; build it first (Benchmarks/run does)")
    baseline = os.path.abspath(options.baseline) if options.baseline else None
    if baseline and not os.access(baseline, os.X_OK):
        raise SystemExit(f"bench: {baseline} is not an executable")
    if not shutil.which("curl"):
        raise SystemExit("bench: curl is needed (apt-get install curl)")

    peers = {}
    if not options.no_peers:
        for name in ("llm", "sgpt"):
            path = shutil.which(name)
            if path:
                peers[name] = path

    workdir = tempfile.mkdtemp(prefix="chat-bench-")
    home = os.path.join(workdir, "home")
    os.makedirs(home)
    run_dir = os.path.join(workdir, "run")
    os.makedirs(run_dir)
    base_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,  # no user config for any client: chat, curl (-q anyway), llm, sgpt
        "XDG_CONFIG_HOME": os.path.join(home, ".config"),
        "XDG_DATA_HOME": os.path.join(home, ".local", "share"),
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "TERM": "xterm-256color",
    }
    llm_dir = os.path.join(home, "llm")
    os.makedirs(llm_dir)

    started = datetime.datetime.now(datetime.timezone.utc)
    load_before = os.getloadavg()
    clock_start = time.time()
    server = Server(workdir)
    report = {"peers": {}, "scenarios": {}}
    try:
        # Peer configuration: llm reads extra models from LLM_USER_PATH; sgpt reads env variables
        # (and writes a config file into HOME on its first run).
        stream_n = options.pieces
        shapes = {
            "one": dict(n=1, size=4),
            # Each event its own HTTP chunk, OpenAI's full chunk shape, sent as fast as it goes.
            "stream": dict(n=stream_n, size=4, frame="event"),
            # The same answer in the short shape, written as a few large HTTP chunks.
            "block": dict(n=stream_n, size=4),
            "ttft": dict(n=3, size=4, delay=0.01, first=0.1),
        }
        with open(os.path.join(llm_dir, "extra-openai-models.yaml"), "w") as f:
            for key, shape in shapes.items():
                f.write(f"- model_id: bench-{key}\n  model_name: bench\n  api_base: \"{server.base(**shape)}\"\n")

        def peer_env(name, base):
            env = dict(base_env)
            if name == "llm":
                env["LLM_USER_PATH"] = llm_dir
            else:
                env.update(OPENAI_API_KEY="loopback-no-key", API_BASE_URL=base, DEFAULT_MODEL="bench")
            return env

        def peer_argv(name, key, prompt):
            if name == "llm":
                return [peers["llm"], "-m", f"bench-{key}", "--no-log", prompt]
            return [peers["sgpt"], "--no-md", "--no-cache", prompt]

        for name, path in peers.items():
            try:
                version = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60,
                                         env=peer_env(name, server.base())).stdout.strip()
            except (OSError, subprocess.TimeoutExpired):
                version = "?"
            report["peers"][name] = version

        def chat_env():
            return dict(base_env)

        before_home = os.path.join(workdir, "home-before")
        os.makedirs(before_home)

        def before_env():
            """The baseline's own home: its history never meets chat's."""
            return dict(base_env, HOME=before_home, XDG_CONFIG_HOME=os.path.join(before_home, ".config"),
                        XDG_DATA_HOME=os.path.join(before_home, ".local", "share"))

        def with_baseline(clients, reps_count, arguments):
            """`clients` and, with --baseline, the earlier chat run with `arguments` (a function of nothing)."""
            if baseline:
                clients.append(Client(BEFORE, reps_count, lambda: ([baseline] + arguments(), before_env())))
            return clients

        # The request chat sends, captured once, is what curl sends (byte for byte).
        def captured_body(base, prompt, stdin_path=None, interactive=False, options=()):
            argv = [chat] + (["-i"] if interactive else []) + list(options) + ["--base-url", base] \
                + ([] if interactive else [prompt])
            run = run_measured(argv, chat_env(), stdin_path, run_dir)
            if not run.ok:
                raise SystemExit(f"bench: chat failed against the fake server: {run.stderr.decode()}")
            stats = server.stats(body=True)
            path = os.path.join(workdir, f"body-{len(os.listdir(workdir))}.json")
            with open(path, "w") as f:
                f.write(stats["body"])
            return path, stats

        # ---- 1. Start-up
        print("bench: start-up", file=sys.stderr)
        clients = [
            # A start is ~10 ms, so one busy moment moves a round: many rounds, cheaply.
            Client("chat", reps(101), lambda: ([chat, "--version"], chat_env())),
            Client("curl", reps(101), lambda: (["curl", "--version"], chat_env())),
        ]
        with_baseline(clients, reps(101), lambda: ["--version"])
        for name in peers:
            clients.append(Client(name, 3, lambda name=name: ([peers[name], "--version"],
                                                              peer_env(name, server.base()))))

        def measure_plain(client):
            argv, env = client.make()
            run = run_measured(argv, env, None, run_dir)
            if run.ok and not run.stdout.strip():
                run.ok, run.note = False, "no output"
            return run

        report["scenarios"]["startup"] = rounds(clients, measure_plain)

        # ---- 2. One-shot, one piece
        print("bench: one-shot", file=sys.stderr)
        base_one = server.base(**shapes["one"])
        body_one, _ = captured_body(base_one, "hi")
        one_text = fake_server.answer_text(1, 4)
        clients = [
            Client("chat", reps(61), lambda: ([chat, "--base-url", base_one, "hi"], chat_env())),
            Client("curl", reps(61), lambda: (curl_args(body_one, base_one), chat_env())),
            # What recording the conversation in the history database costs.
            Client(NO_HISTORY, reps(61), lambda: ([chat, "--no-history", "--base-url", base_one, "hi"],
                                                  chat_env())),
        ]
        with_baseline(clients, reps(61), lambda: ["--base-url", base_one, "hi"])
        for name in peers:
            # Peers are slow (about a second a run, more on a busy machine): fewer rounds, and no
            # warm-up after the start-up scenario's.
            clients.append(Client(name, 2, lambda name=name: (peer_argv(name, "one", "hi"),
                                                              peer_env(name, base_one)), warm=False))

        def measure_answer(expected_text, stream_body, rss=False):
            def measure(client):
                argv, env = client.make()
                run = run_measured(argv, env, None, run_dir, rss=rss)
                if not run.ok:
                    return run
                if client.name == "curl":
                    good = run.stdout == stream_body
                elif client.name.startswith("chat"):
                    good = run.stdout == (expected_text + "\n").encode()
                else:  # peers: the text must be there; they may add a newline or other decoration
                    good = expected_text.encode() in run.stdout
                if not good:
                    run.ok = False
                    run.note = f"wrong output ({len(run.stdout)} bytes, sha256 " \
                               f"{hashlib.sha256(run.stdout).hexdigest()[:12]})"
                return run
            return measure

        report["scenarios"]["one"] = rounds(
            clients, measure_answer(one_text, fake_server.expected_stream(1, 4, include_usage=True)))

        # ---- 3. A long stream of small pieces: each event its own HTTP chunk (the main row), then
        # the same answer written in large blocks
        stream_text = fake_server.answer_text(stream_n, 4)
        for key, frame in (("stream", "event"), ("block", "block")):
            print(f"bench: {stream_n}-piece stream ({frame})", file=sys.stderr)
            base_stream = server.base(**shapes[key])
            body_stream, _ = captured_body(base_stream, "hi")
            clients = [
                Client("chat", reps(9), lambda base=base_stream: ([chat, "--base-url", base, "hi"], chat_env())),
                Client("curl", reps(9), lambda base=base_stream, body=body_stream: (curl_args(body, base), chat_env())),
                Client(NO_HISTORY, reps(9), lambda base=base_stream: (
                    [chat, "--no-history", "--base-url", base, "hi"], chat_env())),
            ]
            with_baseline(clients, reps(9), lambda base=base_stream: ["--base-url", base, "hi"])
            for name in peers:
                # One round: a peer takes many seconds here.
                clients.append(Client(name, 1, lambda name=name, key=key, base=base_stream: (
                    peer_argv(name, key, "hi"), peer_env(name, base)), warm=False))
            expected = fake_server.expected_stream(stream_n, 4, include_usage=True, frame=frame)
            report["scenarios"][key] = rounds(clients, measure_answer(stream_text, expected, rss=True))

        # ---- 3b. The same answer, each event its own HTTP chunk, on the other wires chat speaks:
        # chat pointed at the wire by a config that names its provider, curl sending chat's request
        base_stream = server.base(**shapes["stream"])
        report["wire_notes"] = []
        for wire in WIRES:
            print(f"bench: {stream_n}-piece stream (event, {wire.title})", file=sys.stderr)
            config = os.path.join(workdir, f"config-{wire.key}.json")
            with open(config, "w") as f:
                json.dump({"provider": wire.provider}, f)
            wire_options = ["--config", config]
            body_stream, stats = captured_body(base_stream, "hi", options=wire_options)
            if stats.get("wire") != wire.key:
                raise SystemExit(f"bench: chat's request for {wire.title} went to {stats.get('path')}")
            clients = [
                Client("chat", reps(9), lambda wire_options=wire_options: (
                    [chat, *wire_options, "--base-url", base_stream, "hi"], chat_env())),
                Client("curl", reps(9), lambda body=body_stream, wire=wire: (
                    curl_args(body, base_stream, endpoint=wire.endpoint, headers=wire.headers), chat_env())),
            ]
            if baseline:
                # An earlier release may not speak this wire: one try says, and its row is left out.
                probe = run_measured([baseline, *wire_options, "--base-url", server.base(), "hi"], before_env(), None,
                                     run_dir)
                if probe.ok:
                    with_baseline(clients, reps(9),
                                  lambda wire_options=wire_options: [*wire_options, "--base-url", base_stream, "hi"])
                else:
                    report["wire_notes"].append(f"`{BEFORE}` is not run on the {wire.title} wire: it does not take "
                                                f"`\"provider\": \"{wire.provider}\"` (exit {probe.status})")
            expected = fake_server.wire_stream(wire.key, stream_n, 4)
            report["scenarios"]["stream-" + wire.key] = rounds(
                clients, measure_answer(stream_text, expected, rss=True))

        # ---- 4. Time to first token under a pseudo-terminal
        print("bench: time to first token", file=sys.stderr)
        base_ttft = server.base(**shapes["ttft"])
        body_ttft, _ = captured_body(base_ttft, "hi")
        marker = fake_server.piece_text(0, 4).encode()
        # 75 rounds: the added time is a fraction of a millisecond, and with 25 the median ratio
        # of two runs of identical code passed 1.2x in about 6% of resampled runs on a loaded
        # machine (docs/PERFORMANCE.md, round 22); with 75, under 1%.
        clients = [
            # On a terminal chat renders by default; the row held to curl is `--raw`, as before.
            Client("chat", reps(75), lambda: ([chat, "--raw", "--base-url", base_ttft, "hi"], chat_env())),
            Client("curl", reps(75), lambda: (curl_args(body_ttft, base_ttft), chat_env())),
            Client(RENDERED, reps(75), lambda: ([chat, "--base-url", base_ttft, "hi"], chat_env())),
        ]
        with_baseline(clients, reps(75), lambda: ["--raw", "--base-url", base_ttft, "hi"])
        for name in peers:
            clients.append(Client(name, 2, lambda name=name: (peer_argv(name, "ttft", "hi"),
                                                              peer_env(name, base_ttft)), warm=False))

        def measure_ttft(client):
            argv, env = client.make()
            run = run_on_pty(argv, env, marker)
            sent = server.stats().get("first_content_ns")
            if run.ok and (run.seen_ns is None or sent is None):
                run.ok, run.note = False, "the first piece never appeared"
            if run.ok:
                run.added = (run.seen_ns - sent) / 1e9
            return run

        report["scenarios"]["ttft"] = rounds(clients, measure_ttft)

        # ---- 4b. A long Markdown answer on a pseudo-terminal, rendered and raw
        print(f"bench: {stream_n}-piece Markdown answer on a terminal", file=sys.stderr)
        base_md = server.base(n=stream_n, size=4, doc="markdown")
        md_text = fake_server.answer_text(stream_n, 4, "markdown")
        # 25 rounds: with 9, the median ratio moved between 1.41× and 1.63× from one run to the
        # next on a quiet machine (24 interleaved rounds: 1.35×).
        clients = [
            Client(RENDERED, reps(25), lambda: ([chat, "--base-url", base_md, "hi"], chat_env())),
            Client(RAW, reps(25), lambda: ([chat, "--raw", "--base-url", base_md, "hi"], chat_env())),
        ]

        def measure_markdown(client):
            argv, env = client.make()
            run = run_on_pty(argv, env, b"Section 1")
            if not run.ok:
                return run
            shown = run.stdout.decode("utf-8", "replace")
            if client.name == RAW:
                # The terminal turns each newline into CR LF; the text is otherwise byte for byte.
                good = shown == (md_text + "\n").replace("\n", "\r\n")
            else:
                good = "Section 1" in shown and "\x1b[" in shown and "```" not in shown
            if not good:
                run.ok, run.note = False, f"unexpected output ({len(run.stdout)} bytes)"
            return run

        report["scenarios"]["markdown"] = rounds(clients, measure_markdown)

        # ---- 5. Conversations of 1, 100 and 1,000 earlier turns
        print("bench: conversations", file=sys.stderr)
        conversation = {}
        base_conv = server.base(n=1, size=4)
        for turns in (1, 100, 1000):
            path = os.path.join(workdir, f"conversation-{turns}.json")
            with open(path, "w") as f:
                json.dump(conversation_file(turns), f)
            script = os.path.join(workdir, f"script-{turns}.txt")
            with open(script, "w") as f:
                f.write(f"/load {path}\nhi\n")
            body, stats = captured_body(base_conv, "hi", stdin_path=script, interactive=True)
            if stats["messages"] != 2 * turns + 1:
                raise SystemExit(f"bench: /load sent {stats['messages']} messages, not {2 * turns + 1}")
            clients = [
                Client("chat", reps(9), lambda script=script: (
                    [chat, "-i", "--base-url", base_conv], chat_env(), script)),
                Client("curl", reps(9), lambda body=body: (curl_args(body, base_conv), chat_env(), None)),
            ]

            def measure_conversation(client, turns=turns):
                argv, env, stdin_path = client.make()
                run = run_measured(argv, env, stdin_path, run_dir)
                stats = server.stats()
                if run.ok and stats["messages"] != 2 * turns + 1:
                    run.ok, run.note = False, f"{stats['messages']} messages sent"
                if run.ok and client.name == "chat" and run.stdout != (one_text + "\n").encode():
                    run.ok, run.note = False, "wrong output"
                return run

            conversation[turns] = (stats["request_bytes"], rounds(clients, measure_conversation))
        report["scenarios"]["conversation"] = conversation

        # ---- 6. The parser micro-benchmark
        parser_result = None
        if options.parser_benchmark:
            print("bench: parser micro-benchmark", file=sys.stderr)
            out = subprocess.run([options.parser_benchmark, "--json", "--pieces", str(stream_n),
                                  "--repeat", str(reps(9))], capture_output=True, text=True, timeout=300)
            if out.returncode == 0:
                parser_result = json.loads(out.stdout)
            else:
                print(f"bench: ParserBenchmark failed: {out.stderr}", file=sys.stderr)
        report["parser"] = parser_result

        # ---- 7. The binary's size, stripped as scripts/install installs it
        stripped = os.path.join(workdir, "chat-stripped")
        if shutil.which("strip") and subprocess.run(["strip", "-o", stripped, chat]).returncode == 0:
            report["binary_bytes"] = os.path.getsize(stripped)
        report["binary_unstripped_bytes"] = os.path.getsize(chat)
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)

    elapsed = time.time() - clock_start
    markdown = render(report, options, chat, started, load_before, os.getloadavg(), elapsed, stream_n)
    print(markdown)
    if options.out:
        write_report(options.out, markdown)
        print(f"bench: wrote {options.out}", file=sys.stderr)
    raw = os.path.join(os.path.dirname(HERE), "benchmarks-out")
    os.makedirs(raw, exist_ok=True)
    with open(os.path.join(raw, "results.json"), "w") as f:
        json.dump(raw_results(report), f, indent=1)


BEGIN = "<!-- Benchmarks/run writes from here to the end marker; edit outside the markers. -->"
END = "<!-- End of what Benchmarks/run writes. -->"


def write_report(path, markdown):
    """Replaces the measured part of `path` (between the markers), keeping the text around it."""
    before, after = "# Performance\n\n", "\n"
    try:
        with open(path) as f:
            text = f.read()
        if BEGIN in text and END in text:
            before = text[:text.index(BEGIN)]
            after = text[text.index(END) + len(END):]
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w") as f:
        f.write(before + BEGIN + "\n" + markdown + "\n" + END + after)


def conversation_file(turns):
    """A conversation as /save writes it (ConversationFileDTO), with `turns` user–assistant pairs."""
    messages = []
    for i in range(turns):
        messages.append({"role": "user", "content": f"Question {i}: " + "how does this part work? " * 3})
        messages.append({"role": "assistant", "content": f"Answer {i}: " + "It works like this, step by step. " * 9})
    return {"format": "chat-conversation", "version": 1, "model": "bench", "messages": messages}


def raw_results(report):
    def runs(rs):
        return [dict(wall=r.wall, cpu=r.cpu, rss_kib=r.rss_kib, ok=r.ok, note=r.note, added=r.added) for r in rs]

    out = {"peers": report["peers"], "parser": report.get("parser"), "scenarios": {}}
    for key, value in report["scenarios"].items():
        if key == "conversation":
            out["scenarios"][key] = {str(t): {"request_bytes": b, "runs": {n: runs(rs) for n, rs in r.items()}}
                                     for t, (b, r) in value.items()}
        else:
            out["scenarios"][key] = {n: runs(rs) for n, rs in value.items()}
    return out


# MARK: - The report


def machine():
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        cpu = platform.processor() or "?"
    ram = "?"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    ram = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
                    break
    except OSError:
        pass
    return os.cpu_count(), cpu, ram


def tool_version(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.splitlines()[0].strip()
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return "?"


def render(report, options, chat, started, load_before, load_after, elapsed, stream_n):
    s = report["scenarios"]
    nproc, cpu, ram = machine()
    lines = []
    add = lines.append
    add("Measured by [`Benchmarks/run`](../Benchmarks/run), which builds the release binary the way")
    add("`scripts/chat` does (`swift build -c release --static-swift-stdlib`) and runs it against a fake")
    add("OpenAI-compatible server on 127.0.0.1 ([`Benchmarks/fake_server.py`](../Benchmarks/fake_server.py)),")
    add("side by side with `curl -sN` sending the same request (the floor: no parsing at all) and, when")
    add("installed, the Python clients `llm` and `sgpt`. This file is written by that command; rerun it")
    add("to measure your machine.")
    add("")
    add(f"- Date: {started.strftime('%Y-%m-%d %H:%M UTC')}; the run took {elapsed:.0f} s")
    add(f"- Machine: {nproc} CPUs, {cpu}, {ram} RAM; {platform.system()} {platform.release()}")
    add(f"- Load average before / after: {load_before[0]:.2f} / {load_after[0]:.2f} "
        "(other work on the machine slows every client; the per-round ratios absorb most of it)")
    add(f"- {tool_version([chat, '--version'])}; {tool_version(['swift', '--version'])}")
    add(f"- {tool_version(['curl', '--version'])}")
    if options.baseline:
        add(f"- Baseline, run beside chat in the same rounds as `{BEFORE}`: "
            f"{tool_version([os.path.abspath(options.baseline), '--version'])} ({options.baseline})")
    if report["peers"]:
        add("- Peers: " + "; ".join(f"{n} ({v})" for n, v in report["peers"].items()))
    else:
        add("- Peers: none on `PATH` (`pipx install llm shell-gpt` adds them to the next run)")
    add("")

    # Main table
    add("## Results")
    add("")
    add("Medians over the rounds, with min–max. Ratios are against curl, computed round by round")
    add("(client ÷ curl of the same round), then the median of those ratios (with min–max). Peak RSS")
    add("is measured in the stream scenarios only, through GNU time" + ("" if GNU_TIME else
        " (not installed here: `apt-get install time`)") + "; its median, and its largest run.")
    add("The main stream row is framed as real servers send it: each event its own HTTP chunk, in")
    add("OpenAI's full chunk shape (`id`, `object`, `created`, `model`, `service_tier`,")
    add("`system_fingerprint`, `logprobs: null`, `usage: null`), sent as fast as the socket takes it (a")
    add("proxy flushing its buffer, a fast local server, a replay): libcurl hands each HTTP chunk to the")
    add("client on its own. The second is the same answer in the short shape, written in a few large")
    add("HTTP chunks. The next two are the first on the other wires chat speaks, chat pointed at each by")
    add("a config naming its `provider`: Anthropic's Messages stream (`event:` lines, `message_start`,")
    add("`content_block_start`, `ping`, a `content_block_delta` per piece, `content_block_stop`,")
    add("`message_delta` with the usage, `message_stop`) and OpenAI's Responses stream (`event:` lines,")
    add("`response.created`, `response.in_progress`, the item and part added, a `response.output_text.delta`")
    add("per piece with its `sequence_number`, ids, `logprobs: []` and `obfuscation` padding, then the text")
    add("done, the part done and the item done, each with the whole text, and `response.completed` with it")
    add("once more and the usage).")
    for note in report.get("wire_notes", []):
        add("")
        add(note + ".")
    add("")
    add("| Scenario | Client | Wall ms | Ratio to curl | CPU ms (user+sys) | Peak RSS MiB | Output |")
    add("|---|---|---|---|---|---|---|")

    def row(title, name, runs, floor):
        wall = fmt_range_ms([r.wall for r in runs])
        ratio = "1 (floor)" if name == "curl" else fmt_ratio(ratios(runs, floor, lambda r: r.wall))
        cpu_ms = fmt_range_ms([r.cpu for r in runs])
        rss = fmt_mib([r.rss_kib for r in runs])
        add(f"| {title} | {name} | {wall} | {ratio} | {cpu_ms} | {rss} | {checks(runs)} |")

    titles = {
        "startup": "Start-up (`--version`)",
        "one": "One-shot, 1 piece",
        "stream": f"Stream of {stream_n:,} pieces of 4 bytes, each event its own HTTP chunk (Chat Completions)",
        "block": f"Stream of {stream_n:,} pieces of 4 bytes, written in 64 KiB blocks (Chat Completions)",
    }
    for wire in WIRES:
        titles["stream-" + wire.key] = f"Stream of {stream_n:,} pieces of 4 bytes, each event its own HTTP chunk " \
                                       f"({wire.title})"
    for key, title in titles.items():
        results = s.get(key)
        if not results:
            continue
        for name, runs in results.items():
            row(title, name, runs, results["curl"])
    add("")

    # Time to first token
    add("### Time to first token under a pseudo-terminal")
    add("")
    add("stdout is a pty; the server waits 100 ms after the response head, then notes the time and")
    add("sends the first piece; the harness notes when the piece's text appeared on the terminal (both")
    add("CLOCK_MONOTONIC). *Added* is the difference: what the client adds on top of the server,")
    add("loopback included. It is a fraction of a millisecond, so one busy moment on the machine moves")
    add("a round a lot: the median of the per-round ratios is the number to read.")
    add("")
    add("| Client | Added ms | Ratio to curl's added | Output |")
    add("|---|---|---|---|")
    ttft = s["ttft"]
    for name, runs in ttft.items():
        added = [r.added for r in runs if r.added is not None]
        ratio = "1 (floor)" if name == "curl" else fmt_ratio(
            ratios([r for r in runs], ttft["curl"], lambda r: r.added))
        add(f"| {name} | {fmt_range_ms(added, 2)} | {ratio} | {checks(runs)} |")
    add("")
    add("The `chat` row is `chat --raw` (on a terminal chat renders Markdown by default). The answer is")
    add("plain text, so the rendered first piece is the same text.")
    add("")

    # Rendering
    add("### Rendering Markdown on a terminal")
    add("")
    add("Both on the same pseudo-terminal (100×40), reading everything the client writes:")
    add(f"*time to first token* as above, rendering on ÷ `--raw`; and a {stream_n:,}-piece answer of real")
    add("Markdown (`doc=markdown` in the fake server: headings, paragraphs with emphasis, code spans and")
    add("links, a fenced code block, a table, a nested list, CJK and emoji; pieces of 4 characters, sent")
    add("as fast as the client reads), wall time from spawn to exit, rendering on ÷ `--raw`, per round.")
    add("")
    add("| Scenario | Client | Wall ms / added ms | Ratio to `--raw` | CPU ms (user+sys) | Output |")
    add("|---|---|---|---|---|---|")
    rendered_ttft = ttft.get(RENDERED, [])
    add(f"| Time to first token (added) | {RENDERED} | "
        f"{fmt_range_ms([r.added for r in rendered_ttft if r.added is not None], 2)} "
        f"| {fmt_ratio(ratios(rendered_ttft, ttft['chat'], lambda r: r.added))} | – | {checks(rendered_ttft)} |")
    md = s["markdown"]
    for name, runs in md.items():
        ratio = "1" if name == RAW else fmt_ratio(ratios(runs, md[RAW], lambda r: r.wall))
        add(f"| {stream_n:,}-piece Markdown answer | {name} | {fmt_range_ms([r.wall for r in runs])} | {ratio} "
            f"| {fmt_range_ms([r.cpu for r in runs])} | {checks(runs)} |")
    add("")

    # Conversations
    add("### Conversation length")
    add("")
    add("`printf '/load FILE\\nhi\\n' | chat -i --base-url …`: the REPL loads a saved conversation of N")
    add("earlier turns (a turn is a question of ~90 bytes and an answer of ~320), sends one more")
    add("message and gets a one-piece answer. curl sends the request body chat sent, byte for byte.")
    add("*chat − curl* is the median of the per-round differences: what chat adds (start-up, reading")
    add("the file, encoding the request). *Per turn* and *per KiB* divide its growth over the 1-turn")
    add("case by the extra turns and the extra request bytes: if they stay flat from 100 to 1,000 turns,")
    add("chat's cost grows no faster than the request.")
    add("")
    add("| Earlier turns | Request KiB | chat wall ms | curl wall ms | Ratio to curl | chat − curl ms "
        "| per turn µs | per KiB µs | Output |")
    add("|---|---|---|---|---|---|---|---|---|")
    conv = s["conversation"]

    def excess(results):
        return med([a.wall - b.wall for a, b in zip(results["chat"], results["curl"])])

    base_bytes, base_runs = conv[1]
    base_excess = excess(base_runs)
    for turns, (size, results) in conv.items():
        extra = excess(results)
        if turns == 1:
            per_turn = per_kib = "–"
        else:
            per_turn = f"{(extra - base_excess) / (turns - 1) * 1e6:.1f}"
            per_kib = f"{(extra - base_excess) / ((size - base_bytes) / 1024) * 1e6:.1f}"
        add(f"| {turns:,} | {size / 1024:.1f} | {fmt_range_ms([r.wall for r in results['chat']])} "
            f"| {fmt_range_ms([r.wall for r in results['curl']])} "
            f"| {fmt_ratio(ratios(results['chat'], results['curl'], lambda r: r.wall))} "
            f"| {fmt_ms(extra)} | {per_turn} | {per_kib} "
            f"| {checks(results['chat'] + results['curl'])} |")
    add("")

    # Parser micro-benchmark
    parser = report.get("parser")
    add("### SSE parser and chunk decoder alone")
    add("")
    if parser:
        add("`.build/release/ParserBenchmark` (target `ParserBenchmark`, `Benchmarks/ParserBenchmark`): the same")
        add(f"{stream_n:,}-piece streams as above, in memory, no process or network: the short shape fed in")
        add(f"reads of {parser['read']:,} bytes (libcurl's largest write), and the full shape with each event in")
        add(f"a read of its own (as libcurl hands over an event-framed stream); median of {parser['repeat']} runs")
        add("after a warm-up.")
        add("")
        add("| Stage | MB/s | Pieces/s | ms per stream (min–max) |")
        add("|---|---|---|---|")
        for stage in parser["stages"]:
            seconds = stage["seconds"]
            add(f"| {stage['stage']} | {stage['mb_per_s']:.1f} | {stage['pieces_per_s'] / 1000:.0f}k "
                f"| {fmt_range_ms(seconds, 2)} |")
    else:
        add("(not run)")
    add("")

    # Budget
    add("## Budget")
    add("")
    startup_ratio = med(ratios(s["startup"]["chat"], s["startup"]["curl"], lambda r: r.wall))
    one_ratio = med(ratios(s["one"]["chat"], s["one"]["curl"], lambda r: r.wall))
    stream_ratio = med(ratios(s["stream"]["chat"], s["stream"]["curl"], lambda r: r.wall))
    block_ratio = med(ratios(s["block"]["chat"], s["block"]["curl"], lambda r: r.wall))
    conv_runs = s["conversation"][1000][1]
    conv_ratio = med(ratios(conv_runs["chat"], conv_runs["curl"], lambda r: r.wall))
    size_mb = report.get("binary_bytes", 0) / 1e6 if report.get("binary_bytes") else None
    def largest_rss(key):
        values = [r.rss_kib for r in s.get(key, {}).get("chat", []) if r.rss_kib is not None]
        return max(values) / 1024 if values else None

    def wall_ratio(key):
        results = s.get(key)
        return med(ratios(results["chat"], results["curl"], lambda r: r.wall)) if results else None

    stream_rss = largest_rss("stream")
    ttft_ratio = med(ratios(s["ttft"]["chat"], s["ttft"]["curl"], lambda r: r.added))
    rendered_ttft_ratio = med(ratios(s["ttft"][RENDERED], s["ttft"]["chat"], lambda r: r.added))
    markdown_ratio = med(ratios(s["markdown"][RENDERED], s["markdown"][RAW], lambda r: r.wall))
    wire_keys = ["stream-" + wire.key for wire in WIRES if ("stream-" + wire.key) in s]
    all_ok = all(r.ok for k in ["startup", "one", "stream", "block", "ttft", "markdown"] + wire_keys
                 for rs in s[k].values() for r in rs)
    budget = [
        # Issue 39's budgets (issue 26's for the rows it does not name).
        ("`chat --version` ≤ 1.0× `curl --version`", startup_ratio, 1.0, "×"),
        ("One-shot with one piece ≤ 1.4× curl", one_ratio, 1.4, "×"),
        (f"{stream_n:,}-piece stream, each event its own HTTP chunk, ≤ 1.2× curl (wall)", stream_ratio, 1.2, "×"),
        (f"{stream_n:,}-piece stream, each event its own HTTP chunk, peak RSS ≤ 20 MiB (largest run)",
         stream_rss, 20.0, " MiB"),
    ]
    for wire in WIRES:
        key = "stream-" + wire.key
        budget += [
            (f"The same on the {wire.title} wire ≤ 1.2× curl (wall)", wall_ratio(key), 1.2, "×"),
            (f"The same on the {wire.title} wire, peak RSS ≤ 20 MiB (largest run)", largest_rss(key), 20.0, " MiB"),
        ]
    budget += [
        (f"{stream_n:,}-piece stream written in blocks ≤ 2× curl (wall)", block_ratio, 2.0, "×"),
        ("Client-added time to first token ≤ 1.2× curl's", ttft_ratio, 1.2, "×"),
        ("`/load` of 1,000 earlier turns, then one message, ≤ 3× curl (wall)", conv_ratio, 3.0, "×"),
        ("Release binary, stripped, ≤ 20 MB", size_mb, 20.0, " MB"),
        ("Rendering on: client-added time to first token ≤ 1.2× `--raw`'s", rendered_ttft_ratio, 1.2, "×"),
        (f"Rendering on: {stream_n:,}-piece Markdown answer on a terminal ≤ 1.3× `--raw` (wall)",
         markdown_ratio, 1.3, "×"),
    ]
    add("| Budget | Measured | Met |")
    add("|---|---|---|")
    for title, value, limit, unit in budget:
        met = value is not None and value <= limit
        add(f"| {title} | {'–' if value is None else f'{value:.2f}{unit}'} | {'yes' if met else '**no**'} |")
    add("")
    add(f"All outputs checked: {'yes' if all_ok else '**no** (see the Output column)'}.")
    if report.get("binary_bytes"):
        add("")
        add(f"The release binary is {report['binary_unstripped_bytes'] / 1e6:.1f} MB as built and "
            f"{report['binary_bytes'] / 1e6:.1f} MB stripped (as `scripts/install` installs it).")
    add("")

    add("## How")
    add("")
    add("- `Benchmarks/run` (add `--quick` for fewer rounds, `--no-peers` to leave out llm and sgpt). It needs")
    add("  Swift, Python 3, curl and GNU time (it installs the last two with apt-get when missing); nothing is installed from PyPI. Peers are used when `llm` and `sgpt` are on")
    add("  `PATH`, each pointed at the fake server through its own settings: llm with an")
    add("  `extra-openai-models.yaml` (an `api_base` per scenario) in `LLM_USER_PATH`, run as `llm -m bench-… --no-log`;")
    add("  sgpt with `API_BASE_URL`, `OPENAI_API_KEY` and `DEFAULT_MODEL` in the environment, run as")
    add("  `sgpt --no-md --no-cache`. Every client runs with a fresh empty `HOME`. sgpt adds its own system prompt,")
    add("  so its request is larger. Install the two apart (`pipx install llm`, `pipx install shell-gpt`, or one")
    add("  venv each): their `openai` requirements conflict, and in one environment pip settles on shell-gpt")
    add("  1.0.1, which has no `--no-md`. shell-gpt 1.5.1 also needs `click` installed beside it.")
    add("- The fake server's answer shape comes from the base URL (`/b/n=…,size=…,delay=…,first=…,frame=…/v1`),")
    add("  so every client is configured the same way. With no delay it writes from buffers prepared once, in")
    add("  writes of about 64 KiB: with `frame=event` each event is its own HTTP chunk inside them (the main")
    add("  stream row), otherwise the HTTP chunks are the 64 KiB blocks themselves (the second row); curl's")
    add("  run shows the server is not the bottleneck. A POST ending in `/messages` or `/responses` gets the")
    add("  same pieces as Anthropic's Messages stream or OpenAI's Responses stream; chat is pointed at those")
    add("  with `--config` naming a config of one line, `{\"provider\": \"anthropic\"}` or")
    add("  `{\"provider\": \"openai-responses\"}`, and curl sends the request chat sent, to the same path.")
    add("- Per-event costs are counted with valgrind's callgrind (instructions, repeatable on a busy machine)")
    add("  on a copy of the binary made with `strip --strip-debug` (valgrind 3.19 cannot read Swift's DWARF 5).")
    add("- chat runs with its defaults, so it records each conversation in its history database (SQLite, in")
    add("  the fresh `HOME`); the `chat --no-history` rows show what that costs.")
    add("- Output checks: chat's stdout must be exactly the answer and a newline; curl's must be exactly the")
    add("  server's event stream; a peer's must contain the answer.")
    add("- Wall time runs from spawn to exit (Python `subprocess`, `os.wait4`), as hyperfine measures it; a")
    add("  process start costs about a millisecond here and is in every number.")
    add("- No timed unit tests: timings live here, not in `scripts/test`.")
    add("")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
