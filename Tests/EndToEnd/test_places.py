"""new/ and suspended/ beside the levels (R1, R23, R24): a large deck comes in twenty cards a
day, cards are suspended and come back, and a card moved into a place by hand is taken in (R13).
The daemon runs with the embedded defaults (NewPerDay=20) under libfaketime, days moved by the
test."""
import glob
import json
import shutil

import pytest

from cli_box import CliBox, daemon_is_built

LIBFAKETIME = next(iter(glob.glob("/usr/lib/*/faketime/libfaketime.so.1") + glob.glob("/usr/lib/faketime/libfaketime.so.1")), None)


def paced_box(bin_dir, tmp_path, configuration=None):
    """A box started with pacing on (the default NewPerDay=20, unless `configuration`, its
    leitner.conf, says otherwise) and a clock the test moves, `box.clock` (Monday 2026-01-05)."""
    assert daemon_is_built(bin_dir), "leitnerd is not built"
    assert LIBFAKETIME, "libfaketime not found: install the Debian package 'faketime'"
    box = CliBox(bin_dir, tmp_path, pacing=True)
    if configuration is not None:
        (tmp_path / "config" / "leitner").mkdir(parents=True, exist_ok=True)
        (tmp_path / "config" / "leitner" / "leitner.conf").write_text(configuration)
    clock = tmp_path / "faketime"
    clock.write_text("@2026-01-05 10:00:00\n")
    box.env.update({"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(clock), "FAKETIME_NO_CACHE": "1",
                    "DONT_FAKE_MONOTONIC": "1", "TZ": "UTC"})
    box.start()
    box.clock = clock
    return box


@pytest.fixture
def paced(bin_dir, tmp_path):
    """A box with pacing on (the default NewPerDay=20) and a clock the test moves."""
    box = paced_box(bin_dir, tmp_path)
    yield box
    box.stop()


def counts(box):
    return box.json("status")["counts"]


def test_a_2000_card_deck_comes_in_twenty_a_day(paced, tmp_path):
    deck = tmp_path / "deck.tsv"
    deck.write_text("".join(f"front {n}\tback {n}\n" for n in range(2000)))
    paced.ok("import", str(deck))
    assert counts(paced)["new"] == 2000 and counts(paced)["1"] == 0
    status = paced.json("status")
    assert (status["arrivals"], status["arrivalDate"]) == (20, "2026-01-05")
    assert "2000 new cards waiting; 20 arrive today" in paced.ok("status")
    for day, date in enumerate(["2026-01-05", "2026-01-06", "2026-01-07"], start=1):
        paced.clock.write_text(f"@{date} 10:00:00\n")
        test = paced.json("prepare")["test"]
        # Nothing is graded: yesterday's test stays open and the day's twenty join it (R8).
        assert counts(paced)["1"] == 20 * day, date
        assert counts(paced)["new"] == 2000 - 20 * day
        assert test["remaining"] == 20 * day
        assert paced.json("status")["arrivalDate"] != date, "today's admissions are made"
    # In the file's order, each a logged move.
    assert paced.ok("log", "--limit", "60").count("(admitted)") == 60
    listed = {card["id"] for card in paced.json_lines("list", "1")}
    assert listed == {f"front-{n}" for n in range(60)}


def test_suspend_and_unsuspend(paced):
    paced.ok("add", "--level", "3", "--id", "a", "front a", "back a")
    paced.ok("add", "--level", "1", "--id", "b", "front b", "back b")
    assert "Suspended 'a'." in paced.ok("suspend", "a")
    assert (paced.store / "suspended" / "a").is_dir()
    # Not suspended: a clear error, exit 1, nothing moved.
    result = paced.ctl("unsuspend", "a", "b")
    assert result.returncode == 1
    assert "card 'b' is not suspended: it is in level 1" in result.stderr
    assert (paced.store / "suspended" / "a").is_dir()
    assert "back in level 3" in paced.ok("unsuspend", "a")
    assert (paced.store / "3" / "a").is_dir()
    assert paced.ok("move", "a", "new") == "Moved 'a' to new.\n"


def test_a_hand_move_into_the_places_is_taken_in(paced):
    paced.ok("add", "--level", "1", "--id", "a", "front a", "back a")
    paced.ok("add", "--level", "1", "--id", "b", "front b", "back b")
    assert paced.json("prepare")["test"]["remaining"] == 2
    shutil.move(str(paced.store / "1" / "a"), str(paced.store / "new" / "a"))
    shutil.move(str(paced.store / "1" / "b"), str(paced.store / "suspended" / "b"))
    status = paced.json("status")
    assert (status["counts"]["new"], status["counts"]["suspended"], status["counts"]["1"]) == (1, 1, 0)
    assert status["test"]["remaining"] == 0
    # The hand-suspended card has no level in the log but the one it left: it goes back there.
    assert "back in level 1" in paced.ok("unsuspend", "b")


def test_calendar_and_stats_show_when_new_cards_arrive(paced, tmp_path):
    """45 cards in new/ at NewPerDay=20: the calendar says 20, 20, 5 from today (admitted days
    from the log, days to come forecast); the stats forecast counts them in its tests' cards, on
    the screen and in the HTML report."""
    deck = tmp_path / "deck.tsv"
    deck.write_text("".join(f"front {n}\tback {n}\n" for n in range(45)))
    paced.ok("import", str(deck))
    days = paced.json_lines("calendar", "2026-01-04", "2026-01-09")
    arrivals = [day["arrivals"] for line in days for day in line.get("days", [line])]
    assert arrivals == [0, 20, 20, 5, 0, 0]
    stats = paced.json("stats")
    assert [test["arrivals"] for test in stats["forecast"][:4]] == [20, 20, 5, 0]
    assert stats["forecast"][0]["cards"] == 20  # today's test: level 1's newcomers
    out = paced.ok("stats")
    assert "45 new cards arrive from new/ in these tests, up to 20 a day, the last on" in out
    report = tmp_path / "report.html"
    paced.ok("stats", "--html", str(report))
    html = report.read_text()
    assert "45 new cards arrive from new/" in html and "20 of them new from new/" in html
    # Opened: today's 20 are admitted, the log's; the rest is still forecast.
    paced.ok("prepare")
    assert "· 20 came from new/" in paced.ok("calendar", "2026-01-05", "2026-01-05")
    assert "· +20 new from new/" in paced.ok("calendar", "2026-01-06", "2026-01-06")
    days = paced.json_lines("calendar", "2026-01-05", "2026-01-08")
    assert [day["arrivals"] for line in days for day in line.get("days", [line])] == [20, 20, 5, 0]
    paced.clock.write_text("@2026-01-06 10:00:00\n")
    days = paced.json_lines("calendar", "2026-01-05", "2026-01-08")
    assert [day["arrivals"] for line in days for day in line.get("days", [line])] == [20, 20, 5, 0]
