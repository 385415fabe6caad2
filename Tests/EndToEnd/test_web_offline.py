"""Reviewing offline in a real browser (docs/rules.md, R35; docs/web.md, "Reviewing offline"):
headless Chromium through Selenium, its network cut with DevTools'
`Network.emulateNetworkConditions`. The review kept online goes on offline — answers right and
wrong, a card answered wrong asked again, an undo — each grade kept in IndexedDB at once; a page
reloaded offline still has them and says how many wait; back online they are sent and the count
goes to zero; the store then holds every card in one level, where the same answers online put
it, and the browser's own log holds each grade once. A reply lost on the way — leitner-web killed
after the daemon took a grade, before the page had the answer — and the grade is taken once.
Screenshots (390×844) go to WEB_ARTIFACTS."""
import os
import pathlib
import signal
import socket
import subprocess
import threading

import pytest
from selenium.webdriver.common.by import By

from browsers import console_errors, set_offline
from daemon_support import log_file
from web_box import web_box, wait_until  # noqa: F401 (fixture)

CARDS = 8


def network(driver, online: bool):
    set_offline(driver, not online)


def visible(driver, element_id) -> bool:
    found = driver.find_elements(By.ID, element_id)
    return bool(found) and found[0].is_displayed()


def kept_text(driver) -> str:
    found = driver.find_elements(By.ID, "kept")
    return found[0].text if found and found[0].is_displayed() else ""


def kept_ready(driver, count) -> bool:
    """The page kept `count` cards and its service worker controls it."""
    return wait_until(lambda: driver.execute_script(
        "return document.documentElement.getAttribute('data-kept') === arguments[0] && !!navigator.serviceWorker.controller",
        str(count)), timeout=20)


def levels(store: pathlib.Path, card_id: str):
    return [level for level in ["1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"]
            if (store / level / card_id).is_dir()]


def log_lines(path: pathlib.Path):
    return [line.split("\t") for line in path.read_text().splitlines()] if path.exists() else []


def phone_log(store: pathlib.Path):
    devices = [d for d in (store / ".leitner" / "devices").iterdir() if d.name.startswith("web-")]
    assert len(devices) == 1, devices
    return log_lines(devices[0] / "log")


def start_review(box, browser):
    browser.get(box.url)
    assert wait_until(lambda: browser.current_url == box.base + "/")
    browser.find_element(By.ID, "start").click()
    assert wait_until(lambda: browser.current_url == box.base + "/review")


def offline_grade(browser, right: bool) -> str:
    """Shows the answer of the card the offline review shows, grades it; returns its id."""
    assert wait_until(lambda: visible(browser, "show"))
    card = browser.find_element(By.ID, "card").get_attribute("data-card")
    browser.find_element(By.ID, "show").click()
    assert wait_until(lambda: visible(browser, "right")), (browser.current_url, browser.find_element(By.TAG_NAME, "main").text,
                                                          browser.execute_script("return navigator.onLine"), console_errors(browser))
    browser.find_element(By.ID, "right" if right else "wrong").click()
    assert wait_until(lambda: visible(browser, "show") or not visible(browser, "card"))
    return card


@pytest.fixture
def stocked(web_box):
    for n in range(CARDS):
        web_box.ok("add", "--id", f"word{n}", f"question {n}", f"answer {n}")
    return web_box


def test_review_offline_then_send(stocked, phone, artifacts):
    browser = phone
    box = stocked.start_web()
    start_review(box, browser)
    assert kept_ready(browser, CARDS)
    # One card answered online, as usual; the page keeps the rest.
    browser.find_element(By.ID, "show").click()
    browser.find_element(By.ID, "right").click()
    assert kept_ready(browser, CARDS - 1)

    network(browser, online=False)
    assert browser.execute_script("return navigator.onLine") is False
    # The answer's page, offline: its grade is kept, and the review goes on from what was kept.
    browser.find_element(By.ID, "show").click()
    assert wait_until(lambda: browser.current_url.endswith("/review/offline"), timeout=15)
    assert wait_until(lambda: visible(browser, "show"))
    artifacts.shoot(browser, "review-offline-front")
    answers = [True, False, True, True, False]
    graded = []
    for right in answers:
        graded.append((offline_grade(browser, right), right))
    # An undo takes back the last grade, which was never sent.
    browser.find_element(By.ID, "undo").click()
    undone = graded.pop()
    assert wait_until(lambda: browser.find_element(By.ID, "card").get_attribute("data-card") == undone[0]), (
        graded, undone, browser.find_element(By.ID, "card").get_attribute("data-card"), kept_text(browser),
        browser.find_element(By.TAG_NAME, "main").text)
    assert wait_until(lambda: "kept on this phone: 4 grades waiting" in kept_text(browser)), (
        graded, browser.execute_script(
            "return new Promise(function (ok) { var r = indexedDB.open('leitner-offline', 1); r.onsuccess = function () {"
            " var q = r.result.transaction(['grades']).objectStore('grades').getAll(); q.onsuccess = function () { ok(JSON.stringify(q.result)); }; }; })"))
    # Closed and opened again offline (the address the review went to): the grades are still kept.
    browser.get(box.base + "/review/offline")
    assert wait_until(lambda: "kept on this phone: 4 grades waiting" in kept_text(browser), timeout=15)
    artifacts.shoot(browser, "review-offline-waiting")
    # The rest of the test, the cards answered wrong coming back at the end (R9).
    while visible(browser, "show"):
        graded.append((offline_grade(browser, True), True))
    assert "No card is left" in browser.find_element(By.ID, "kept-state").text
    # Nothing reached the box yet.
    assert not list((box.store / ".leitner" / "devices").glob("web-*/log"))

    network(browser, online=True)
    assert wait_until(lambda: "All grades kept on this phone are sent." in kept_text(browser), timeout=30), kept_text(browser)
    artifacts.shoot(browser, "review-offline-sent")
    # Every card in one level: level 2, as the same answers online leave them (right once, in
    # the end, from level 1).
    for n in range(CARDS):
        assert levels(box.store, f"word{n}") == ["2"], n
    lines = phone_log(box.store)
    assert [(line[2], line[5]) for line in lines] == [(card, "correct" if right else "wrong") for card, right in graded]
    sequences = [int(line[-1].split(":")[1]) for line in lines]
    assert sequences == sorted(set(sequences)), sequences
    status = box.json("status")
    assert status["test"]["state"] == "completed"


class DaemonDoor:
    """A Unix socket between leitner-web and leitnerd that passes every byte on, except that,
    once armed, it kills leitner-web when the daemon's answer to a kept grade comes back —
    after the daemon took the grade, before the page can have its answer."""

    def __init__(self, path: pathlib.Path, daemon_socket: pathlib.Path):
        self.path, self.daemon_socket = path, daemon_socket
        self.victim = None
        self.killed = threading.Event()
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(16)
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            daemon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            daemon.connect(str(self.daemon_socket))
            threading.Thread(target=self.pump, args=(client, daemon, False), daemon=True).start()
            threading.Thread(target=self.pump, args=(daemon, client, True), daemon=True).start()

    def pump(self, source, target, from_daemon):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if from_daemon and self.victim is not None and b'"taken"' in data:
                    os.kill(self.victim, signal.SIGKILL)
                    self.victim = None
                    self.killed.set()
                    break
                target.sendall(data)
        except OSError:
            pass
        for end in (source, target):
            try:
                end.close()
            except OSError:
                pass

    def close(self):
        self.listener.close()


def test_a_reply_lost_after_the_daemon_took_the_grade(stocked, phone, tmp_path):
    box = stocked
    door = DaemonDoor(tmp_path / "door.sock", box.socket)
    daemon_socket, box.socket = box.socket, tmp_path / "door.sock"
    try:
        box.start_web()
    finally:
        box.socket = daemon_socket
    browser = phone
    start_review(box, browser)
    assert kept_ready(browser, CARDS)
    set_offline(browser, True)
    browser.find_element(By.ID, "show").click()
    assert wait_until(lambda: visible(browser, "show"), timeout=15)
    graded = [offline_grade(browser, True) for _ in range(3)]
    assert wait_until(lambda: "kept on this phone: 3 grades waiting" in kept_text(browser))
    # Back online: the first grade reaches the daemon, and leitner-web dies before answering.
    door.victim = box.web.pid
    set_offline(browser, False)
    assert door.killed.wait(30)
    box.web.wait(10)
    assert wait_until(lambda: "kept on this phone: 3 grades waiting" in kept_text(browser), timeout=15), kept_text(browser)
    lines = phone_log(box.store)
    assert [line[2] for line in lines] == graded[:1]
    # leitner-web again, on the same address; the page sends what waits, the first grade again.
    box.web = subprocess.Popen(
        [str(box.bin_dir / "leitner-web"), "--socket", str(tmp_path / "door.sock"), "--listen", f"127.0.0.1:{box.port}"],
        env=box.env, stdout=subprocess.DEVNULL, stderr=box.web_log)
    def answers():
        try:
            return box.request("GET", "/static/nothing")[0] == 404
        except OSError:
            return False
    assert wait_until(answers, timeout=15), box.log_text()
    set_offline(browser, True)
    set_offline(browser, False)
    assert wait_until(lambda: "All grades kept on this phone are sent." in kept_text(browser), timeout=40), kept_text(browser)
    lines = phone_log(box.store)
    assert [line[2] for line in lines] == graded
    own = [line for line in log_lines(log_file(box.store)) if "origin=kept" in line]
    assert len(own) == 3
    for card in graded:
        assert levels(box.store, card) == ["2"]
    door.close()
