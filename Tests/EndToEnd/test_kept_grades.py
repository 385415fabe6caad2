"""R35 through Varlink: grades a browser kept offline (`TakeKeptGrade`) and what it keeps
(`KeepTest`), against a real leitnerd — taken once, across a daemon killed and started again,
logged in the browser's own log with the time they were given, refused with the reason from a
device that is no browser or at a time the grade cannot have been given at; and that reason
through leitner-web."""
import datetime
import json
import signal
import time
import urllib.parse

from daemon_fixtures import make_daemon, root  # noqa: F401  (fixtures)
from daemon_support import VarlinkError, add_text_card, log_file
from web_box import web_box  # noqa: F401  (fixture)

PHONE = "web-phone1"


def lines(path):
    return [line.split("\t") for line in path.read_text().splitlines()] if path.exists() else []


def test_kept_grades_are_taken_once_across_a_kill(make_daemon):
    daemon = make_daemon().start()
    for n in range(3):
        add_text_card(daemon, f"front {n}", f"back {n}", id=f"c{n}")
    daemon.call("Prepare")
    kept = daemon.call("KeepTest", device=PHONE)
    assert [card["id"] for card in kept["cards"]] and len(kept["cards"]) == 3
    assert kept["onFail"] == "first" and kept["sequence"] == 0
    assert all(card["front"]["text"].startswith("front ") for card in kept["cards"])
    position = kept["test"]["position"]
    first, second, third = [card["id"] for card in kept["cards"]]
    # The phone grades a tenth of a second apart, after the test was kept; its times are the ones logged.
    kept_at = datetime.datetime.now(datetime.timezone.utc)

    def send(sequence, card, correct, level):
        given = (kept_at + datetime.timedelta(seconds=sequence / 10)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
        return daemon.call("TakeKeptGrade", device=PHONE, sequence=sequence, id=card, correct=correct,
                           time=given, answerMs=1200, level=level, position=position)

    time.sleep(0.5)
    reply = send(1, first, True, "1")
    assert reply["taken"] is True and reply["level"] == "2"
    assert send(1, first, True, "1")["taken"] is False
    assert send(2, second, False, "1")["level"] == "1"
    # Killed: a reply lost; the grade sent again after the start is taken once.
    daemon.process.send_signal(signal.SIGKILL)
    daemon.process.wait()
    daemon.start()
    assert send(2, second, False, "1")["taken"] is False
    assert daemon.call("KeepTest", device=PHONE)["sequence"] == 2
    assert send(3, second, True, "1")["level"] == "2"
    done = send(4, third, True, "1")
    assert done["taken"] and done["test"]["state"] == "completed"
    phone_log = lines(daemon.store / ".leitner" / "devices" / PHONE / "log")
    assert [(line[1], line[2], line[5], line[-1]) for line in phone_log] == [
        ("grade", first, "correct", f"kept={PHONE}:1"), ("grade", second, "wrong", f"kept={PHONE}:2"),
        ("grade", second, "correct", f"kept={PHONE}:3"), ("grade", third, "correct", f"kept={PHONE}:4")]
    assert phone_log[0][0] == (kept_at + datetime.timedelta(seconds=0.1)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "+00:00"
    own = [line for line in lines(log_file(daemon.store)) if "origin=kept" in line]
    assert len(own) == 4
    for card in (first, second, third):
        assert (daemon.store / "2" / card).is_dir() and not (daemon.store / "1" / card).exists()
    # Log shows the phone's lines as its device's.
    entries = daemon.call("Log")["entries"]
    assert sum(1 for entry in entries if entry.get("device") == PHONE) == 4


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def test_a_grade_for_a_card_gone_is_reported_and_bad_input_refused(make_daemon):
    daemon = make_daemon().start()
    add_text_card(daemon, "a", "b", id="gone")
    add_text_card(daemon, "c", "d", id="kept")
    daemon.call("KeepTest", device=PHONE)
    now = datetime.datetime.now(datetime.timezone.utc)
    daemon.call("Delete", id="gone")
    reply = daemon.call("TakeKeptGrade", device=PHONE, sequence=1, id="gone", correct=True, time=iso(now), level="1")
    assert reply["taken"] is True and reply.get("level") is None
    assert lines(daemon.store / ".leitner" / "devices" / PHONE / "log")[0][2] == "gone"
    for parameters, name in [(dict(device="no such device!"), "device"), (dict(level="finished"), "level"),
                             (dict(time="yesterday"), "time")]:
        call = dict(device=PHONE, sequence=2, id="kept", correct=True, time=iso(now), level="1")
        call.update(parameters)
        try:
            daemon.call("TakeKeptGrade", **call)
        except VarlinkError as error:
            assert name in str(error.parameters) or error.name.endswith("InvalidLevel"), error
        else:
            raise AssertionError(f"{parameters} was taken")
    assert (daemon.store / "1" / "kept").is_dir()


def test_only_a_browser_that_kept_a_test_sends_grades_at_times_it_can_have(make_daemon):
    """R35: a device that never kept a test, another machine's device, and a time before the
    browser first kept a test (1969) or after now (next year) are refused with the reason, and
    nothing is written."""
    daemon = make_daemon().start()
    add_text_card(daemon, "a", "b", id="x")
    desktop_log = daemon.store / ".leitner" / "devices" / "desktop" / "log"
    desktop_log.parent.mkdir(parents=True)
    desktop_log.write_text("2026-03-01T09:00:00Z\tadd\tp\t-\t5\t-\t-\n")
    now = datetime.datetime.now(datetime.timezone.utc)

    def refused(method, reason, **parameters):
        try:
            daemon.call(method, **parameters)
        except VarlinkError as error:
            assert error.name == "io.leitner.Box.KeptGradeRefused", error
            assert reason in error.parameters["reason"], error
            return error.parameters
        raise AssertionError(f"{method} {parameters} was taken")

    grade = dict(sequence=1, id="x", correct=True, level="1")
    for device in (PHONE, "desktop"):
        assert refused("TakeKeptGrade", "never kept a test", device=device, time=iso(now), **grade)["device"] == device
    refused("KeepTest", "another machine", device="desktop")
    assert not (daemon.store / ".leitner" / "devices" / PHONE).exists()
    assert desktop_log.read_text().count("\n") == 1
    daemon.call("KeepTest", device=PHONE)
    # Each reason names the bound broken and its time (this year's), not the grade's number.
    for given, reason in [(datetime.datetime(1969, 12, 31, tzinfo=datetime.timezone.utc), "before the device first kept a test"),
                          (now + datetime.timedelta(days=365), "ahead of the box's clock")]:
        said = refused("TakeKeptGrade", reason, device=PHONE, time=iso(given), **grade)["reason"]
        assert f"({now.year}-" in said and str(given.year) not in said and "grade" not in said, said
    assert not (daemon.store / ".leitner" / "devices" / PHONE / "log").exists()
    assert (daemon.store / "1" / "x").is_dir()
    assert daemon.call("TakeKeptGrade", device=PHONE, time=iso(datetime.datetime.now(datetime.timezone.utc)), **grade)["level"] == "2"


def test_the_web_answers_a_refused_grade_with_the_reason(web_box):
    """leitner-web passes the box's refusal on to the page (422, the reason in `error`), which
    shows it beside the grade it keeps (docs/web.md, "Reviewing offline")."""
    web_box.ok("add", "--id", "x", "--level", "1", "front", "back")
    web_box.start_web()
    cookie = web_box.login()
    status, _, body = web_box.request("GET", "/review/kept", cookie=cookie)
    assert status == 200, body
    kept = json.loads(body)
    future = int((time.time() + 365 * 86400) * 1000)
    form = urllib.parse.urlencode(dict(csrf=kept["csrf"], sequence=1, card="x", correct="yes", time=future, level="1",
                                       position=kept["position"], ms=900))
    status, _, body = web_box.request("POST", "/review/kept", body=form, cookie=cookie)
    assert status == 422, body
    assert "ahead of the box's clock" in json.loads(body)["error"] and "clock is wrong" in json.loads(body)["error"]
    assert web_box.card_level("x") == "1"
    form = form.replace(f"time={future}", f"time={int(time.time() * 1000)}")
    status, _, body = web_box.request("POST", "/review/kept", body=form, cookie=cookie)
    assert status == 200 and json.loads(body) == {"taken": True, "level": "2"}, body
