#!/usr/bin/env python3
"""The history at scale: builds histories of 1,000, 10,000 and 100,000 conversations (ten
messages each on average, realistic lengths, a few very long ones) and times what a person does
with them, with the release chat, against the budgets of issue 26:

- `chat --list -n 20` and `chat -c …` (continuing the newest conversation) under 50 ms wall;
- `chat --search WORD` under 300 ms, the first search after many stored messages included;
- `chat --stats` under 300 ms (issue 37), for its 30 days and for every day of the history;
- a one-shot within 1.1x of a one-shot with an empty history;
- the database under 2x the raw text's size.

Usage: Benchmarks/history_scale.py --chat PATH [--sizes 1000,10000,100000] [--rounds N]
       [--pair-rounds N] [--cache DIR] [--out FILE]

The one-shot's ratio to one with an empty history is the median of --pair-rounds interleaved
pairs (41): over 15 pairs, one binary measured anywhere from 0.99x to 1.12x at 100,000
conversations, across a line at 1.1x.

Each history is written once by chat itself (so its schema is exactly chat's: one one-shot makes
the database), then filled with Python's sqlite3 in the shape chat stores (every message
following the one before it; the search index brought up to date as chat's own writes keep it),
and kept in --cache (default .build-scale/ beside the package) for the next run. Every timed run
uses a copy of it, so runs do not change one another's history. Python 3 standard library only.
"""

import argparse
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402  (the fake server and the timing helpers)

# Word frequencies follow Zipf's law, as in real text: a few words are everywhere, most are rare.
VOCABULARY_SIZE = 20_000
RARE_WORD = "zephyrquartz"  # in exactly 50 messages of every history: what a person searches for


def words(seed):
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    vocabulary = set()
    while len(vocabulary) < VOCABULARY_SIZE:
        vocabulary.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 10))))
    vocabulary = sorted(vocabulary)
    cumulative, total = [], 0.0
    for rank in range(VOCABULARY_SIZE):
        total += 1 / (rank + 1)
        cumulative.append(total)
    return vocabulary, cumulative


def text(rng, vocabulary, cumulative, length):
    out = []
    size = 0
    while size < length:
        chunk = rng.choices(vocabulary, cum_weights=cumulative, k=32)
        out += chunk
        size += sum(len(w) + 1 for w in chunk)
    return " ".join(out)[:length]


def build(path, conversations, chat, seed=7):
    """Makes the database with one chat one-shot, then fills it. Returns the raw text's size."""
    data = os.path.join(path, "data")
    os.makedirs(data, exist_ok=True)
    server = bench.Server(path)
    try:
        env = dict(os.environ, XDG_DATA_HOME=data, HOME=path, OPENAI_API_KEY="x")
        subprocess.run([chat, "--base-url", server.base(), "schema"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
    finally:
        server.stop()
    db = sqlite3.connect(os.path.join(data, "chat", "history.sqlite"))
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("DELETE FROM message")
    db.execute("DELETE FROM conversation")
    vocabulary, weights = words(seed)
    rng = random.Random(seed)
    raw = 0
    start = time.time() - conversations * 3600.0
    next_id = 1
    rare = set(rng.sample(range(conversations * 10), 50))
    message_number = 0
    batch_conversations, batch_messages = [], []
    for index in range(conversations):
        conversation_id = f"{index:08x}"[-8:]
        created = start + index * 3600.0
        turns = max(1, int(rng.expovariate(1 / 5)))  # five turns on average, a few long threads
        parent = 0
        title = ""
        for turn in range(turns):
            for role, length in (("user", int(rng.lognormvariate(4.5, 0.8))),
                                 ("assistant", int(rng.lognormvariate(6.4, 0.9)))):
                if rng.random() < 0.0005:
                    length = 100_000  # a pasted log or a long generated file
                content = text(rng, vocabulary, weights, max(length, 2))
                if message_number in rare:
                    content += " " + RARE_WORD
                message_number += 1
                raw += len(content.encode())
                if not title and role == "user":
                    title = " ".join(content.split()[:8])[:60]
                at = created + turn * 60.0
                # What an answer of 12 prompt and 200 completion tokens of gpt-4o-mini costs.
                cost = 0.0001218 if role == "assistant" else None
                batch_messages.append((next_id, conversation_id, role, content, "complete", None, "gpt-4o-mini",
                                       None, "{}", 12, 200, 212, at, at, None, parent, cost))
                parent = next_id
                next_id += 1
        batch_conversations.append((conversation_id, title, created, created + turns * 60.0, parent))
        if len(batch_messages) > 20_000:
            flush(db, batch_conversations, batch_messages)
            batch_conversations, batch_messages = [], []
    flush(db, batch_conversations, batch_messages)
    # As chat's own writes leave it: every message stored is in the search index.
    db.execute("INSERT INTO message_fts(message_fts) VALUES ('rebuild')")
    db.execute("UPDATE message_fts_progress SET indexed_through = (SELECT MAX(id) FROM message)")
    db.commit()
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("VACUUM")
    db.close()
    with open(os.path.join(path, "raw-bytes"), "w") as f:
        f.write(str(raw))
    return raw


def flush(db, conversations, messages):
    # Every conversation made here has an answer (`answered`, as chat's own writes set it).
    db.executemany(
        "INSERT INTO conversation (id, title, created_at, updated_at, head_id, answered) VALUES (?, ?, ?, ?, ?, 1)",
        conversations)
    db.executemany(
        "INSERT INTO message (id, conversation_id, role, content, state, reasoning, model, system_prompt, settings,"
        " prompt_tokens, completion_tokens, total_tokens, created_at, updated_at, images, parent_id, cost_usd)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", messages)
    db.commit()


def timed(argv, env, rounds):
    walls = []
    for _ in range(rounds):
        began = time.perf_counter()
        result = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        walls.append(time.perf_counter() - began)
        if result.returncode != 0:
            raise SystemExit(f"history_scale: {' '.join(argv)} failed: {result.stderr.decode()[-300:]}")
    return walls


def fresh_copy(source, target):
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    return os.path.join(target, "data")


def measure(size, cached, work, chat, server, rounds, pair_rounds):
    raw = int(open(os.path.join(cached, "raw-bytes")).read())
    database = os.path.join(cached, "data", "chat", "history.sqlite")
    data = fresh_copy(cached, work)
    env = dict(os.environ, XDG_DATA_HOME=data, HOME=work, OPENAI_API_KEY="x")
    row = {"size": size, "raw": raw, "database": os.path.getsize(database)}
    row["list"] = timed([chat, "--list", "-n", "20"], env, rounds)
    row["continue"] = timed([chat, "--base-url", server.base(), "-c", "go on"], env, rounds)
    row["search"] = timed([chat, "--search", RARE_WORD], env, rounds)
    row["stats"] = timed([chat, "--stats"], env, rounds)
    row["stats_all"] = timed([chat, "--stats", "--since", "36500"], env, rounds)
    # Many messages stored since the last search: 200 one-shots, then the first search.
    for _ in range(200):
        subprocess.run([chat, "--base-url", server.base(n=40, size=20), "another question"], env=env,
                       stdout=subprocess.DEVNULL, check=True)
    row["search_after_writes"] = timed([chat, "--search", RARE_WORD], env, 1)
    row["one_shot"] = timed([chat, "--base-url", server.base(), "hi"], env, rounds)
    empty = os.path.join(work, "empty")
    shutil.rmtree(empty, ignore_errors=True)
    os.makedirs(empty)
    empty_env = dict(os.environ, XDG_DATA_HOME=empty, HOME=work, OPENAI_API_KEY="x")
    subprocess.run([chat, "--base-url", server.base(), "hi"], env=empty_env, stdout=subprocess.DEVNULL, check=True)
    # Interleaved, so that a busy moment slows both alike.
    pairs = [(timed([chat, "--base-url", server.base(), "hi"], empty_env, 1)[0],
              timed([chat, "--base-url", server.base(), "hi"], env, 1)[0]) for _ in range(pair_rounds)]
    row["one_shot_empty"] = [p[0] for p in pairs]
    row["one_shot_ratio"] = [b / a for a, b in pairs]
    shutil.rmtree(work, ignore_errors=True)
    return row


def ms(values):
    return f"{statistics.median(values) * 1000:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chat", required=True)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--pair-rounds", type=int, default=41)
    parser.add_argument("--cache", default=os.path.join(HERE, "..", ".build-scale"))
    parser.add_argument("--out")
    options = parser.parse_args()
    chat = os.path.abspath(options.chat)
    os.makedirs(options.cache, exist_ok=True)
    rows = []
    server = bench.Server(options.cache)
    try:
        for size in [int(s) for s in options.sizes.split(",")]:
            cached = os.path.join(options.cache, f"history-{size}")
            if not os.path.exists(os.path.join(cached, "raw-bytes")):
                print(f"history_scale: building a history of {size:,} conversations", file=sys.stderr)
                began = time.time()
                shutil.rmtree(cached, ignore_errors=True)
                build(cached, size, chat)
                print(f"history_scale: built in {time.time() - began:.0f} s", file=sys.stderr)
            print(f"history_scale: measuring {size:,}", file=sys.stderr)
            rows.append(measure(size, cached, os.path.join(options.cache, "work"), chat, server, options.rounds,
                                options.pair_rounds))
    finally:
        server.stop()
    lines = [
        "| Conversations | Messages' text | Database (÷ text) | `--list -n 20` ms | `-c` ms | `--search` ms"
        " | first `--search` after 200 one-shots ms | `--stats` ms (every day) | one-shot ms (empty history)"
        " | one-shot ÷ empty |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['size']:,} | {row['raw'] / 2**20:.0f} MiB | {row['database'] / 2**20:.0f} MiB"
            f" ({row['database'] / row['raw']:.2f}×) | {ms(row['list'])} | {ms(row['continue'])}"
            f" | {ms(row['search'])} | {ms(row['search_after_writes'])} | {ms(row['stats'])} ({ms(row['stats_all'])})"
            f" | {ms(row['one_shot'])}"
            f" ({ms(row['one_shot_empty'])}) | {statistics.median(row['one_shot_ratio']):.2f}× |")
    load = os.getloadavg()[0]
    lines.append("")
    lines.append(f"Medians of {options.rounds} runs each (the search after writes: one run; the one-shot's ratio: "
                 f"{options.pair_rounds} interleaved pairs); load average {load:.2f} at the end.")
    table = "\n".join(lines)
    print(table)
    if options.out:
        with open(options.out, "w") as f:
            f.write(table + "\n")


if __name__ == "__main__":
    main()
