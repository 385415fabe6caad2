"""Streamed replies (docs/protocol.md, "Streamed replies"; docs/daemon.md): List, Log, Calendar,
Search and Doctor sent in parts within MaxMessageSize= when called with `more`, refused with ReplyTooLarge
without it; leitnerctl reads the parts as they come.

A store of 20,000 cards is written directly in the store format (as leitner-bench does) and
served with a small message size limit, so that every reply that grows with the box must be cut.
"""
import json
import signal
import socket
import subprocess
import sys
import time

import pytest
import varlink

from daemon_fixtures import make_daemon, root  # noqa: F401  (pytest fixtures)
from daemon_support import log_file

BOX = "io.leitner.Box"
CARDS = 20_000
LIMIT = 16 * 1024
LEVELS = ["1", "2", "3", "4", "5", "6", "7", "finished"]


def build_store(store, count):
    """Card directories written directly: level k holds about 1/2^k of the cards."""
    for level in LEVELS:
        (store / level).mkdir(parents=True, exist_ok=True)
    expected = {}
    for index in range(count):
        level = LEVELS[min(7, ((index + 1) & -(index + 1)).bit_length() - 1)]
        card_id = f"card-{index:05d}"
        directory = store / level / card_id
        directory.mkdir()
        (directory / "front.txt").write_text(f"front {index}\twith a tab")
        (directory / "back.txt").write_text(f"back {index}\nof two lines")
        expected[card_id] = level
    return expected


def write_log(store, count, levels):
    """A review log of `count` grades, one a second (docs/store-format.md, the review log): the
    test device's, which every daemon here runs as. Each grade puts its card where the store has
    it: a card the log left elsewhere was moved by hand while no daemon ran, and the daemon's
    start would log that move (R13) among the lines these tests count."""
    path = log_file(store)
    path.parent.mkdir(parents=True, exist_ok=True)
    start = 1_767_225_600  # 2026-01-01T00:00:00Z
    with open(path, "w") as log:
        for n in range(count):
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(start + n))
            card_id = f"card-{n % CARDS:05d}"
            log.write(f"{stamp}\tgrade\t{card_id}\t1\t{levels[card_id]}\tcorrect\t{n}\n")


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """The 20,000-card store and its log, built once for the module; each test copies nothing."""
    base = tmp_path_factory.mktemp("streaming")
    store = base / "store"
    expected = build_store(store, CARDS)
    write_log(store, 30_000, expected)
    return store, expected


@pytest.fixture
def daemon(make_daemon, big):  # noqa: F811
    store, _ = big
    return make_daemon(store=store, config=f"[Daemon]\nMaxMessageSize={LIMIT // 1024}K\n").start()


def stream(conn, method, parameters=None, **flags):
    """Sends one call and reads every reply to it: (raw length, message) pairs."""
    conn.send({"method": f"{BOX}.{method}", "parameters": parameters or {}, **flags})
    replies = []
    while True:
        raw = conn.receive_raw()
        message = json.loads(raw)
        replies.append((len(raw), message))
        if not message.get("continues"):
            return replies


def test_list_with_more_sends_every_card_in_parts_within_the_limit(daemon, big):
    _, expected = big
    with daemon.connect(timeout=60) as c:
        replies = stream(c, "List", {"withText": True}, more=True)
    assert len(replies) > 100
    assert all(length <= LIMIT for length, _ in replies)
    assert all(m.get("continues") is True for _, m in replies[:-1])
    assert "continues" not in replies[-1][1] and "error" not in replies[-1][1]
    cards = [card for _, m in replies for card in m["parameters"]["cards"]]
    assert len(cards) == CARDS
    assert {c["id"]: c["level"] for c in cards} == expected
    # By level, then by id, as one reply would have them.
    assert [(LEVELS.index(c["level"]), c["id"]) for c in cards] == sorted((LEVELS.index(v), k) for k, v in expected.items())
    assert cards[0]["front"]["text"].startswith("front ") and "\n" in cards[0]["back"]["text"]


def test_without_more_a_reply_past_the_limit_is_refused_and_says_to_use_more(daemon):
    with daemon.connect(timeout=60) as c:
        replies = stream(c, "List", {})
        assert len(replies) == 1
        length, reply = replies[0]
        assert length <= LIMIT
        assert reply["error"] == f"{BOX}.ReplyTooLarge"
        assert '"more": true' in reply["parameters"]["reason"] and str(LIMIT) in reply["parameters"]["reason"]
        # A reply that fits is sent whole, as ever, and the connection goes on.
        small = stream(c, "Log", {"limit": 3})
        assert [e["answerMs"] for e in small[0][1]["parameters"]["entries"]] == [29_997, 29_998, 29_999]


def test_log_and_calendar_stream_too(daemon):
    with daemon.connect(timeout=60) as c:
        replies = stream(c, "Log", {}, more=True)
        assert len(replies) > 10 and all(length <= LIMIT for length, _ in replies)
        entries = [e for _, m in replies for e in m["parameters"]["entries"]]
        assert [e["answerMs"] for e in entries] == list(range(30_000))
        last = stream(c, "Log", {"limit": 1000, "since": "2026-01-01"}, more=True)
        assert [e["answerMs"] for _, m in last for e in m["parameters"]["entries"]] == list(range(29_000, 30_000))
        days = stream(c, "Calendar", {"from": "2020-01-01", "to": "2029-12-31"}, more=True)
        assert len(days) > 1 and all(length <= LIMIT for length, _ in days)
        assert sum(len(m["parameters"]["days"]) for _, m in days) == 3653
        assert stream(c, "Calendar", {"from": "2020-01-01", "to": "2029-12-31"})[0][1]["error"] == f"{BOX}.ReplyTooLarge"


def test_the_python_varlink_client_reads_the_parts(daemon, big):
    _, expected = big
    with varlink.Client.new_with_address(f"unix:{daemon.socket}") as client:
        with client.open(BOX) as box:
            ids = [card["id"] for part in box.List(level="3", _more=True) for card in part["cards"]]
    assert ids == sorted(k for k, v in expected.items() if v == "3")
    # And its command line, `--more`: one JSON object printed per reply.
    result = subprocess.run([sys.executable, "-m", "varlink.cli", "call", "--more",
                             f"unix:{daemon.socket}/{BOX}.List", json.dumps({"level": "5"})],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    decoder, rest, parts = json.JSONDecoder(), result.stdout.strip(), []
    while rest:
        part, end = decoder.raw_decode(rest)
        parts.append(part)
        rest = rest[end:].strip()
    assert len(parts) > 1
    assert [c["id"] for part in parts for c in part["cards"]] == sorted(k for k, v in expected.items() if v == "5")


def test_search_sends_every_matching_line_in_parts(daemon, big):
    _, expected = big
    order = sorted((LEVELS.index(v), k) for k, v in expected.items())
    with daemon.connect(timeout=60) as c:
        # Every back's second line holds "of two": 20,000 lines, far past the limit.
        replies = stream(c, "Search", {"pattern": "OF TWO"}, more=True)
        assert len(replies) > 50 and all(length <= LIMIT for length, _ in replies)
        assert "continues" not in replies[-1][1] and "error" not in replies[-1][1]
        matches = [m for _, reply in replies for m in reply["parameters"]["matches"]]
        assert [(LEVELS.index(m["level"]), m["id"]) for m in matches] == order
        assert {(m["field"], m["line"]) for m in matches} == {("back", "of two lines")}
        # Without more, refused; with a limit that fits, one reply; nothing found, one empty reply.
        refused = stream(c, "Search", {"pattern": "of two"})
        assert len(refused) == 1 and refused[0][1]["error"] == f"{BOX}.ReplyTooLarge"
        first = stream(c, "Search", {"pattern": "of two", "limit": 3})
        assert [m["id"] for m in first[0][1]["parameters"]["matches"]] == [k for _, k in order[:3]]
        none = stream(c, "Search", {"pattern": "zebra"}, more=True)
        assert len(none) == 1 and none[0][1]["parameters"] == {"matches": []}
        bad = stream(c, "Search", {"pattern": "x", "limit": 0})
        assert bad[0][1]["error"] == "org.varlink.service.InvalidParameter"
    # Python's varlink command line, --more: one JSON object printed per reply.
    result = subprocess.run([sys.executable, "-m", "varlink.cli", "call", "--more",
                             f"unix:{daemon.socket}/{BOX}.Search", json.dumps({"pattern": "front", "level": "2"})],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    decoder, rest, parts = json.JSONDecoder(), result.stdout.strip(), []
    while rest:
        part, end = decoder.raw_decode(rest)
        parts.append(part)
        rest = rest[end:].strip()
    assert len(parts) > 1
    found = [m for part in parts for m in part["matches"]]
    assert [m["id"] for m in found] == sorted(k for k, v in expected.items() if v == "2")
    assert all(m["field"] == "front" for m in found)


def test_leitnerctl_search_prints_every_match_through_the_small_limit(daemon, big):
    _, expected = big
    found = ctl(daemon, "search", "of two")
    assert found.returncode == 0, found.stderr
    lines = found.stdout.splitlines()
    assert len(lines) == CARDS
    assert {line.split("\t")[1]: line.split("\t")[0] for line in lines} == expected
    ids = ctl(daemon, "search", "-l", "-E", "card|front|back")  # the id and both sides match: each id once
    assert ids.stdout.splitlines() == [k for _, k in sorted((LEVELS.index(v), k) for k, v in expected.items())]
    as_json = ctl(daemon, "--json", "search", "--level", "3", "back")
    assert [json.loads(line)["id"] for line in as_json.stdout.splitlines()] == sorted(
        k for k, v in expected.items() if v == "3")
    assert ctl(daemon, "search", "zebra").returncode == 1


def test_leitnerctl_search_ends_when_its_output_closes_though_sigpipe_was_ignored(daemon):
    """`leitnerctl search | head`: once head has its lines and closes the pipe, leitnerctl ends
    (dies of SIGPIPE, as any filter) and its connection closes, so the daemon stops the call. One
    started with SIGPIPE ignored (a service manager, `trap '' PIPE`) gives it its default action
    again: before, each write failed with EPIPE unseen, and it read the 20,000 cards' matches
    to the end and exited 0."""
    env = dict(daemon.env, LEITNER_SOCKET=str(daemon.socket))
    process = subprocess.Popen([str(daemon.bin_dir / "leitnerctl"), "--no-autostart", "search", "of two"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               preexec_fn=lambda: signal.signal(signal.SIGPIPE, signal.SIG_IGN))
    assert process.stdout.readline().startswith(b"1\tcard-")
    process.stdout.close()  # as head does once it has its lines
    process.wait(timeout=60)
    assert process.returncode == -signal.SIGPIPE, process.stderr.read()


def test_other_calls_are_served_while_a_stream_waits_for_its_reader(daemon):
    # The turn at the box is taken for one batch at a time: a client that stops reading holds
    # up its own connection, not the box.
    with daemon.connect(timeout=60) as slow:
        slow.send({"method": f"{BOX}.List", "parameters": {"withText": True}, "more": True})
        assert json.loads(slow.receive_raw())["continues"] is True
        with daemon.connect(timeout=10) as other:
            started = time.monotonic()
            assert "today" in other.call("Status")
            assert other.call("Show", id="card-00000")["card"]["level"] == "1"
            assert time.monotonic() - started < 2
        # The rest still arrives whole.
        count = 0
        while True:
            message = json.loads(slow.receive_raw())
            count += 1
            if not message.get("continues"):
                break
        assert count > 50


def test_an_item_too_large_for_any_message_ends_the_stream_with_its_name(make_daemon, root):  # noqa: F811
    store = root / "store"
    build_store(store, 300)
    (store / "1" / "card-00000" / "front.txt").write_text("x" * (LIMIT + 100))
    daemon = make_daemon(store=store, config=f"[Daemon]\nMaxMessageSize={LIMIT // 1024}K\n").start()
    with daemon.connect() as c:
        replies = stream(c, "List", {"withText": True}, more=True)
        error = replies[-1][1]
        assert error["error"] == f"{BOX}.ReplyTooLarge"
        assert "card 'card-00000'" in error["parameters"]["reason"]
        assert all(length <= LIMIT for length, _ in replies)
        # Without text, it is as small as any other card.
        assert sum(len(m["parameters"]["cards"]) for _, m in stream(c, "List", {}, more=True)) == 300


def ctl(daemon, *args, timeout=120):
    env = dict(daemon.env, LEITNER_SOCKET=str(daemon.socket))
    return subprocess.run([str(daemon.bin_dir / "leitnerctl"), "--no-autostart", *args],
                          capture_output=True, text=True, env=env, timeout=timeout)


def test_leitnerctl_lists_and_exports_every_card_through_the_small_limit(daemon, big):
    _, expected = big
    listed = ctl(daemon, "list")
    assert listed.returncode == 0, listed.stderr
    lines = listed.stdout.splitlines()
    assert len(lines) == CARDS
    # Piped, a line is LEVEL, ID, FRONT, BACK, tab-separated (docs/leitnerctl.md).
    assert {line.split("\t")[1]: line.split("\t")[0] for line in lines} == expected

    as_json = ctl(daemon, "--json", "list", "2")
    cards = [json.loads(line) for line in as_json.stdout.splitlines()]
    assert [c["id"] for c in cards] == sorted(k for k, v in expected.items() if v == "2")

    exported = ctl(daemon, "export", "--with-levels")
    assert exported.returncode == 0, exported.stderr
    rows = exported.stdout.splitlines()
    assert rows[0] == "id\tlevel\tfront\tback\tfrontext\tbackext" and len(rows) == CARDS + 1
    fields = [row.split("\t") for row in rows[1:]]
    assert {f[0]: f[1] for f in fields} == expected
    first = next(f for f in fields if f[0] == "card-00007")
    assert first[2:] == ["front 7\\twith a tab", "back 7\\nof two lines", "txt", "txt"]

    log = ctl(daemon, "log", "--limit", "5000")
    assert len(log.stdout.splitlines()) == 5000
    assert len(ctl(daemon, "--json", "log").stdout.splitlines()) == 30_000


def test_a_stream_still_going_at_the_end_of_a_stop_is_cut_and_the_daemon_exits_cleanly(daemon):
    # A client reading a long listing slowly: the stop waits for it at most its 5 s. Then the
    # stream ends — with StoreFailure in place of its next part when there is room for it, else
    # by closing the connection, as any reply not taken by then — and the box is closed (exit 0).
    with daemon.connect(timeout=30) as slow:
        slow.send({"method": f"{BOX}.List", "parameters": {"withText": True}, "more": True})
        assert json.loads(slow.receive_raw())["continues"] is True
        stopped = time.monotonic()
        daemon.signal(signal.SIGTERM)
        last = None
        while True:
            try:
                last = json.loads(slow.receive_raw())
            except (EOFError, ConnectionError):
                break
            if not last.get("continues"):
                break
            time.sleep(0.05)
        assert last is not None and (last.get("continues") is True or last["parameters"]["reason"] == "the daemon is stopping"), last
    assert daemon.process.wait(timeout=20) == 0, daemon.log_text()
    assert time.monotonic() - stopped < 8


def test_a_costly_regex_is_cut_and_never_holds_the_box(make_daemon, root):  # noqa: F811
    # The regular-expression engine's worst case is text × program: this pattern keeps 4,000
    # states alive on a 60 KiB side, a few hundred million steps, past a search's work budget
    # (docs/performance.md, "A search's work budget"). It runs off the box's turn, so a Status
    # sent meanwhile is answered while the search is still at work; then the search is cut.
    store = root / "store"
    levels = build_store(store, 50)
    (store / levels["card-00001"] / "card-00001" / "back.txt").write_text("word " * 12_000)
    # A tenth of the default budget, so that a debug build spends it in seconds, not minutes.
    daemon = make_daemon(store=store, config="[Daemon]\nSearchSteps=40000000\n").start()
    pattern = "(.{0,500}){8}[xyz]"
    with daemon.connect(timeout=120) as searching, daemon.connect(timeout=60) as other:
        assert other.call("Search", pattern="word", regex=True)["matches"][0]["id"] == "card-00001"
        searching.send({"method": f"{BOX}.Search", "parameters": {"pattern": pattern, "regex": True}})
        time.sleep(0.3)
        assert "today" in other.call("Status")
        assert other.call("Show", id="card-00002")["card"]["id"] == "card-00002"
        searching.sock.setblocking(False)
        try:
            pending = searching.sock.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            pending = True
        searching.sock.setblocking(True)
        assert pending, "the search ended before the Status sent after it was answered"
        reply = searching.receive()
    assert reply["error"] == f"{BOX}.SearchCut", reply
    assert reply["parameters"]["pattern"] == pattern
    assert "narrower" in reply["parameters"]["reason"]
    # The daemon goes on: a cheap regex is answered.
    assert daemon.call("Search", pattern="^back 2$", regex=True)["matches"][0]["id"] == "card-00002"
