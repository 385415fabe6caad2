"""Reviewing offline beside the box's other devices and clocks, in headless Chromium on a phone
(docs/rules.md, R35; docs/sync.md, "A browser that reviews offline"): the laptop grades and a
card is moved by hand while the phone is offline, and every card ends in one place with both
histories kept; leitner-web killed while kept grades are on their way and the browser closed,
then opened again offline, still reviewing from what it kept and sending it all later; the day
changing while the phone is offline (libfaketime for leitnerd and leitner-web, a shifted `Date`
for the page); the voice (R33) kept with the cards. Screenshots (390×844) go to WEB_ARTIFACTS."""
import calendar
import datetime
import glob
import shutil
import time

import pytest
from selenium.webdriver.common.by import By

from browsers import PHONE, console_errors, set_offline, start_chromium
from daemon_support import log_file
from offline_review import (SHIFTED_DATE, Answers, DaemonDoor, all_sent, go_offline_to_the_kept_review, kept_ready,
                            kept_text, levels, log_lines, offline_click, offline_grade, offline_show, offline_undo,
                            phone_log, restart_web, start_review, start_web_behind, visible)
from web_box import WebBox, web_box, wait_until  # noqa: F401 (fixture)


def stock(box, count, prefix="card"):
    for n in range(count):
        box.ok("add", "--id", f"{prefix}{n}", f"question {n}", f"answer {n}")


def test_the_laptop_grades_and_moves_while_the_phone_is_offline(web_box, phone, artifacts):
    box = web_box
    stock(box, 6)
    box.start_web()
    start_review(box, phone)
    assert kept_ready(phone, 6)
    go_offline_to_the_kept_review(phone)
    given = Answers({"card1": 1}).review(phone, offline_show, offline_click, offline_undo, lambda: visible(phone, "show"))
    assert len(given) == 7
    # Meanwhile the laptop, against the same daemon: three of the same cards graded, one of them
    # wrong, and one moved by hand.
    for card, answer in [("card0", "correct"), ("card1", "wrong"), ("card2", "correct")]:
        box.ok("grade", card, answer)
    (box.store / "4").mkdir(exist_ok=True)
    (box.store / levels(box.store, "card3")[0] / "card3").rename(box.store / "4" / "card3")
    assert wait_until(lambda: box.card_level("card3") == "4", timeout=15)
    laptop_lines = log_lines(log_file(box.store))

    set_offline(phone, False)
    assert all_sent(phone), kept_text(phone)
    artifacts.shoot(phone, "review-offline-sent-after-laptop")
    # Both histories: the phone's grades, each once, in its own log; the laptop's grades and the
    # hand's move still in the laptop's.
    assert [(line[2], line[5] == "correct") for line in phone_log(box.store)] == given
    own = log_lines(log_file(box.store))
    assert own[:len(laptop_lines)] == laptop_lines
    assert [(line[2], line[5]) for line in own if line[1] == "grade"] == [
        ("card0", "correct"), ("card1", "wrong"), ("card2", "correct")]
    assert any(line[1] == "move" and line[2] == "card3" and "origin=hand" in line for line in own)
    assert sum(1 for line in own if "origin=kept" in line) == len(given)
    # `log` shows both devices' lines about the same card.
    entries = box.json_lines("log")
    assert {entry["device"] for entry in entries if entry["id"] == "card0" and entry["event"] == "grade"} == {"e2e", phone_log_device(box)}
    # Every card in exactly one place, and the box says the same place.
    for n in range(6):
        found = levels(box.store, f"card{n}")
        assert len(found) == 1, (n, found)
        assert box.card_level(f"card{n}") == found[0]
    assert box.ok("doctor").strip() == "No problems found."


def phone_log_device(box) -> str:
    return next(d.name for d in (box.store / ".leitner" / "devices").iterdir() if d.name.startswith("web-"))


@pytest.mark.parametrize("server", ["stopped", "running"])
def test_web_killed_with_grades_in_flight_and_the_browser_opened_again_offline(web_box, tmp_path, artifacts, server):
    box = web_box
    stock(box, 6)
    door = DaemonDoor(tmp_path / "door.sock", box.socket)
    start_web_behind(box, door)
    profile = tmp_path / "profile"
    browser = start_chromium(PHONE, profile=profile)
    try:
        start_review(box, browser)
        assert kept_ready(browser, 6)
        go_offline_to_the_kept_review(browser)
        first = [offline_grade(browser, True) for _ in range(3)]
        # Online again: the first grade reaches the daemon, leitner-web dies before it answers,
        # and the browser is closed with the rest on their way.
        door.victim = box.web.pid
        set_offline(browser, False)
        assert door.killed.wait(30)
        box.web.wait(10)
    finally:
        browser.quit()
    assert [line[2] for line in phone_log(box.store)] == first[:1]

    # The browser opens again offline: leitner-web still stopped, or back at home while the
    # phone has no network.
    if server == "running":
        restart_web(box, door.path)
    browser = start_chromium(PHONE, profile=profile)
    try:
        # Opened again offline, at the review's own address: the service worker answers with the
        # kept review, which still has the three grades and the cards after them.
        set_offline(browser, True)
        browser.get(box.base + "/review")
        assert wait_until(lambda: "kept on this phone: 3 grades waiting" in kept_text(browser) and visible(browser, "show"),
                          timeout=20), (kept_text(browser), console_errors(browser))
        assert browser.current_url == box.base + "/review" and browser.find_elements(By.ID, "offline-review")
        artifacts.shoot(browser, "reopened-offline")
        rest = []
        while visible(browser, "show"):
            rest.append(offline_grade(browser, True))
        assert sorted(first + rest) == [f"card{n}" for n in range(6)]
        assert "kept on this phone: 6 grades waiting" in kept_text(browser)
        if server == "stopped":
            restart_web(box, door.path)
        set_offline(browser, False)
        assert all_sent(browser, timeout=40), kept_text(browser)
    finally:
        browser.quit()
    assert [line[2] for line in phone_log(box.store)] == first + rest
    assert sum(1 for line in log_lines(log_file(box.store)) if "origin=kept" in line) == 6
    for n in range(6):
        assert levels(box.store, f"card{n}") == ["2"]
    assert box.json("status")["test"]["state"] == "completed"
    door.close()


LIBFAKETIME = next(iter(glob.glob("/usr/lib/*/faketime/libfaketime.so.1") + glob.glob("/usr/lib/faketime/libfaketime.so.1")), None)


class Clocks:
    """The servers' clock (libfaketime, a relative offset read on every call) and the page's,
    shifted together by whole seconds."""

    def __init__(self, box, path):
        assert LIBFAKETIME, "libfaketime not found: install the Debian package 'faketime'"
        self.path, self.shift, self.script, self.driver = path, 0, None, None
        box.env.update({"LD_PRELOAD": LIBFAKETIME, "FAKETIME_TIMESTAMP_FILE": str(path), "FAKETIME_NO_CACHE": "1",
                        "DONT_FAKE_MONOTONIC": "1", "TZ": "UTC"})

    def set(self, when: datetime.datetime):
        """Moves both clocks so that it is `when` (UTC) now."""
        self.shift = calendar.timegm(when.timetuple()) - int(time.time())
        self.path.write_text(f"{self.shift:+d}\n")
        if self.driver is not None:
            self.follow(self.driver)

    def follow(self, driver):
        """The page's clock from now on, for this page and every page the tab opens."""
        self.driver = driver
        if self.script is not None:
            driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": self.script})
        self.script = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                             {"source": SHIFTED_DATE % (self.shift * 1000)})["identifier"]
        driver.execute_script(SHIFTED_DATE % (self.shift * 1000))

    def page_now(self) -> datetime.datetime:
        return datetime.datetime.fromtimestamp(self.driver.execute_script("return Date.now()") / 1000, datetime.timezone.utc)


@pytest.fixture
def clocked_box(bin_dir, tmp_path):
    box = WebBox(bin_dir, tmp_path)
    clocks = Clocks(box, tmp_path / "faketime")
    # The evening before the day changes (DayStartsAt=04:00, the default): the test of the 10th.
    clocks.set(datetime.datetime(2026, 3, 11, 3, 40))
    box.start()
    yield box, clocks
    box.stop()


def test_offline_across_the_change_of_day(clocked_box, phone, artifacts):
    box, clocks = clocked_box
    stock(box, 5)
    box.start_web()
    clocks.follow(phone)
    assert clocks.page_now().strftime("%Y-%m-%d %H:%M") == "2026-03-11 03:40"
    start_review(box, phone)
    assert kept_ready(phone, 5)
    assert box.json("status")["today"] == "2026-03-10"
    go_offline_to_the_kept_review(phone)
    # Before the day changes: three grades, one wrong (asked again at the end).
    before = [(offline_grade(phone, right), right) for right in (True, False, True)]
    assert not visible(phone, "kept-old")
    # After: the page says that what it kept is the test of the 10th, and goes on with it; it
    # starts no test of its own.
    clocks.set(datetime.datetime(2026, 3, 11, 4, 20))
    after = [(offline_show(phone), True)]
    assert wait_until(lambda: visible(phone, "kept-old"))
    assert "test of 2026-03-10" in phone.find_element(By.ID, "kept-old").text
    artifacts.shoot(phone, "review-offline-day-changed")
    offline_click(phone, True)
    while visible(phone, "show"):
        after.append((offline_grade(phone, True), True))
    assert [card for card, _ in after][-1] == before[1][0]
    assert "No card is left" in phone.find_element(By.ID, "kept-state").text
    assert "test of 2026-03-10" in phone.find_element(By.ID, "kept-state").text
    artifacts.shoot(phone, "review-offline-old-test-done")

    # Sent later, on the 11th: each grade logged with the time it was given.
    clocks.set(datetime.datetime(2026, 3, 11, 9, 0))
    set_offline(phone, False)
    assert all_sent(phone, timeout=40), kept_text(phone)
    lines = phone_log(box.store)
    assert [(line[2], line[5] == "correct") for line in lines] == before + after
    assert [line[0][:13] for line in lines] == ["2026-03-11T03"] * 3 + ["2026-03-11T04"] * len(after)
    # The test of the 10th, carried over (R5), is completed by the grade that emptied it, on the
    # learning day it was given: the 11th.
    own = log_lines(log_file(box.store))
    assert [line[-1] for line in own if line[1] == "complete"] == ["date=2026-03-11"]
    status = box.json("status")
    assert status["today"] == "2026-03-11" and status["test"]["state"] == "completed", status
    # As the same answers online would: the 10th missed (its test carried over), the 11th
    # completed; and each grade counts on the learning day it was given.
    days = {day["date"]: day["state"] for day in box.json_lines("calendar")}
    assert (days["2026-03-10"], days["2026-03-11"]) == ("missed", "completed")
    reviews = {day["date"]: day["reviews"] for day in box.json("stats")["heatmap"]}
    assert (reviews["2026-03-10"], reviews["2026-03-11"]) == (len(before), len(after))
    for n in range(5):
        assert levels(box.store, f"card{n}") == ["2"]


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_voice_is_kept_with_the_cards(web_box, phone, artifacts):
    box = web_box
    box.ok("add", "--id", "hund", "der Hund", "dog")
    box.ok("add", "--id", "katze", "die Katze", "cat")
    box.ok("prepare")
    cache = box.store / ".leitner" / "cache" / "voice"
    assert wait_until(lambda: len(list(cache.glob("*.wav"))) == 4, timeout=30)
    box.start_web()
    start_review(box, phone)
    assert kept_ready(phone, 2)
    go_offline_to_the_kept_review(phone)
    # The server stopped too: every sound below comes from what the browser kept.
    box.web.terminate()
    box.web.wait(10)
    for _ in range(2):
        front = phone.find_element(By.CSS_SELECTOR, "#kept-front audio")
        assert front.get_attribute("id") == "voice-front"
        assert not phone.find_elements(By.CSS_SELECTOR, "#kept-back:not([hidden]) audio")
        # The browser reads the kept sound offline: its length is known once its metadata loaded.
        phone.execute_script("arguments[0].load()", front)
        assert wait_until(lambda: phone.execute_script("return arguments[0].duration > 0", front), timeout=15), console_errors(phone)
        offline_show(phone)
        back = phone.find_element(By.CSS_SELECTOR, "#kept-back audio")
        phone.execute_script("arguments[0].load()", back)
        assert wait_until(lambda: phone.execute_script("return arguments[0].duration > 0", back), timeout=15)
        artifacts.shoot(phone, "review-offline-voice")
        offline_click(phone, True)
