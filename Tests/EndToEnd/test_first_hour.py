"""What a newcomer meets in the first hour (#25): a card mended by hand joins the test whatever
the first call after the repair is; doctor reports what a mistyped `mv` leaves in the store's
root; the log's columns stay apart; status, calendar and stats say plainly what they count."""
import pytest

from cli_box import box  # noqa: F401  (a fixture)

# Each of these is the first request after the repair; the calls that come after it must find
# the mended card in the test (R21, R13, R8).
FIRST_CALLS = [
    ("doctor",), ("show", "katze"), ("list",), ("next",), ("prepare",), ("calendar",), ("log",),
    ("search", "cat"), ("stats",), ("status",),
]


@pytest.mark.parametrize("first", FIRST_CALLS, ids=lambda call: call[0])
def test_a_mended_card_joins_the_test_whatever_the_first_call(box, first):
    box.ok("add", "--id", "eins", "one", "eins")
    box.ok("add", "--id", "zwei", "two", "zwei")
    box.ok("grade", "zwei", "correct")
    card = box.store / "1" / "katze"
    card.mkdir()
    (card / "front.txt").write_text("cat\n")
    assert box.json("status")["test"]["remaining"] == 1  # katze is damaged: out of the test
    (card / "back.txt").write_text("Katze\n")
    box.ctl(*first)
    assert box.json("status")["test"]["remaining"] == 2
    assert "No problems found" in box.ok("doctor")
    assert box.json("status")["test"]["remaining"] == 2


def test_doctor_reports_what_is_in_the_root_beside_the_levels(box):
    box.ok("add", "--id", "katze", "Katze", "cat")
    mistyped = box.store / "9" / "hund"  # `mv 1/hund 9/` for `mv 1/hund 2/`
    mistyped.mkdir(parents=True)
    (mistyped / "front.txt").write_text("Hund\n")
    (mistyped / "back.txt").write_text("dog\n")
    (box.store / "notes.txt").write_text("to learn\n")
    for kept in [".stfolder", ".git", "new", "suspended"]:  # sync tools' own, and the places
        (box.store / kept).mkdir(exist_ok=True)
    result = box.ctl("doctor")
    assert result.returncode == 1, result.stdout
    assert f"'{box.store / '9'}'" in result.stdout
    assert "its cards are in no test, holding 'hund'" in result.stdout
    assert f"'{box.store / 'notes.txt'}'" in result.stdout
    for kept in [".stfolder", ".git", "new", "suspended", ".leitner"]:
        assert f"'{box.store / kept}'" not in result.stdout
    assert "2 problems in the store" in box.ok("status")
    (box.store / "notes.txt").unlink()
    (box.store / "9" / "hund").rename(box.store / "2" / "hund")
    (box.store / "9").rmdir()
    assert "No problems found" in box.ok("doctor")


def test_log_columns_stay_apart_for_the_longest_event(box):
    box.env["NO_COLOR"] = "1"
    box.ok("add", "--id", "kata-de", "kata", "Katze")
    box.ok("add", "--id", "hund", "Hund", "dog")
    import shutil
    shutil.rmtree(box.store / "1" / "kata-de")  # a delete by hand
    lines = box.ok("log").splitlines()
    assert lines[-1].split()[1:] == ["delete", "(by", "hand)", "kata-de", "1", "→", "–"], lines[-1]
    # The ids start in one column whatever the event's width.
    assert lines[-1].index("kata-de") == lines[-2].index("hund")


def test_status_counts_tests_from_one(box):
    """'test 0' read as 'no test': the first test of a box is test #1 (its cycle position + 1)."""
    box.env["NO_COLOR"] = "1"
    box.ok("add", "--id", "katze", "Katze", "cat")
    first = box.ok("status").splitlines()[0]
    assert " · test #1 · levels 2, 1 · open · 0 of 1 done" in first, first
    assert "test 0" not in first
    assert box.json("status")["test"]["position"] == 0  # the interface keeps the position


def test_calendar_and_stats_say_what_their_counts_for_tomorrow_mean(box):
    box.env["NO_COLOR"] = "1"
    for word in ["eins", "zwei", "drei"]:
        box.ok("add", "--id", word, word, word.upper())
    box.ok("grade", "eins", "correct")
    calendar = box.ok("calendar", "today", "+2").splitlines()
    assert len(calendar) == 3  # one line a day
    assert calendar[0].endswith("3 cards in its levels now"), calendar
    assert all(line.endswith(" in its levels now") for line in calendar)
    stats = box.ok("stats")
    assert "'leitnerctl calendar' counts the cards in each day's levels now" in " ".join(stats.split())
    # The past counts what was graded.
    box.stop()
    box.env["FAKETIME"] = "+1d"
    from sync_pair import LIBFAKETIME
    assert LIBFAKETIME, "faketime is not installed"
    box.env["LD_PRELOAD"] = LIBFAKETIME
    box.start()
    assert box.ok("calendar", "-1", "-1").rstrip().endswith("1 card graded")


def test_leitnerctl_under_faketime_keeps_its_arguments(box):
    """`faketime -f +1d leitnerctl …`: under libfaketime the Swift runtime sees no argv; leitnerctl
    reads it from the kernel, rather than running a bare `status` on the default store (#25)."""
    from sync_pair import LIBFAKETIME
    assert LIBFAKETIME, "faketime is not installed"
    box.ok("add", "--id", "katze", "Katze", "cat")
    env = dict(box.env, LD_PRELOAD=LIBFAKETIME, FAKETIME="+0d")
    assert box.ctl("--version", env=env).stdout.startswith("leitnerctl ")
    shown = box.ctl("--json", "show", "katze", env=env)
    assert shown.returncode == 0, shown.stderr
    assert '"id":"katze"' in shown.stdout.replace(" ", "")


def test_a_damaged_card_made_while_no_daemon_ran_stays_out_of_the_open_test(box):
    """R21 at start-up: a card directory with only a front, made while the daemon was stopped,
    is reported and kept out of the open test and the counts, as one made while it runs is."""
    box.ok("add", "--id", "eins", "one", "eins")
    box.ok("prepare")
    box.stop()
    half = box.store / "1" / "halb"
    half.mkdir()
    (half / "front.txt").write_text("half\n")
    box.start()
    status = box.json("status")
    assert status["problems"] == 1, status
    assert status["test"]["remaining"] == 1 and status["counts"]["1"] == 1, status
    assert box.ctl("grade", "halb", "correct").returncode == 1


def test_a_daemon_leitnerctl_starts_never_keeps_faketime(bin_dir, tmp_path):
    """`faketime -f +1d leitnerctl status` with no daemon running: the daemon it starts runs on
    the real clock, so that the next plain `status` is today, not tomorrow (#25)."""
    import datetime
    import os
    import signal
    from cli_box import CliBox, daemon_pids
    from sync_pair import LIBFAKETIME
    assert LIBFAKETIME, "faketime is not installed"
    b = CliBox(bin_dir, tmp_path)
    conf = tmp_path / "leitner.conf"
    conf.write_text(f"[Store]\nPath={b.store}\n")
    faked = dict(b.env, LD_PRELOAD=LIBFAKETIME, FAKETIME="+3d", TZ="UTC")
    try:
        first = b.ctl("--config", conf, "--json", "status", autostart=True, env=faked)
        assert first.returncode == 0, first.stderr
        today = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=4)  # DayStartsAt=04:00
        assert '"today":"%s"' % today.date().isoformat() in first.stdout.replace(" ", ""), first.stdout
        [pid] = daemon_pids(b.socket)
        environment = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
        assert not any(entry.startswith(b"FAKETIME") or (entry.startswith(b"LD_PRELOAD=") and b"faketime" in entry)
                       for entry in environment), environment
    finally:
        for pid in daemon_pids(b.socket):
            os.kill(pid, signal.SIGTERM)
