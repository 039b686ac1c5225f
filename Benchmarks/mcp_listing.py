#!/usr/bin/env python3
"""MCP at start-up, for issue 36: what chat adds to a stdio server's own start when it lists its
tools, cold (no era remembered: the `server/discover` probe, then `initialize` for a server of
the older era) and warm (the era remembered); and what a run pays for MCP servers it configures
but does not use (it should start none).

- direct: a Python driver spawns the server, sends `initialize`, `notifications/initialized` and
  `tools/list`, and reads the list: the server's own start and listing, with no chat.
- `chat --tools-list -T NAME`, cold (a fresh data directory each run) and warm (the era
  remembered from a first run); chat's share is its time less the direct one.
- a one-shot against the fake chat server, with and without a config that lists the server
  (without -T): interleaved pairs, their ratio.

Servers: Benchmarks/network_tool.py (the older era only, answering at once), and the real
`mcp-server-time` when --time-server names its executable (the tests' venv has it:
.build/mcp-test-venv/bin/mcp-server-time). Medians of --rounds runs; with --baseline, an earlier
chat is measured beside (interleaved). Python 3 standard library only.

Usage: Benchmarks/mcp_listing.py --chat PATH [--baseline PATH] [--time-server PATH] [--rounds N]
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (the fake chat server)


def direct(command):
    """Seconds from spawning the server to having its tool list, with no chat."""
    began = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=dict(os.environ, TIMING_FILE=os.devnull))

    def send(message):
        process.stdin.write((json.dumps(message) + "\n").encode())
        process.stdin.flush()

    def answer(message_id):
        for line in process.stdout:
            message = json.loads(line)
            if message.get("id") == message_id:
                return message
        raise SystemExit("mcp_listing: the server ended before answering")

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                     "clientInfo": {"name": "bench", "version": "1"}}})
    answer(1)
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    answer(2)
    elapsed = time.perf_counter() - began
    process.stdin.close()
    process.wait(timeout=10)
    return elapsed


def timed(argv, env):
    began = time.perf_counter()
    result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - began
    if result.returncode != 0:
        raise SystemExit(f"mcp_listing: {' '.join(argv)} failed: {result.stderr.decode()[-400:]}")
    return elapsed


def environment(home, command):
    config = os.path.join(home, "config", "chat")
    os.makedirs(config, exist_ok=True)
    with open(os.path.join(config, "config.json"), "w") as f:
        json.dump({"mcp_servers": {"bench": {"command": command[0], "args": command[1:],
                                             "env": {"TIMING_FILE": os.devnull}}}}, f)
    return dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
                XDG_DATA_HOME=os.path.join(home, "data"), OPENAI_API_KEY="x")


def measure(chat, command, rounds, work):
    row = {"direct": [direct(command) for _ in range(rounds)]}
    cold, warm = [], []
    for index in range(rounds):
        home = os.path.join(work, f"cold-{index}")
        cold.append(timed([chat, "--tools-list", "-T", "bench"], environment(home, command)))
        shutil.rmtree(home, ignore_errors=True)
    home = os.path.join(work, "warm")
    env = environment(home, command)
    timed([chat, "--tools-list", "-T", "bench"], env)
    for _ in range(rounds):
        warm.append(timed([chat, "--tools-list", "-T", "bench"], env))
    shutil.rmtree(home, ignore_errors=True)
    row["cold"], row["warm"] = cold, warm
    return row


def unused(chat, command, rounds, work, server):
    """One-shots with a config that lists the server (not used) over ones with none."""
    with_servers = environment(os.path.join(work, "unused"), command)
    without = dict(with_servers, XDG_CONFIG_HOME=os.path.join(work, "no-config"))
    argv = [chat, "--base-url", server.base(), "--no-history", "hi"]
    timed(argv, with_servers)
    pairs = [(timed(argv, without), timed(argv, with_servers)) for _ in range(rounds)]
    return statistics.median(b / a for a, b in pairs), statistics.median(a for a, _ in pairs)


def ms(values):
    return f"{statistics.median(values) * 1000:.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chat", required=True)
    parser.add_argument("--baseline")
    parser.add_argument("--time-server")
    parser.add_argument("--rounds", type=int, default=11)
    options = parser.parse_args()
    servers = [("network_tool.py (older era, instant)", [sys.executable, os.path.join(HERE, "network_tool.py")])]
    if options.time_server:
        servers.append(("mcp-server-time", [options.time_server]))
    binaries = [("chat", os.path.abspath(options.chat))]
    if options.baseline:
        binaries.append(("baseline", os.path.abspath(options.baseline)))
    work = tempfile.mkdtemp(prefix="mcp-listing-")
    fake = bench.Server(work)
    lines = ["| Server | Binary | Server alone ms | `--tools-list` cold ms | warm ms | chat's share cold / warm ms |",
             "|---|---|---|---|---|---|"]
    try:
        for name, command in servers:
            for label, chat in binaries:
                row = measure(chat, command, options.rounds, work)
                alone = statistics.median(row["direct"])
                lines.append(
                    f"| {name} | {label} | {ms(row['direct'])} | {ms(row['cold'])} | {ms(row['warm'])}"
                    f" | {(statistics.median(row['cold']) - alone) * 1000:.0f} /"
                    f" {(statistics.median(row['warm']) - alone) * 1000:.0f} |")
        lines.append("")
        for label, chat in binaries:
            ratio, base = unused(chat, servers[0][1], options.rounds, work, fake)
            lines.append(f"{label}: a one-shot whose config lists an MCP server it does not use: {ratio:.2f}× "
                         f"one with no config ({base * 1000:.1f} ms)")
    finally:
        fake.stop()
        shutil.rmtree(work, ignore_errors=True)
    lines.append(f"\nMedians of {options.rounds} runs; load average {os.getloadavg()[0]:.2f} at the end.")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
