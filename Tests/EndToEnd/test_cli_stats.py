"""`leitnerctl stats` on a box driven through six simulated weeks under libfaketime: answers right
and wrong with answer times, an undo, missed days, a card moved by hand, cards added on the way.
Then the screen (plain when piped, Unicode and colour on a terminal, plain again with NO_COLOR),
`--json` checked against what the drive did, and `--html` rendered by headless Chromium."""
import datetime
import json
import os
import pathlib
import random
import re
import shutil
import subprocess

import pytest

from browsers import console_errors
from cli_box import on_terminal
from daemon_support import Daemon, add_text_card, short_root
from test_daemon_days import LIBFAKETIME

START = datetime.date(2026, 1, 5)           # a Monday
DAYS = 42                                   # six weeks; the 43rd day is "today"
MISSED = {10, 11, 25}                       # no review on these days
TODAY = START + datetime.timedelta(days=DAYS)


def at(day: int, hour: int = 10) -> str:
    return f"@{START + datetime.timedelta(days=day)} {hour:02d}:00:00\n"


@pytest.fixture(scope="module")
def drive(bin_dir):
    """The driven box: its daemon (still running, on TODAY) and what the drive did."""
    assert LIBFAKETIME, "libfaketime not found: install the Debian package 'faketime'"
    root = short_root()
    clock = root / "faketime"
    clock.write_text(at(0, 9))
    daemon = Daemon(bin_dir, root, env={"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(clock),
                                         "FAKETIME_NO_CACHE": "1", "DONT_FAKE_MONOTONIC": "1"}).start()
    rng = random.Random(14)
    done = {"grades": {}, "wrong": {}, "ms": {}, "completed": set(), "undone": 0}
    with daemon.connect() as c:
        for n in range(24):
            add_text_card(c, f"word {n}", f"meaning {n}", id=f"w{n}")
        for n in range(3):
            add_text_card(c, f"tricky {n}", f"hard meaning {n}", id=f"hard{n}")
    for day in range(DAYS):
        if day in MISSED:
            continue
        clock.write_text(at(day))
        date = str(START + datetime.timedelta(days=day))
        with daemon.connect() as c:
            if day == 21:
                for n in range(3):
                    add_text_card(c, f"late {n}", f"later {n}", id=f"late{n}")
            if day == 20:
                # A card moved by hand between two days of reviews (R13).
                level = next(p for p in (daemon.store).glob("*/w0"))
                os.rename(level, daemon.store / "5" / "w0")
            c.call("Prepare")
            while True:
                card = c.call("Next")["card"]
                if card is None:
                    break
                hard = card["id"].startswith("hard")
                right = rng.random() < (0.3 if hard else 0.85)
                ms = rng.randrange(800, 6000)
                if day == 15 and not done["undone"]:
                    c.call("Grade", id=card["id"], correct=False, answerMs=99999)
                    c.call("Undo")
                    done["undone"] = 1
                c.call("Grade", id=card["id"], correct=right, answerMs=ms)
                done["grades"][date] = done["grades"].get(date, 0) + 1
                done["ms"][date] = done["ms"].get(date, 0) + ms
                if not right:
                    done["wrong"][card["id"]] = done["wrong"].get(card["id"], 0) + 1
            if c.call("Status")["test"]["state"] == "completed":
                done["completed"].add(date)
    clock.write_text(at(DAYS, 9))
    yield daemon, done
    daemon.stop()
    shutil.rmtree(root, ignore_errors=True)


def ctl(daemon, *args, env=None):
    command = [str(daemon.bin_dir / "leitnerctl"), "--socket", str(daemon.socket), "--no-autostart", *args]
    environment = dict(daemon.env if env is None else env)
    environment.pop("LD_PRELOAD", None)
    result = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_json_has_every_figure_of_the_drive(drive):
    daemon, done = drive
    stats = json.loads(ctl(daemon, "stats", "--json", "--days", "60", "--leeches", "5"))
    status = daemon.call("Status")
    assert stats["today"] == str(TODAY) and stats["days"] == 60 and stats["leechDays"] == 60
    assert stats["counts"] == status["counts"] and stats["damaged"] == 0 and stats["loose"] == 0
    # Work: every grade not undone, on its day, with its answer time; the undone one nowhere.
    work = {day["date"]: day for day in stats["work"]}
    assert len(stats["work"]) == 60 and stats["work"][-1]["date"] == str(TODAY)
    for date, count in done["grades"].items():
        assert work[date]["reviews"] == count and work[date]["answerMs"] == done["ms"][date], date
    assert sum(day["reviews"] for day in stats["work"]) == sum(done["grades"].values())
    # The heatmap: 52 weeks to this Sunday; the missed days are missed, completed ones completed.
    heat = {day["date"]: day for day in stats["heatmap"]}
    assert len(stats["heatmap"]) == 364 and stats["heatmap"][-1]["date"] == str(TODAY + datetime.timedelta(days=6 - TODAY.weekday()))
    calendar = daemon.call("Calendar", **{"from": str(START - datetime.timedelta(days=3)), "to": str(TODAY)})["days"]
    assert [heat[day["date"]]["state"] for day in calendar] == [day["state"] for day in calendar]
    # A day without review is missed, or skipped when its test had no card (R6).
    for day in MISSED:
        assert heat[str(START + datetime.timedelta(days=day))]["state"] in ("missed", "skipped")
    assert "missed" in [day["state"] for day in calendar]
    for date in done["completed"]:
        assert heat[date]["state"] == "completed"
    assert heat[str(START - datetime.timedelta(days=1))]["state"] == "none"
    assert heat[str(TODAY)]["state"] == "today"
    # Streaks: back from today (open: it ends nothing), completed days count, skipped ones are
    # passed over, the last missed day (or the box's first) ends the run.
    current = 0
    for day in reversed(calendar[:-1]):
        if day["state"] in ("missed", "none"):
            break
        current += day["state"] == "completed"
    assert stats["streaks"]["current"] == current
    assert stats["streaks"]["longest"] >= stats["streaks"]["current"] > 0
    # Retention: first answers, at most one per card and test, never more than the grades.
    first = sum(r["answers"] for r in stats["retention"])
    assert 0 < first <= sum(done["grades"].values())
    assert all(0 <= r["right"] <= r["answers"] and r["recentAnswers"] == r["answers"] for r in stats["retention"])
    # The hardest cards: the most wrong answers first, with their levels now.
    leeches = stats["leeches"]
    assert len(leeches) == 5
    assert [l["failures"] for l in leeches] == sorted(done["wrong"].values(), reverse=True)[:5]
    levels = {card["id"]: card["level"] for card in daemon.call("List")["cards"]}
    assert all(levels[l["id"]] == l["level"] and done["wrong"][l["id"]] == l["failures"] for l in leeches)
    # The leeches (LeechAfter=8, the default): every card answered wrong 8 times or more since it
    # was added (none came from a place), most first; the hardest cards above are the window's.
    expected = sorted(((n, id) for id, n in done["wrong"].items() if n >= 8), key=lambda p: (-p[0], p[1]))
    assert stats["leechAfter"] == 8 and expected
    assert [(l["failures"], l["id"]) for l in stats["leechCards"]] == expected
    assert all(levels[l["id"]] == l["level"] for l in stats["leechCards"])
    # The forecast: 30 tests from today, one a day.
    assert [t["date"] for t in stats["forecast"][:2]] == [str(TODAY), str(TODAY + datetime.timedelta(days=1))]
    assert len(stats["forecast"]) == 30 and stats["forecast"][0]["cards"] == status["test"]["remaining"]


def test_the_screen_piped_is_plain_and_fits(drive):
    daemon, _ = drive
    out = ctl(daemon, "stats")
    assert "\x1b" not in out and out.isascii()
    for title in ["Cards by level", "Forecast", "The last 52 weeks", "Retention", "Work", "Streaks", "Hardest cards",
                  "Leeches - answered wrong 8 times or more since they entered levels 1 to 7"]:
        assert title in out
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "busiest:" in out and "x missed" in out
    # The heatmap's seven rows hold the missed days' x.
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("The last 52 weeks"))
    rows = lines[start + 2:start + 9]
    assert [row[:6] for row in rows[::2]] == ["  Mon ", "  Wed ", "  Fri ", "  Sun "]
    assert any("x" in row[6:] for row in rows)


def run_on_terminal(daemon, columns, env_extra=None):
    """leitnerctl stats on a pseudo-terminal `columns` wide; returns what it wrote."""
    env = dict(daemon.env)
    env.pop("LD_PRELOAD", None)
    env.pop("NO_COLOR", None)
    env.update(env_extra or {})
    status, output = on_terminal(daemon, "stats", columns=columns, rows=50, env=env)
    assert status == 0
    return output


def test_the_screen_on_a_terminal_has_colour_and_blocks_fitted_to_its_width(drive):
    daemon, _ = drive
    out = run_on_terminal(daemon, 100)
    assert "\x1b[" in out and "█" in out and "■" in out
    visible = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in out.replace("\r", "").splitlines()]
    assert all(len(line) <= 100 for line in visible)
    narrow = run_on_terminal(daemon, 60)
    visible = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in narrow.replace("\r", "").splitlines()]
    assert all(len(line) <= 60 for line in visible), max(visible, key=len)
    plain = run_on_terminal(daemon, 100, {"NO_COLOR": "1"})
    assert "\x1b" not in plain and plain.replace("\r", "").isascii()


def png_colours(path: pathlib.Path) -> int:
    """How many distinct colours the PNG has (ImageMagick)."""
    result = subprocess.run(["convert", str(path), "-format", "%k", "info:"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return int(result.stdout.strip())


def test_the_html_report_is_one_self_contained_page_that_chromium_renders(drive, tmp_path, desktop, artifacts):
    daemon, _ = drive
    report = tmp_path / "report.html"
    ctl(daemon, "stats", "--html", str(report))
    html = report.read_text()
    assert html.startswith("<!DOCTYPE html>") and html.count("<svg") >= 5
    leeches = html[html.index("<h2>Leeches</h2>"):]
    assert "Answered wrong 8 times or more" in leeches and "<td>hard" in leeches
    assert "<script" not in html and "http://" not in html and "https://" not in html and "@import" not in html
    assert "<style>" in html and "src=" not in html
    # A tooltip on every day of the heatmap, missed days named.
    assert html.count("<title>") >= 364 and ": missed</title>" in html
    for unit in ["cards per test", "reviews per day", "minutes per day", "right the first time"]:
        assert unit in html
    desktop.get(report.as_uri())
    shot = artifacts.shoot(desktop, "stats-report")
    assert console_errors(desktop) == []
    assert png_colours(shot) > 20
