"""Two daemons on two copies of one store, kept in step by a real sync tool (docs/sync.md, "One
box on several machines"): store A served by device `a`, store B by device `b`, each daemon with
its own configuration (`[Sync] Device=`, `SettleAfter=1s`) and its own `XDG_STATE_HOME`, so that
no test ever reads or writes the user's device id.

`SyncPair.sync()` runs the real `unison` between the two store roots while both daemons run
(`-batch -auto -fastcheck false`, its state in a temporary `UNISON`), by default the whole store
but the voice's cache, which no sync tool carries (docs/sync.md), with no other ignore rule:
syncing the private state by mistake must harm nothing, so no conflict may ever be reported on a
`.leitner/` path. `settle()` waits out `SettleAfter=` and makes a request on both
daemons, before which each settles a card left in two levels by itself.

The checks the scripted and randomised tests share are here too: every card in exactly one
level, both sides listing the same cards at the same levels, the acknowledged grades in both
merged logs, each card where its newest event puts it."""
import collections
import dataclasses
import datetime
import glob
import os
import pathlib
import re
import shutil
import subprocess
import time

import pytest

from daemon_support import Daemon

LEVELS = ["1", "2", "3", "4", "5", "6", "7", "finished"]
SETTLE_AFTER = 1.0
# What `settle()` waits beyond `SettleAfter=`: the daemon's own clock and the file system's
# timestamps are coarser than Python's.
SETTLE_MARGIN = 0.25
# docs/sync.md, read by the tests that sync: they set up each tool with what a user is told to write.
SYNC_DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "sync.md"
# The voice's speech (docs/rules.md R33): each daemon makes its own, and no sync tool carries it
# (docs/sync.md), so even a sync of the whole store leaves it out.
CACHE = ".leitner/cache"
# What unison says when a file changed while it copied it (its "Transfer aborted" and
# "Destination updated during synchronization"), and how often `SyncPair.sync` runs it in all.
UNISON_CHANGED_MEANWHILE = re.compile(r"modified during synchronization|updated during synchronization")
UNISON_ATTEMPTS = 3
LIBFAKETIME = next(iter(glob.glob("/usr/lib/*/faketime/libfaketime.so.1") + glob.glob("/usr/lib/faketime/libfaketime.so.1")), None)


def sync_config(device, settle_after=SETTLE_AFTER):
    return f"[Sync]\nDevice={device}\nSettleAfter={settle_after:g}s\n"


def documented_rules(tool):
    """The lines of the block docs/sync.md gives for `tool` ("Syncthing", "Unison" or "git") in
    "Setting up a sync tool"."""
    text = SYNC_DOC.read_text()
    assert f"**{tool}.**" in text, f"docs/sync.md sets up no {tool}"
    block = text.split(f"**{tool}.**", 1)[1].split("```", 2)[1]
    return [line for line in block.splitlines() if line.strip()]


def unison_ignores():
    """The `ignore = …` lines of docs/sync.md's Unison profile, as command-line options."""
    return [argument for line in documented_rules("Unison") if line.startswith("ignore = ")
            for argument in ("-ignore", line.split(" = ", 1)[1])]


@dataclasses.dataclass
class UnisonRun:
    """One run of unison: its exit status, its output, and the paths it reported."""
    returncode: int
    output: str
    conflicts: list  # paths unison skipped for a conflict ("[CONFLICT] Skipping PATH", "skipped: PATH")
    failed: list     # paths unison failed to propagate ("failed: PATH")

    def changed_meanwhile(self):
        """True when unison says a file changed while it copied it (then only that transfer failed)."""
        return UNISON_CHANGED_MEANWHILE.search(self.output) is not None

    def leitner_conflicts(self):
        return [path for path in self.conflicts if path == ".leitner" or path.startswith(".leitner/")]


def parse_unison(returncode, output):
    conflicts, failed = [], []
    for line in output.splitlines():
        if m := re.match(r"\[CONFLICT\] Skipping (.*)$", line.strip()):
            conflicts.append(m.group(1).strip())
        elif m := re.match(r"skipped: (.*?)(?: \(.*\))?$", line.strip()):
            conflicts.append(m.group(1).strip())
        elif m := re.match(r"failed: (.*?)(?: \(.*\))?$", line.strip()):
            failed.append(m.group(1).strip())
        elif "<-?->" in line:
            conflicts.append(line.split("<-?->", 1)[1].split()[-1] if line.split("<-?->", 1)[1].split() else line)
    return UnisonRun(returncode, output, sorted(set(conflicts)), sorted(set(failed)))


class SyncPair:
    """Device `a` on store `root/a` and device `b` on store `root/b`, both running."""

    def __init__(self, bin_dir, root, settle_after=SETTLE_AFTER, clock=None, config=None, ignores=()):
        self.root = root
        self.ignores = list(ignores)  # unison options given to every sync (`-ignore`, `Path …`)
        self.settle_after = settle_after
        (root / "run").mkdir(exist_ok=True)
        env = {}
        if clock is not None:
            # One clock for both machines (libfaketime reads the file on every call), so that a
            # test moves both to the next day at once, as the calendar does to two real machines.
            assert LIBFAKETIME, "libfaketime not found: install the Debian package 'faketime'"
            self.clock = root / "faketime"
            self.clock.write_text(f"@{clock}\n")
            env = {"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(self.clock),
                   "FAKETIME_NO_CACHE": "1", "DONT_FAKE_MONOTONIC": "1"}
        self.daemons = {}
        for device in ("a", "b"):
            home = root / f"home-{device}"
            home.mkdir(exist_ok=True)
            text = config(device) if config is not None else sync_config(device, settle_after)
            self.daemons[device] = Daemon(bin_dir, home, config=text, store=root / device,
                                          socket_path=root / "run" / f"{device}.sock",
                                          env=dict(env, XDG_STATE_HOME=str(home / "state")))
        self.a, self.b = self.daemons["a"], self.daemons["b"]
        self.runs = []

    def set_clock(self, when):
        """Moves both daemons' clock to `when` ("YYYY-MM-DD HH:MM:SS")."""
        self.clock.write_text(f"@{when}\n")

    def start(self):
        """Starts A, copies its new store to an empty B with unison, then starts B: the second
        machine of a real setup starts from a copy of the first one's store."""
        self.a.start()
        self.b.store.mkdir(mode=0o700, exist_ok=True)
        self.sync()
        self.b.start()
        return self

    def stop(self):
        for daemon in self.daemons.values():
            try:
                daemon.stop(timeout=10)
            except Exception:
                pass
            daemon.kill()

    def sync(self, *extra, clean=True):
        """One run of the real unison between the two stores, both daemons running. With
        `clean`, unison must have propagated everything: no conflict and no failure at all
        (a test expecting a conflict on a card's file passes `clean=False` and looks at the
        run's `conflicts`); in every case none on a `.leitner/` path."""
        if shutil.which("unison") is None:
            pytest.skip("unison is not installed (.ci/run installs it)")
        env = dict(os.environ, UNISON=str(self.root / "unison-state"), HOME=str(self.root))
        # Both daemons run, so a file unison is copying may change under it (a log line, a kept
        # state file): unison then aborts that one transfer and says so, and its user runs it
        # again. So does this test, a few times, and only for that reason; the last run must
        # still be clean, and a conflict is never run again.
        for attempt in range(1, UNISON_ATTEMPTS + 1):
            result = subprocess.run(["unison", str(self.a.store), str(self.b.store), "-batch", "-auto",
                                     "-fastcheck", "false", "-ignore", f"Path {CACHE}", *self.ignores, *extra],
                                    env=env, capture_output=True, text=True, timeout=120)
            run = parse_unison(result.returncode, result.stdout + result.stderr)
            self.runs.append(run)
            if not (clean and run.failed and run.conflicts == [] and attempt < UNISON_ATTEMPTS
                    and run.changed_meanwhile()):
                break
        assert result.returncode in (0, 1, 2), run.output
        assert run.leitner_conflicts() == [], f"unison reported a conflict on {run.leitner_conflicts()}:\n{run.output}"
        if clean:
            assert run.conflicts == [] and run.failed == [] and result.returncode == 0, run.output
        return run

    def settle(self):
        """Waits until the store has been quiet for `SettleAfter=`, then makes a request on both
        daemons: before it, each settles by itself what a sync left in two levels. A daemon's
        own line about what the sync brought (a `move` with origin=hand, logged at its next tick,
        up to half `SettleAfter=` after the sync) is a change too, which starts the quiet time
        again: while a card is still in two levels on either side, look again a tick later, a
        few times."""
        time.sleep(self.settle_after + SETTLE_MARGIN)
        for attempt in range(4):
            for daemon in self.daemons.values():
                daemon.call("Status")
                daemon.call("List")
            if not any(in_two_levels(daemon.store) for daemon in self.daemons.values()):
                return
            time.sleep(self.settle_after / 2 + SETTLE_MARGIN)

    def sync_settle_sync(self):
        """sync, settle, sync, settle, sync, and a request on each: afterwards both stores hold
        the same files and each daemon has seen them. After the first settle, before anything
        of it is synced, both stores already hold the same cards in the same levels: each
        device reached the same answer by itself (docs/sync.md, "Settling a card after a sync")."""
        runs = [self.sync()]
        self.settle()
        alone_a, alone_b = cards_on_disk(self.a.store), cards_on_disk(self.b.store)
        assert alone_a == alone_b, "A and B settled differently, each by itself:\n" \
            f"A {sorted(set(alone_a) - set(alone_b))}\nB {sorted(set(alone_b) - set(alone_a))}"
        runs.append(self.sync())
        self.settle()
        runs.append(self.sync())
        for daemon in self.daemons.values():
            daemon.call("Status")
        return runs


def own_log(store, device):
    return store / ".leitner" / "devices" / device / "log"


def own_days(store, device):
    return store / ".leitner" / "devices" / device / "days"


def local_dir(store, device):
    return store / ".leitner" / f"local.{device}"


def is_sync_artifact(name):
    return name.startswith(".") or name.startswith("~syncthing~") or "conflict" in name


def cards_on_disk(store):
    """Every (id, level) pair found in the level directories, sync tools' leftovers excepted."""
    found = []
    for level in LEVELS:
        directory = store / level
        if directory.is_dir():
            for entry in sorted(directory.iterdir()):
                if entry.is_dir() and not is_sync_artifact(entry.name):
                    found.append((entry.name, level))
    return sorted(found)


def in_two_levels(store):
    found = cards_on_disk(store)
    return sorted(card for card, n in collections.Counter(card for card, _ in found).items() if n > 1)


def listed(daemon):
    """id -> level, from `List`, checking that no id is listed twice."""
    cards = daemon.call("List")["cards"]
    ids = [card["id"] for card in cards]
    assert len(ids) == len(set(ids)), f"an id listed twice: {ids}"
    return {card["id"]: card["level"] for card in cards}


def listed_with_text(daemon):
    return {card["id"]: card for card in daemon.call("List", withText=True)["cards"]}


def merged_log(daemon):
    return daemon.call("Log")["entries"]


def conflicts_dir(store):
    return store / ".leitner" / "conflicts"


def kept_conflicts(store):
    """Files kept under `.leitner/conflicts/`, as paths relative to it."""
    top = conflicts_dir(store)
    if not top.is_dir():
        return []
    return sorted(str(path.relative_to(top)) for path in top.rglob("*") if path.is_file())


def assert_one_level_each(pair):
    """Every card in exactly one level, on both stores; both list the same cards at the same
    levels, and what they list is what the directories hold."""
    on_a, on_b = cards_on_disk(pair.a.store), cards_on_disk(pair.b.store)
    for name, found in (("A", on_a), ("B", on_b)):
        twice = [i for i, n in collections.Counter(i for i, _ in found).items() if n > 1]
        assert twice == [], f"cards in two levels on {name}: " + str([(i, l) for i, l in found if i in twice])
    assert on_a == on_b, f"the stores differ:\nA {on_a}\nB {on_b}"
    list_a, list_b = listed(pair.a), listed(pair.b)
    assert list_a == list_b, f"A and B list different cards:\nA {list_a}\nB {list_b}"
    assert sorted(list_a.items()) == on_a, f"A lists {sorted(list_a.items())}, its store holds {on_a}"
    return list_a


# Which way a tie (the same second on two devices) goes: the newest event is the greatest
# (time, device id) — docs/sync.md.
def event_key(entry, index_in_device):
    return (entry["time"], entry.get("device") or "", index_in_device)


def hand_move(daemon, card, level, to):
    """`mv LEVEL/CARD TO/CARD` in the daemon's store, then a request, before which the daemon
    sees it and logs it (origin=hand). Returns what `placements` needs to know it for the
    test's own: (card, to, the wall-clock seconds it happened between)."""
    start = time.time()
    os.rename(daemon.store / level / card, daemon.store / to / card)
    daemon.call("Status")
    return (card, to, int(start), time.time())


def epoch(rfc3339):
    return datetime.datetime.fromisoformat(rfc3339).timestamp()


def placements(entries, own_hand_moves=(), edits_place=True):
    """For each card, the newest event that places it, with its level (None: deleted), from the
    merged log `entries`. Counted: the clients' add, grade, move, edit, delete and rename (the old
    id deleted, the new one placed where the card was), and the hand
    moves the test made itself (`own_hand_moves`, from `hand_move`): a hand move of that card to
    that level logged while it happened. Left out: a hand event the daemon logged for what a sync
    brought (another device's placement echoed), which names no decision of anyone's. A hand
    move is matched whatever device the entry names: the other device's echo of it, logged in the
    same second, is alike in every field but the device, and the merged log gives the two once
    (docs/sync.md), under the device whose id sorts first. Without `edits_place`, an edit places
    nothing: content and place are merged separately (docs/sync.md, "A store a sync tool is
    changing")."""
    counters = collections.Counter()
    newest = {}
    for entry in entries:
        device = entry.get("device") or ""
        index = counters[device]
        counters[device] += 1
        event, card = entry["event"], entry.get("id")
        if event == "rename" and entry.get("origin") is None and card is not None:
            # The old id leaves the box; the new one is where the card was.
            key = event_key(entry, index)
            for name, level in ((card, None), (entry.get("renamedTo"), entry.get("to"))):
                if name is not None and (name not in newest or key > newest[name][0]):
                    newest[name] = (key, level, entry)
            continue
        if card is None or event not in ("add", "grade", "move", "edit", "delete") or (event == "edit" and not edits_place):
            continue
        if entry.get("origin") is not None:
            mine = event == "move" and entry["origin"] == "hand" and any(
                card == moved and entry.get("to") == to and start <= epoch(entry["time"]) <= end
                for moved, to, start, end in own_hand_moves)
            if not mine:
                continue
        level = None if event == "delete" else entry.get("to")
        key = event_key(entry, index)
        if card not in newest or key > newest[card][0]:
            newest[card] = (key, level, entry)
    return {card: (level, entry) for card, (_, level, entry) in newest.items()}


def assert_newest_event_wins(pair, own_hand_moves=(), edits_place=True):
    """Each card is at the level its newest event names (absent when that is a delete), on both
    sides, and A's and B's merged logs agree on the clients' events."""
    log_a, log_b = merged_log(pair.a), merged_log(pair.b)
    clients = lambda log: [e for e in log if e.get("origin") is None]  # noqa: E731
    assert clients(log_a) == clients(log_b), "A and B merge the logs differently"
    for entries in (log_a, log_b):
        times = [e["time"] for e in entries]
        assert times == sorted(times), "the merged log is not in time order"
        assert all(e.get("device") in ("a", "b") for e in entries), \
            f"an entry without its device: {[e for e in entries if e.get('device') not in ('a', 'b')][:3]}"
    expected = {card: level for card, (level, _) in placements(log_a, own_hand_moves, edits_place).items() if level is not None}
    levels = assert_one_level_each(pair)
    wrong = {card: (levels.get(card), expected.get(card))
             for card in set(levels) | set(expected) if levels.get(card) != expected.get(card)}
    history = "\n".join(f"  {card}: at {level}, its newest event names {want}; its events:\n" + "\n".join(
        "    " + " ".join(f"{k}={v}" for k, v in e.items() if v is not None and k != "id")
        for e in log_a if e.get("id") == card) for card, (level, want) in sorted(wrong.items()))
    assert wrong == {}, f"cards not where their newest event puts them (hand moves the test made: " \
        f"{[m[:2] for m in own_hand_moves if m[0] in wrong]}):\n{history}"
    return levels


def assert_grades_logged(pair, acknowledged):
    """Every acknowledged grade — (device, id, correct) — is in both merged logs, once; and the
    logs hold no grade nobody gave."""
    expected = collections.Counter(acknowledged)
    for name, daemon in (("A", pair.a), ("B", pair.b)):
        grades = collections.Counter((e.get("device"), e["id"], e["correct"])
                                     for e in merged_log(daemon) if e["event"] == "grade")
        assert grades == expected, f"{name}'s merged log: missing {expected - grades}, unexpected {grades - expected}"


def wait_next_second():
    """Sleeps into the next wall-clock second, so that what follows is logged with a later time
    than what came before (the log's times are to the second)."""
    now = time.time()
    time.sleep(int(now) + 1 - now + 0.05)
