"""The day rolls over by itself (R4, R6 applied lazily): the daemon runs under libfaketime with
a clock the test moves, and every request sees the current logical date. Also the TestReady
hook that Prepare runs."""
import glob
import os
import time

import pytest

from daemon_fixtures import make_daemon, root  # noqa: F401 (fixtures)
from daemon_support import add_text_card

LIBFAKETIME = next(iter(glob.glob("/usr/lib/*/faketime/libfaketime.so.1") + glob.glob("/usr/lib/faketime/libfaketime.so.1")), None)


def faked_daemon(make_daemon, root, when, config=None):
    """A daemon whose clock reads the timestamp file on every call (FAKETIME_NO_CACHE)."""
    assert LIBFAKETIME, "libfaketime not found: install the Debian package 'faketime'"
    clock = root / "faketime"
    clock.write_text(f"@{when}\n")
    env = {"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(clock), "FAKETIME_NO_CACHE": "1",
           "DONT_FAKE_MONOTONIC": "1"}
    return make_daemon(env=env, config=config).start(), clock


def test_a_test_completed_one_day_the_next_days_test_opens(make_daemon, root):
    d, clock = faked_daemon(make_daemon, root, "2026-01-01 10:00:00")
    assert d.call("Status")["today"] == "2026-01-01"
    add_text_card(d, "a", "b", id="one")
    test = d.call("Prepare")["test"]
    assert test["date"] == "2026-01-01" and test["position"] == 0
    d.call("Grade", id="one", correct=True)
    assert d.call("Status")["test"]["state"] == "completed"                # R4

    clock.write_text("@2026-01-02 03:59:00\n")                            # before DayStartsAt=04:00
    assert d.call("Status")["today"] == "2026-01-01"
    clock.write_text("@2026-01-02 10:00:00\n")
    status = d.call("Status")
    assert status["today"] == "2026-01-02"
    assert status["test"]["position"] == 1 and status["test"]["levels"] == ["3", "1"]   # R3 entry 1
    assert status["test"]["state"] != "completed"
    days = d.call("Calendar", **{"from": "2026-01-01", "to": "2026-01-02"})["days"]
    assert [day["state"] for day in days] == ["completed", "today"]


def test_a_missed_day_keeps_the_test_open(make_daemon, root):
    d, clock = faked_daemon(make_daemon, root, "2026-03-01 12:00:00")
    add_text_card(d, "a", "b", id="one")
    add_text_card(d, "c", "d", id="two")
    d.call("Prepare")
    d.call("Grade", id="one", correct=True)
    clock.write_text("@2026-03-03 12:00:00\n")
    test = d.call("Status")["test"]
    assert test["position"] == 0 and test["remaining"] == 1                # R5


def test_prepare_runs_the_test_ready_hook_once(make_daemon, root):
    out = root / "hook.out"
    config = f"[Hooks]\nTestReady=echo \"$LEITNER_DATE $LEITNER_DUE $LEITNER_LEVELS\" >> '{out}'\n"
    d, _ = faked_daemon(make_daemon, root, "2026-01-01 10:00:00", config=config)
    add_text_card(d, "a", "b", id="one")
    add_text_card(d, "c", "d", id="two", level="2")
    d.call("Prepare")
    d.call("Prepare")
    # Once the daemon has seen the hook end, its line is whole in the file (the file appears
    # when the shell opens it, before echo writes), and a second run would have been started.
    deadline = time.monotonic() + 10
    while "exited with status 0" not in d.log_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "exited with status 0" in d.log_text()
    assert out.read_text() == "2026-01-01 2 2 1\n"


def test_a_failing_hook_is_logged_not_fatal(make_daemon, root):
    d, _ = faked_daemon(make_daemon, root, "2026-01-01 10:00:00", config="[Hooks]\nTestReady=exit 3\n")
    add_text_card(d, "a", "b", id="one")
    d.call("Prepare")
    deadline = time.monotonic() + 10
    while "exited with status 3" not in d.log_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "exited with status 3" in d.log_text()
    assert "today" in d.call("Status")
