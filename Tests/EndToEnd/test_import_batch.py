"""`leitnerctl import` through AddMany batches (docs/leitnerctl.md, "Importing"; docs/protocol.md,
"AddMany"; docs/store-format.md, "Batches"): durable and whole-or-absent per card (R17, R18),
idempotent, bad lines reported as FILE:LINE with the rest imported, a progress bar only on a
terminal."""
import json
import os
import pty
import random
import subprocess
import time

from cli_box import CliBox, box, kill_during_an_import  # noqa: F401  (fixture)
from daemon_support import log_file, private_dir

LEVELS = ["1", "2", "3", "4", "5", "6", "7", "finished"]


def write_deck(path, count, start=0):
    with open(path, "w") as f:
        f.write("id\tfront\tback\n")
        for n in range(start, start + count):
            f.write(f"w{n:05d}\tword {n}\tback of word {n}\n")


def cards_on_disk(store):
    """Every card directory in a level: id → (level, front text, back text), None for a missing side."""
    found = {}
    for level in LEVELS:
        directory = store / level
        if not directory.is_dir():
            continue
        for entry in os.scandir(directory):
            def side(name):
                try:
                    return (directory / entry.name / name).read_text()
                except FileNotFoundError:
                    return None
            assert entry.name not in found, f"card {entry.name} is in two levels"
            found[entry.name] = (level, side("front.txt"), side("back.txt"))
    return found


def added_in_log(store):
    lines = log_file(store).read_text().splitlines()
    return [line.split("\t")[2] for line in lines if line.split("\t")[1] == "add"]


def test_import_is_one_request_per_batch_and_twice_adds_nothing(box, tmp_path):  # noqa: F811
    deck = tmp_path / "deck.tsv"
    write_deck(deck, 9000)
    result = box.ctl("import", deck)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"Imported '{deck}': 9000 added, 0 already present, 0 refused.\n"
    assert result.stderr == ""  # not a terminal: no progress bar
    assert len(added_in_log(box.store)) == 9000
    again = box.json("import", deck)
    assert again["added"] == 0 and len(again["present"]) == 9000 and again["refused"] == []
    assert again["present"][0] == {"location": f"{deck}:2", "reason": "already in the box as 'w00000'"}
    on_disk = cards_on_disk(box.store)
    assert len(on_disk) == 9000
    assert on_disk["w08999"] == ("1", "word 8999", "back of word 8999")
    assert not os.listdir(private_dir(box.store) / "tmp")


def test_tagged_cards_are_added_with_their_tags_in_the_batch(box, tmp_path):  # noqa: F811
    """The tags travel in the batch (NewCard's tags): each card, and the reverse added beside it,
    is written whole with its tags in the change that adds it, so the log holds one add a card
    and no edit after it; a card already present keeps its own tags."""
    box.ok("add", "--id", "w00001", "--tag", "mine", "word 1", "back of word 1")
    before = len(log_file(box.store).read_text().splitlines())
    deck = tmp_path / "deck.tsv"
    deck.write_text("id\tfront\tback\ttags\n"
                    "w00000\tword 0\tback of word 0\tnum de:a\n"
                    "w00001\tword 1\tback of word 1\tnum\n"
                    "w00002\tword 2\tback of word 2\t\n")
    result = box.ctl("import", "--reverse", "--tag", "imported", "--tag", "num", deck)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"Imported '{deck}': 2 added (and 2 reverse cards), 1 already present, 0 refused.\n"
    assert (box.store / "1" / "w00000" / "tags").read_text() == "num\nde:a\nimported\n"
    assert (box.store / "1" / "w00000.rev" / "tags").read_text() == "num\nde:a\nimported\n"
    assert (box.store / "1" / "w00002" / "tags").read_text() == "imported\nnum\n"
    assert box.json("show", "w00001")["card"]["tags"] == ["mine"]
    events = [line.split("\t")[1:3] for line in log_file(box.store).read_text().splitlines()[before:]]
    assert sorted(events) == [["add", "w00000"], ["add", "w00000.rev"], ["add", "w00002"], ["add", "w00002.rev"]]


def test_bad_lines_are_reported_with_file_and_line_and_the_rest_go_in(box, tmp_path):  # noqa: F811
    deck = tmp_path / "mixed.tsv"
    deck.write_text("id\tfront\tback\tlevel\n"
                    "ok1\tuno\tone\t\n"
                    "bad id\tdos\ttwo\t\n"
                    "ok2\ttres\tthree\t9\n"
                    "only two fields\there\n"
                    "ok3\tcuatro\tfour\t3\n")
    result = box.ctl("--json", "import", "--with-levels", deck)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"leitnerctl: {deck}:3: invalid card id 'bad id': contains a space",
        f"leitnerctl: {deck}:4: invalid level '9': expected 1 to 7 or finished",
        f"leitnerctl: {deck}:5: expected 4 fields as the header says, found 2",
    ]
    summary = json.loads(result.stdout)
    assert summary["added"] == 2 and summary["present"] == []
    assert [p["location"] for p in summary["refused"]] == [f"{deck}:3", f"{deck}:4", f"{deck}:5"]
    assert {card: where[0] for card, where in cards_on_disk(box.store).items()} == {"ok1": "1", "ok3": "3"}


def test_a_card_the_daemon_refuses_is_reported_and_the_rest_go_in(box, tmp_path):  # noqa: F811
    pairs = tmp_path / "pairs"
    pairs.mkdir()
    (pairs / "good-front.txt").write_text("good")
    (pairs / "good-back.txt").write_text("fine")
    (pairs / "odd-front.txt").write_text("odd")
    (pairs / "odd-back.abcdefghijklmnopq").write_text("an extension of 17 letters")
    result = box.ctl("import", pairs)
    assert result.returncode == 1
    assert result.stderr == (f"leitnerctl: {pairs}/odd-back.abcdefghijklmnopq: the back ('back.abcdefghijklmnopq'): "
                             "the extension must be 1 to 16 letters or digits\n")
    assert result.stdout == f"Imported '{pairs}': 1 added, 0 already present, 1 refused.\n"
    assert list(cards_on_disk(box.store)) == ["good"]


def test_a_kill_during_an_import_leaves_every_card_whole_or_absent(box, tmp_path):  # noqa: F811
    """SIGKILL of the daemon at random instants of a large import: after a restart every card in
    the store is whole (both sides, the right text), each logged once, nothing is left staged; and
    importing again adds exactly the missing ones."""
    seed = int(os.environ.get("LEITNER_IMPORT_KILL_SEED", random.randrange(1 << 32)))
    print(f"LEITNER_IMPORT_KILL_SEED={seed} repeats these kills' instants")
    rng = random.Random(seed)
    deck = tmp_path / "deck.tsv"
    total = 14000
    write_deck(deck, total)
    counts = []
    for round_number in range(3):
        kill_during_an_import(box, deck, rng, 0.4)
        on_disk = cards_on_disk(box.store)
        for card, (level, front, back) in on_disk.items():
            n = int(card[1:])
            assert (level, front, back) == ("1", f"word {n}", f"back of word {n}"), f"round {round_number}: {card} is not whole"
        logged = added_in_log(box.store)
        assert sorted(logged) == sorted(on_disk), f"round {round_number}: the log's adds and the cards differ"
        assert not os.listdir(private_dir(box.store) / "tmp")
        assert not (private_dir(box.store) / "batch").exists()
        counts.append(len(on_disk))
    # The kills fell inside the import, not after it.
    assert any(0 <= count < total for count in counts), counts
    result = box.ctl("import", deck)
    assert result.returncode == 0, result.stderr
    present = len(cards_on_disk(box.store))
    assert present == total
    assert sorted(added_in_log(box.store)) == sorted(f"w{n:05d}" for n in range(total))


def test_the_progress_bar_shows_only_on_a_terminal_and_not_with_quiet(box, tmp_path):  # noqa: F811
    deck = tmp_path / "deck.tsv"
    write_deck(deck, 16000)

    def on_a_terminal(*options):
        """Runs the import with standard error on a pseudo-terminal; its bytes and the time taken."""
        controller, terminal = pty.openpty()
        started = time.monotonic()
        process = subprocess.Popen([str(box.bin_dir / "leitnerctl"), "--socket", str(box.socket), "--no-autostart",
                                    "import", *options, str(deck)], env=box.env, stdout=subprocess.PIPE, stderr=terminal)
        os.close(terminal)
        seen = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # EIO: the terminal's other end closed
                break
            if not chunk:
                break
            seen += chunk
        process.wait(60)
        os.close(controller)
        return seen.decode(), time.monotonic() - started

    shown, took = on_a_terminal()
    if took > 1.5:
        # Long enough for the bar (it waits a second): count, rate and time left, then wiped.
        assert "/16000 cards" in shown and "/s" in shown, shown
        assert shown.endswith("\r\x1b[K"), repr(shown[-40:])
    quiet, _ = on_a_terminal("--quiet")
    assert quiet == ""
    piped = box.ctl("import", deck)
    assert piped.stderr == "" and "16000 already present" in piped.stdout


def test_a_daemon_with_a_small_message_limit_gets_smaller_batches(bin_dir, tmp_path):
    """MaxMessageSize=64K: the first batch is refused whole (the daemon closes that connection,
    having carried nothing out); leitnerctl halves it and sends smaller ones on a new connection."""
    from daemon_support import Daemon
    daemon = Daemon(bin_dir, tmp_path, config="[Daemon]\nMaxMessageSize=64K\n").start()
    try:
        deck = tmp_path / "deck.tsv"
        write_deck(deck, 3000)
        env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "xdg-config"))
        result = subprocess.run([str(bin_dir / "leitnerctl"), "--socket", str(daemon.socket), "--no-autostart",
                                 "import", str(deck)], env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, result.stderr
        assert result.stdout == f"Imported '{deck}': 3000 added, 0 already present, 0 refused.\n"
        assert len(cards_on_disk(daemon.store)) == 3000
        assert sorted(added_in_log(daemon.store)) == [f"w{n:05d}" for n in range(3000)]
    finally:
        daemon.stop()
