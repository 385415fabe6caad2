#!/usr/bin/env python3
"""Client-side benchmark of leitnerd (docs/performance.md): with a store of 100,000 cards, the
round trip of Status and of a durable Grade over the socket (p50/p99 over 1,000 calls, with 1
client and with 8 client processes), the daemon's resident memory, and `leitnerctl status` as a
whole process, the throughput of Grade with 1 and with 8 clients (group commit), 50 clients making
a learner's mix of calls for 30 s (BENCH_MIXED_CLIENTS, BENCH_MIXED_SECONDS; each method's
p50/p99 apart, and beside them the same clients calling only GetInfo, the phase's floor), the
same with 3% whole-level Lists twice (each reply decoded by json.loads, then each read to its
end and checked, not decoded: the daemon's figure without Python's decoding), and
`leitnerctl import` of 10,000 and 100,000 cards beside its floor (the same cards made plainly, one
syncfs) and Anki's `add_notes` (bench/anki-add.py).
Grade as `leitnerctl review` makes it (after the Next that showed the card) is
measured in alternating rounds with a Python client and with leitnerctl's own Swift client
(`leitner-bench client`); with ANKI_PYTHON set to an interpreter that has the `anki` package,
Anki's in-process durable answer (bench/anki-answer.py), the figure Grade is held against, takes
its turn in each round. `leitnerctl status` is timed beside the floors of any process, built in
the same run: "hello" in C, and in Swift linked whole (the C library too, as leitnerctl's release
build is), with the runtime static (as leitnerd is installed) and dynamically. Usage: bench/daemon.py [BIN_DIR] (default: the build `make install` installs, the
Swift runtime linked in, `.build-release/release`: what a user runs); BENCH_CARDS=N for a smaller
store."""
import json
import multiprocessing
import os
import pathlib
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

CARDS = int(os.environ.get("BENCH_CARDS", 100_000))
CALLS = 1_000
IMPORTS = tuple(int(n) for n in os.environ.get("BENCH_IMPORTS", "10000,100000").split(",") if n)
ROUNDS = int(os.environ.get("BENCH_ROUNDS", 5))
MIXED_CLIENTS = int(os.environ.get("BENCH_MIXED_CLIENTS", 50))
MIXED_SECONDS = int(os.environ.get("BENCH_MIXED_SECONDS", 30))
LEVELS = ["1", "2", "3", "4", "5", "6", "7", "finished"]
# ext4 without a journal (as this project's bench machine's root) hands out no inode freed in the
# last 30 s (5 minutes while its inode table's block is unwritten), and looks at each such inode
# again for every inode it makes in that block group: a phase timed right after a removal of
# 300,000 inodes pays for the removal (docs/performance.md, "The import, its floor and the removal
# before them"). So a timed phase that makes files starts this long after the last removal.
FREED_INODES_HELD = 31


def make_store(store: pathlib.Path):
    """The store format (docs/store-format.md): <store>/<level>/<id>/front.txt, back.txt; a fifth in level 1."""
    for i in range(CARDS):
        level = "1" if i % 5 == 0 else LEVELS[1 + i % 7]
        directory = store / level / f"c{i:06d}"
        directory.mkdir(parents=True)
        (directory / "front.txt").write_text(f"front {i}")
        (directory / "back.txt").write_text(f"back {i}")


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""

    def receive(self):
        """The next message, without its NUL. A reply of megabytes (a whole level's List) comes
        in pieces of the socket's buffer, some 200 KiB: each is looked at and kept once, joined
        at the end, so that the client's time grows with the reply, not with its square."""
        pieces = [self.buffer]
        while b"\0" not in pieces[-1]:
            piece = self.sock.recv(1 << 20)
            if not piece:
                raise ConnectionError("the daemon closed the connection")
            pieces.append(piece)
        message, _, self.buffer = b"".join(pieces).partition(b"\0")
        return message

    def call(self, method, **parameters):
        qualified = method if "." in method else "io.leitner.Box." + method
        self.sock.sendall(json.dumps({"method": qualified, "parameters": parameters}).encode() + b"\0")
        reply = json.loads(self.receive())
        if "error" in reply:
            raise RuntimeError(reply)
        return reply["parameters"]

    def list_read_to_end(self, **parameters):
        """A `List` whose reply is read to its end and checked as any client must check it — a
        reply, not an error (an error is decoded and raised as `call` raises it), and whole (its
        closing brackets) — with its cards counted by their `level` member, not decoded:
        `json.loads` of a whole level's 3 MB takes this Python 22-34 ms of the two cores the
        daemon runs on, five times the daemon's own time for the reply (docs/performance.md, "A
        listing without text"). Returns the number of cards."""
        self.sock.sendall(json.dumps({"method": "io.leitner.Box.List", "parameters": parameters}).encode() + b"\0")
        reply = self.receive()
        if not reply.startswith(b'{"parameters":{"cards":['):
            decoded = json.loads(reply)
            raise RuntimeError(decoded) if "error" in decoded else ValueError(f"not a List reply: {reply[:80]!r}")
        if not reply.endswith(b"]}}"):
            raise ValueError(f"a List reply cut short: {len(reply)} bytes ending {reply[-40:]!r}")
        return reply.count(b',"level":"')


def timed_calls(path, method, argument_list):
    client = Client(path)
    times = []
    for parameters in argument_list:
        start = time.perf_counter_ns()
        client.call(method, **parameters)
        times.append(time.perf_counter_ns() - start)
    return times


def timed_calls_between(path, method, argument_list):
    """`timed_calls`, with when the first call began and the last ended (for throughput)."""
    client = Client(path)
    times = []
    first = time.perf_counter()
    for parameters in argument_list:
        start = time.perf_counter_ns()
        client.call(method, **parameters)
        times.append(time.perf_counter_ns() - start)
    return times, first, time.perf_counter()


def measure(path, method, argument_list, clients):
    """p50 and p99 of one call in µs, and the calls answered per second, all clients together
    (from the first call's start to the last one's end: the clients' connecting is not counted)."""
    if clients == 1:
        parts = [timed_calls_between(path, method, argument_list)]
    else:
        chunks = [argument_list[i::clients] for i in range(clients)]
        with multiprocessing.Pool(clients) as pool:
            parts = pool.starmap(timed_calls_between, [(path, method, c) for c in chunks])
    times = sorted(t for part in parts for t in part[0])
    p50 = times[len(times) // 2] / 1000
    p99 = times[int(len(times) * 0.99)] / 1000
    elapsed = max(part[2] for part in parts) - min(part[1] for part in parts)
    return p50, p99, len(times) / elapsed


def settle_removal():
    """Waits until the inodes a removal just freed may be handed out again (`FREED_INODES_HELD`),
    their inode tables written first."""
    os.sync()
    time.sleep(FREED_INODES_HELD)


def measure_import(bin_dir, root, count):
    """`leitnerctl import` of `count` new cards (TSV) into an empty store of its own daemon,
    durable when it returns, as a whole process, beside its floor in the same run (the same
    cards made plainly in a directory's `new/`, one syncfs: `leitner-bench import-floor`); then
    Anki's add_notes of as many, when there."""
    store, sock = root / f"import-{count}", str(root / f"import-{count}.sock")
    deck = root / f"deck-{count}.tsv"
    with open(deck, "w") as f:
        for i in range(count):
            f.write(f"word {i}\tback of word {i}\n")
    # The floor removes its cards when it is timed: the import waits as long after that removal
    # as the floor after the last one.
    settle_removal()
    floor = subprocess.run([str(bin_dir / "leitner-bench"), "import-floor", str(root), str(count)],
                           capture_output=True, text=True, check=True).stdout.strip()
    settle_removal()
    env = dict(os.environ, XDG_CONFIG_HOME=str(root / "cfg"), XDG_STATE_HOME=str(root / "state"))
    daemon = subprocess.Popen([str(bin_dir / "leitnerd"), "--store", str(store), "--socket", sock], env=env,
                              stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                Client(sock).call("Status")
                break
            except (FileNotFoundError, ConnectionRefusedError):
                time.sleep(0.01)
        os.sync()
        start = time.perf_counter()
        result = subprocess.run([str(bin_dir / "leitnerctl"), "--socket", sock, "import", str(deck)], env=env,
                                capture_output=True, text=True, check=True)
        took = time.perf_counter() - start
        print(f"import {count} cards: leitnerctl import {took * 1000:8.1f} ms (durable; {result.stdout.strip()})")
        floor_ms = float(floor.split()[-2])
        print(f"import {count} cards: {floor}   ratio {took * 1000 / floor_ms:.2f}×")
    finally:
        daemon.terminate()
        daemon.wait()
        shutil.rmtree(store, ignore_errors=True)
    if os.environ.get("ANKI_PYTHON"):
        subprocess.run([os.environ["ANKI_PYTHON"], str(pathlib.Path(__file__).with_name("anki-add.py")), str(count)],
                       check=True)


def whole_level_list(path, calls=20):
    """A `List` of a whole level without text (`finished`, 11,400 cards at 100,000), alone: the
    first learns each card (its directory read, R21), the ones after answer from what the daemon
    keeps of them (docs/performance.md, "A listing without text"); p50 and max of the ones after,
    beside the first. Each reply's bytes are counted, not decoded: the daemon's time, not Python's."""
    client = Client(path)
    times, size = [], 0
    for _ in range(calls + 1):
        message = json.dumps({"method": "io.leitner.Box.List",
                              "parameters": {"level": "finished", "withText": False}}).encode() + b"\0"
        start = time.perf_counter_ns()
        client.sock.sendall(message)
        reply = client.receive()
        times.append(time.perf_counter_ns() - start)
        size = len(reply)
    first, rest = times[0], sorted(times[1:])
    print(f"List    whole level, no text, alone: first {first / 1e6:7.1f} ms, then p50 {rest[len(rest) // 2] / 1e6:6.1f} ms"
          f"  max {rest[-1] / 1e6:6.1f} ms  ({calls} calls, {size / 1e6:.1f} MB a reply)")


def grade_after_next(path, calls):
    """The review's own rhythm: Next shows a card, Grade answers it; only Grade is timed."""
    client = Client(path)
    times = []
    for _ in range(calls):
        card = client.call("Next")["card"]
        start = time.perf_counter_ns()
        client.call("Grade", id=card["id"], correct=True)
        times.append(time.perf_counter_ns() - start)
    times.sort()
    return times[len(times) // 2] / 1000, times[int(len(times) * 0.99)] / 1000


def mixed_client(path, seconds, ids, seed, floor=False, listing=True, decode_lists=True):
    """One of the many clients of `mixed`: for `seconds`, a learner's mix of calls (a third
    Status, then Next and Grade in turn, a Show, now and then a small Search and, with
    `listing`, a List of a level of 11,400 cards — else a Show in its place), each timed. Grades go to the client's own cards, so that no two clients answer the
    same one. With `floor`, only `GetInfo`, which the daemon answers without the box: what the
    same clients cost, on the same cores, with nothing of the box's. A List's reply is decoded
    as every other reply, or with `decode_lists` false read to its end and checked
    (`Client.list_read_to_end`). Returns the times by method, the errors by reason and the
    number of cards of each List read to its end."""
    import random
    rng = random.Random(seed)
    client = Client(path)
    times = {}
    errors = {}
    end = time.monotonic() + seconds
    pending = list(ids)
    listed = []
    while time.monotonic() < end:
        roll = rng.random()
        if floor:
            method, parameters = "org.varlink.service.GetInfo", {}
        elif roll < 0.33:
            method, parameters = "Status", {}
        elif roll < 0.55:
            method, parameters = "Next", {}
        elif roll < 0.80 and pending:
            method, parameters = "Grade", {"id": pending.pop(), "correct": rng.random() < 0.8}
        elif roll < 0.92:
            method, parameters = "Show", {"id": rng.choice(ids)}
        elif roll < 0.97:
            method, parameters = "Search", {"pattern": f"front {rng.randrange(100000)}", "limit": 5}
        elif listing:
            method, parameters = "List", {"level": "finished"}
        else:
            method, parameters = "Show", {"id": rng.choice(ids)}
        start = time.perf_counter_ns()
        try:
            if method == "List" and not decode_lists:
                listed.append(client.list_read_to_end(**parameters))
            else:
                client.call(method, **parameters)
        except RuntimeError as error:
            # A card answered elsewhere meanwhile (NotInTest): still a round trip. A "busy" is
            # counted apart: a call that waited the daemon's limit for the box.
            reply = error.args[0]
            reason = reply.get("parameters", {}).get("reason", "")
            key = "busy" if "busy" in reason else reply.get("error", "?").rsplit(".", 1)[-1]
            errors[key] = errors.get(key, 0) + 1
        times.setdefault(method, []).append(time.perf_counter_ns() - start)
    return times, errors, listed


def fdatasync_counter(pid):
    """`perf stat` counting the daemon's fdatasync calls, when perf may trace it; else None."""
    if not shutil.which("perf"):
        return None
    return subprocess.Popen(["perf", "stat", "-x,", "-e", "syscalls:sys_enter_fdatasync", "-p", str(pid)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def mixed(path, pid, queue, clients, seconds, listing, floor=True, decode_lists=True):
    """`clients` processes calling at once for `seconds` (issue #30: 50 clients, mixed calls):
    calls/s, p50 and p99 of all calls and of Grade, the daemon's peak RSS, and how many grades
    each journal flush carried (group commit), from perf's count of fdatasync. `listing` puts
    whole-level Lists in the mix (3% of the calls), each of 11,400 cards, a 3 MB reply; with
    `decode_lists` false their replies are read to their end and checked, not decoded
    (`Client.list_read_to_end`); without them the mix is what reviewing clients do."""
    kind = ("with whole-level Lists, " + ("each decoded" if decode_lists else "each read to its end, not decoded")
            if listing else "without whole-level Lists")
    print(f"Mixed   ({kind})")
    chunks = [queue[i::clients] for i in range(clients)]
    counter = fdatasync_counter(pid)
    peak = rss_kib(pid)
    with multiprocessing.Pool(clients) as pool:
        result = pool.starmap_async(mixed_client, [(path, seconds, chunks[i], i, False, listing, decode_lists)
                                                   for i in range(clients)])
        while not result.ready():
            peak = max(peak, rss_kib(pid))
            result.wait(0.1)
        parts, failures, listed = zip(*result.get())
    flushes = None
    if counter is not None:
        counter.send_signal(2)
        _, err = counter.communicate()
        for line in err.splitlines():
            fields = line.split(",")
            if len(fields) > 2 and "fdatasync" in fields[2] and fields[0].strip().isdigit():
                flushes = int(fields[0])
    every = sorted(t for part in parts for times in part.values() for t in times)
    grades = sorted(t for part in parts for t in part.get("Grade", []))
    print(f"Mixed   {clients} clients, {seconds} s: {len(every) / seconds:7.0f} calls/s  p50 {every[len(every) // 2] / 1e3:7.1f} µs"
          f"  p99 {every[int(len(every) * 0.99)] / 1e3:8.1f} µs  peak RSS {peak / 1024:.1f} MiB")
    if grades:
        line = (f"Mixed   Grade: {len(grades)} durable, p50 {grades[len(grades) // 2] / 1e3:7.1f} µs"
                f"  p99 {grades[int(len(grades) * 0.99)] / 1e3:8.1f} µs")
        if flushes:
            line += f"; {flushes} fdatasync, {len(grades) / flushes:.1f} grades a flush"
        print(line)
    for method in sorted({m for part in parts for m in part}):
        times = sorted(t for part in parts for t in part.get(method, []))
        print(f"Mixed   {method:7}: {len(times):7d} calls  p50 {times[len(times) // 2] / 1e3:8.1f} µs"
              f"  p99 {times[int(len(times) * 0.99)] / 1e3:9.1f} µs  max {times[-1] / 1e3:9.1f} µs")
    errors = {}
    for part in failures:
        for key, count in part.items():
            errors[key] = errors.get(key, 0) + count
    print("Mixed   errors: " + (", ".join(f"{count} {key}" for key, count in sorted(errors.items())) or "none"))
    cards = sorted(count for part in listed for count in part)
    if cards:
        print(f"Mixed   List replies read to their end and checked: {len(cards)}, {cards[0]}-{cards[-1]} cards each")
    if not floor:
        return
    # The floor: the same clients calling only GetInfo, answered without the box, on the same
    # two cores: what the clients themselves and the socket cost.
    with multiprocessing.Pool(clients) as pool:
        floor = [part for part, _, _ in pool.starmap(mixed_client, [(path, seconds, [], i, True) for i in range(clients)])]
    every = sorted(t for part in floor for times in part.values() for t in times)
    print(f"Floor   {clients} clients, {seconds} s, GetInfo only: {len(every) / seconds:7.0f} calls/s"
          f"  p50 {every[len(every) // 2] / 1e3:7.1f} µs  p99 {every[int(len(every) * 0.99)] / 1e3:8.1f} µs")


def other_test_cards(levels, count):
    """`count` ids of the open test's cards outside level 1 (whose cards the other phases grade),
    from its lowest levels: the second mix with Lists grades as many of its own as the first."""
    ids = [f"c{i:06d}" for level in sorted(set(levels) - {"1"}, key=LEVELS.index)
           for i in range(CARDS) if i % 5 != 0 and LEVELS[1 + i % 7] == level]
    return ids[:count]


def rss_kib(pid, field="VmRSS"):
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def memory(pid):
    """The daemon's resident memory and its two parts: anonymous (the heap, the index, the test,
    the search index: the daemon's own) and file-backed (the program's and the C libraries' code
    mapped from the page cache, shared and reclaimable), and the peak so far."""
    return (f"RSS {rss_kib(pid) / 1024:.1f} MiB (anonymous {rss_kib(pid, 'RssAnon') / 1024:.1f}, "
            f"files mapped {rss_kib(pid, 'RssFile') / 1024:.1f}; peak {rss_kib(pid, 'VmHWM') / 1024:.1f})")


def linkage(program):
    """How `program` is linked: whole, the C library too (leitnerctl's release build; ldd says it
    is not a dynamic executable), or with the Swift runtime static (as installed) or dynamic."""
    result = subprocess.run(["ldd", str(program)], capture_output=True, text=True)
    if "not a dynamic executable" in result.stdout + result.stderr:
        return "linked whole"
    return "dynamic Swift runtime" if "libswiftCore" in result.stdout else "static Swift runtime"


def process_floors(root):
    """The floors of a whole process, built here: "hello" in C, in Swift linked whole
    (`-static-executable`, as leitnerctl's release build is linked), with the runtime static
    (`-static-stdlib`, as `make install` links leitnerd) and dynamic. Missing compilers: none."""
    floors = []
    (root / "hello.c").write_text('#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n')
    (root / "hello.swift").write_text('print("hello")\n')
    builds = [("C hello", ["cc", "-O2", str(root / "hello.c"), "-o", str(root / "hello-c")], root / "hello-c"),
              ("Swift hello, linked whole", ["swiftc", "-O", "-static-executable", "-use-ld=lld", str(root / "hello.swift"),
                                             "-o", str(root / "hello-swift-whole")], root / "hello-swift-whole"),
              ("Swift hello, static runtime", ["swiftc", "-O", "-static-stdlib", str(root / "hello.swift"), "-o",
                                               str(root / "hello-swift-static")], root / "hello-swift-static"),
              ("Swift hello, dynamic runtime", ["swiftc", "-O", str(root / "hello.swift"), "-o",
                                                str(root / "hello-swift-dynamic")], root / "hello-swift-dynamic")]
    for name, command, program in builds:
        if shutil.which(command[0]) and subprocess.run(command, capture_output=True).returncode == 0:
            floors.append((name, [str(program)]))
    return floors


def whole_processes(commands, env):
    """Each command as a whole process, 300 runs after 20 warm-ups, the commands interleaved by
    hyperfine in one run so that they share the machine's state: median and min, ms."""
    if shutil.which("hyperfine"):
        out = pathlib.Path(tempfile.mkstemp(suffix=".json")[1])
        subprocess.run(["hyperfine", "-N", "--warmup", "20", "--runs", "300", "--export-json", str(out)]
                       + [" ".join(c) for _, c in commands], env=env, capture_output=True, check=True)
        results = json.loads(out.read_text())["results"]
        out.unlink()
        return [(r["median"] * 1e3, r["min"] * 1e3, r["user"] * 1e3, r["system"] * 1e3) for r in results]
    figures = []
    for _, command in commands:
        times = []
        for _ in range(300):
            start = time.perf_counter_ns()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
            times.append(time.perf_counter_ns() - start)
        times.sort()
        figures.append((times[150] / 1e6, times[0] / 1e6, None, None))
    return figures


def main():
    bin_dir = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(
        subprocess.check_output(["swift", "build", "-c", "release", "--static-swift-stdlib", "--disable-local-rpath",
                                 "--scratch-path", ".build-release", "--show-bin-path"], text=True).strip())
    print(f"programs: {bin_dir} ({linkage(bin_dir / 'leitnerd')})")
    root = pathlib.Path(tempfile.mkdtemp(prefix="lb-", dir=os.environ.get("BENCH_DIR", "/tmp")))
    store, sock = root / "store", str(root / "d.sock")
    daemon = None
    try:
        started = time.monotonic()
        make_store(store)
        print(f"store: {CARDS} cards made in {time.monotonic() - started:.1f} s ({root})")
        env = dict(os.environ, XDG_CONFIG_HOME=str(root / "cfg"), XDG_STATE_HOME=str(root / "state"))
        daemon = subprocess.Popen([str(bin_dir / "leitnerd"), "--store", str(store), "--socket", sock], env=env,
                                  stderr=subprocess.DEVNULL)
        started = time.monotonic()
        while True:
            try:
                Client(sock).call("Status")
                break
            except (FileNotFoundError, ConnectionRefusedError):
                time.sleep(0.01)
        print(f"leitnerd: ready in {time.monotonic() - started:.2f} s, {memory(daemon.pid)}")
        prepared = Client(sock).call("Prepare")["test"]
        print(f"test: levels {prepared['levels']}, {prepared['remaining']} cards")
        queue = [f"c{i:06d}" for i in range(0, CARDS, 5)]
        for clients in (1, 8):
            p50, p99, rate = measure(sock, "Status", [{}] * CALLS, clients)
            print(f"Status  {clients} client(s): p50 {p50:7.1f} µs  p99 {p99:7.1f} µs  {rate:7.0f} calls/s")
        # Group commit: 8 clients grading at once share the journal's flushes (docs/daemon.md).
        rates = {}
        for clients, batch in ((1, queue[:CALLS]), (8, queue[CALLS:3 * CALLS]), (1, queue[3 * CALLS:4 * CALLS]),
                               (8, queue[4 * CALLS:6 * CALLS])):
            p50, p99, rate = measure(sock, "Grade", [{"id": i, "correct": True} for i in batch], clients)
            rates.setdefault(clients, []).append(rate)
            print(f"Grade   {clients} client(s): p50 {p50:7.1f} µs  p99 {p99:7.1f} µs  {rate:7.0f} grades/s"
                  "  (durable: flushed before the reply)")
        print(f"Grade   8 clients / 1 client throughput: {max(rates[8]) / max(rates[1]):.2f}×"
              f" (best of two runs each)")
        rest = queue[6 * CALLS:]
        whole_level_list(sock)
        mixed(sock, daemon.pid, rest[:len(rest) // 2], MIXED_CLIENTS, MIXED_SECONDS, listing=False, floor=False)
        mixed(sock, daemon.pid, rest[len(rest) // 2:], MIXED_CLIENTS, MIXED_SECONDS, listing=True, floor=False)
        # A test of level 1 alone (another date) leaves it the first phase's cards, mostly graded.
        others = other_test_cards(prepared["levels"], len(rest) - len(rest) // 2) or rest[len(rest) // 2:]
        mixed(sock, daemon.pid, others, MIXED_CLIENTS, MIXED_SECONDS, listing=True, decode_lists=False)
        # The machine's speed drifts by tens of percent over minutes: rounds that alternate the
        # clients (and Anki, when there) are what can be compared.
        for round_number in range(1, ROUNDS + 1):
            print(f"-- round {round_number}")
            p50, p99 = grade_after_next(sock, CALLS)
            print(f"Grade   1 client, Python, after Next: p50 {p50:7.1f} µs  p99 {p99:7.1f} µs  (durable)")
            subprocess.run([str(bin_dir / "leitner-bench"), "client", sock, str(CALLS)], check=True)
            if os.environ.get("ANKI_PYTHON"):
                subprocess.run([os.environ["ANKI_PYTHON"], str(pathlib.Path(__file__).with_name("anki-answer.py")),
                                str(CARDS), str(CALLS)], check=True)
        print(f"leitnerd: after the runs {memory(daemon.pid)}")
        for count in IMPORTS:
            measure_import(bin_dir, root, count)
        # `leitnerctl status` (two calls: Status, then Calendar for the week) beside the floors of
        # any process, in one hyperfine run; without hyperfine, Python's fork+exec is included.
        commands = [(f"leitnerctl status ({linkage(bin_dir / 'leitnerctl')})",
                     [str(bin_dir / "leitnerctl"), "--socket", sock, "status"])] + process_floors(root)
        for (name, _), (median, least, user, system) in zip(commands, whole_processes(commands, env)):
            cpu = f", user {user:.2f} + system {system:.2f}" if user is not None else ""
            print(f"process {name:40} median {median:5.2f} ms  min {least:5.2f} ms{cpu}")
    finally:
        # Also when a measurement failed: a daemon left running would hold the store and this
        # script's output open.
        if daemon is not None:
            daemon.terminate()
            daemon.wait(30)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
