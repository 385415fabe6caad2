"""A file of `.leitner/devices/DEVICE/` replaced under the running daemon, as Unison and Syncthing
replace a file (a temporary written beside it, renamed over it): the daemon reopens its own log
before it appends, so an acknowledged grade is in the log on disk and survives a restart
(docs/sync.md, "A file replaced under the daemon": an old copy come back, a sync tool told to
prefer the other side); the day record is read again before an entry joins it. Then the real
`unison` between two stores served by two daemons of two devices, with the ignore rules
docs/sync.md gives ("Setting up a sync tool"): each writes its own log, and reads the other's as
it arrives ("Devices: one writer per file")."""
import datetime
import os
import re
import shutil
import subprocess

import pytest

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import add_text_card, all_card_ids, days_file, device_environment, log_file
from sync_pair import unison_ignores


def replace(path, text):
    """What a sync tool does: writes a temporary beside the file and renames it over."""
    temporary = path.parent / f".unison.{path.name}.tmp"
    temporary.write_text(text)
    os.rename(temporary, path)


def grade_next(conn, correct=True):
    card = conn.call("Next")["card"]
    assert card is not None
    conn.call("Grade", id=card["id"], correct=correct, answerMs=5)
    return card["id"]


def other_device_line(log_path):
    """A line that is not this daemon's: a card added to level 5, in no test of these."""
    fields = log_path.read_text().splitlines()[0].split("\t")
    fields[2], fields[4] = "elsewhere", "5"
    return "\t".join(fields)


def grade_lines(log_path):
    return [line for line in log_path.read_text().splitlines() if line.split("\t")[1] == "grade"]


def test_a_grade_after_the_log_was_replaced_reaches_the_new_log(make_daemon):  # noqa: F811
    daemon = make_daemon().start()
    log = log_file(daemon.store)
    with daemon.connect() as c:
        for n in range(4):
            add_text_card(c, f"front {n}", f"back {n}", id=f"c{n}")
        c.call("Prepare")
        first = grade_next(c)
        # A copy from elsewhere: this log's lines and one more after them.
        other = other_device_line(log)
        replace(log, log.read_text() + other + "\n")
        second = grade_next(c)
    text = log.read_text()
    assert text.endswith("\n") and other in text.splitlines()
    graded = grade_lines(log)
    assert [first in line for line in graded] == [True, False] and second in graded[1]
    assert daemon.stop() == 0, daemon.log_text()

    daemon.start()
    assert grade_lines(log) == graded, "the grade stays in the log after a restart"
    status = daemon.call("Status")
    assert status["test"]["passed"] == 2 and status["test"]["remaining"] == 2
    with daemon.connect() as c:
        third = grade_next(c)
    assert third not in (first, second)
    assert len(grade_lines(log)) == 3
    levels = dict(all_card_ids(daemon.store))
    assert sorted(levels) == ["c0", "c1", "c2", "c3"] and list(levels.values()).count("2") == 3


def test_a_log_replaced_by_a_different_one_takes_the_next_grade(make_daemon):  # noqa: F811
    # The replacing copy differs before the test's first line: the test's file is anchored again, so
    # that a restart neither asks a graded card again nor reads another file's offsets.
    daemon = make_daemon().start()
    log = log_file(daemon.store)
    with daemon.connect() as c:
        for n in range(4):
            add_text_card(c, f"front {n}", f"back {n}", id=f"c{n}")
        c.call("Prepare")
        first = grade_next(c)
        adds = [line for line in log.read_text().splitlines() if line.split("\t")[1] == "add"]
        other = other_device_line(log)
        replace(log, other + "\n" + "\n".join(adds) + "\n")
        second = grade_next(c, correct=False)
    assert log.read_text().splitlines()[:5] == [other] + adds
    assert len(grade_lines(log)) == 1 and second in grade_lines(log)[0]
    assert daemon.stop() == 0, daemon.log_text()

    daemon.start()
    assert second in grade_lines(log)[0]
    asked = []
    with daemon.connect() as c:
        while (card := c.call("Next")["card"]) is not None:
            asked.append(card["id"])
            c.call("Grade", id=card["id"], correct=True, answerMs=5)
    assert first not in asked, "a card graded before the replacement is not asked again"
    assert set(asked) == {"c0", "c1", "c2", "c3"} - {first}
    levels = dict(all_card_ids(daemon.store))
    assert sorted(levels) == ["c0", "c1", "c2", "c3"] and set(levels.values()) == {"2"}


def test_a_day_record_replaced_under_the_daemon_is_read_again(make_daemon):  # noqa: F811
    daemon = make_daemon().start()
    days = days_file(daemon.store)
    with daemon.connect() as c:
        add_text_card(c, "front", "back", id="only")
        c.call("Prepare")
        position = c.call("Status")["test"]["position"]
        grade_next(c)
        assert c.call("Status")["test"]["state"] == "completed"
    recorded = days.read_text().splitlines()
    assert len(recorded) == 1 and recorded[0].endswith(" completed")
    # The other device completed the day before too: its copy has one more line.
    earlier = (datetime.date.fromisoformat(recorded[0].split()[0]) - datetime.timedelta(days=1)).isoformat()
    replace(days, f"{earlier} completed\n{recorded[0]}\n")
    assert daemon.call("Status")["test"]["position"] == position + 1, "two completed days: one position further"
    assert days.read_text().splitlines() == [f"{earlier} completed", recorded[0]]


def unison(root, a, b):
    """One run of the real unison between two stores, with docs/sync.md's profile's ignores."""
    env = dict(os.environ, UNISON=str(root / "unison-state"), HOME=str(root))
    result = subprocess.run(["unison", str(a), str(b), "-batch", "-auto", "-fastcheck", "false", *unison_ignores()],
                            env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    output = result.stdout + result.stderr
    assert "<-?->" not in output and not re.search(r"[1-9]\d* skipped", output), output
    return result


def graded_in_log(daemon):
    """(card, device) of each grade in the daemon's Log reply: every device's log, merged."""
    return [(e["id"], e["device"]) for e in daemon.call("Log")["entries"] if e["event"] == "grade"]


@pytest.mark.skipif(shutil.which("unison") is None, reason="unison is not installed (.ci/run installs it)")
def test_unison_brings_the_other_devices_log_while_the_daemon_runs(make_daemon, root):  # noqa: F811
    # Two machines: devices 'a' and 'b', each with its device id in a state directory of its own.
    a = make_daemon(store=root / "a", socket_path=root / "run" / "a.sock",
                    env=device_environment(root / "machine-a", "a")).start()
    for n in range(4):
        add_text_card(a, f"front {n}", f"back {n}", id=f"c{n}")
    (root / "b").mkdir(mode=0o700)
    unison(root, a.store, root / "b")
    b = make_daemon(store=root / "b", socket_path=root / "run" / "b.sock",
                    env=device_environment(root / "machine-b", "b")).start()
    assert b.call("Status")["counts"]["1"] == 4

    # A reviews; its log reaches B while B's daemon runs, and the card moves there too.
    with a.connect() as c:
        c.call("Prepare")
        on_a = grade_next(c)
    unison(root, a.store, b.store)
    a_log_on_b = log_file(b.store, "a")
    assert [on_a in line for line in grade_lines(a_log_on_b)] == [True]
    assert graded_in_log(b) == [(on_a, "a")]

    # B's next grade goes into B's own log, beside A's, which B never writes; both stay. (B's
    # test is its own: it may ask the card A graded, now in level 2, again.)
    a_graded = grade_lines(a_log_on_b)
    with b.connect() as c:
        c.call("Prepare")
        on_b = grade_next(c)
    b_log = log_file(b.store, "b")
    b_graded = grade_lines(b_log)
    assert len(b_graded) == 1 and on_b in b_graded[0]
    assert grade_lines(a_log_on_b) == a_graded
    assert b.stop() == 0, b.log_text()
    b.start()
    assert grade_lines(b_log) == b_graded and grade_lines(a_log_on_b) == a_graded
    assert graded_in_log(b) == [(on_a, "a"), (on_b, "b")]

    # Back to A, whose daemon reads B's log in turn: both grades, then A's next one, in A's log.
    unison(root, a.store, b.store)
    assert graded_in_log(a) == [(on_a, "a"), (on_b, "b")]
    with a.connect() as c:
        third = grade_next(c)
    a_graded = grade_lines(log_file(a.store, "a"))
    assert len(a_graded) == 2 and on_a in a_graded[0] and third in a_graded[1]
    assert grade_lines(log_file(a.store, "b")) == b_graded
    unison(root, a.store, b.store)
    assert sorted(all_card_ids(a.store)) == sorted(all_card_ids(b.store))
    for device in ("a", "b"):
        assert grade_lines(log_file(b.store, device)) == grade_lines(log_file(a.store, device)), device
    # Log merges the devices' logs in time order; at one time (the log's times are to the second,
    # and this runs within one), by device id, then each log's order (docs/sync.md).
    given = [(a_graded[0], "a", 0, on_a), (b_graded[0], "b", 0, on_b), (a_graded[1], "a", 1, third)]
    merged = [(card, device) for _, device, _, card in
              sorted(given, key=lambda g: (datetime.datetime.fromisoformat(g[0].split("\t")[0]), g[1], g[2]))]
    assert graded_in_log(b) == graded_in_log(a) == merged
    # Each card is where its newest grade put it (in the order they were given: A, B, A).
    newest = {f"c{n}": "1" for n in range(4)}
    for line in [a_graded[0], b_graded[0], a_graded[1]]:
        fields = line.split("\t")
        newest[fields[2]] = fields[4]
    assert sorted(all_card_ids(b.store)) == sorted(newest.items())
