"""What the offline review's browser tests share (docs/rules.md, R35; docs/web.md, "Reviewing
offline"): the page's state as Selenium sees it, a review driven card by card offline or online
by one rule of answers, the store's places and logs, and a door between leitner-web and leitnerd
that kills leitner-web once the daemon has taken a kept grade (a reply lost on the way)."""
import os
import pathlib
import signal
import socket
import subprocess
import threading

from selenium.webdriver.common.by import By

from browsers import console_errors, next_page, read, set_offline
from web_box import wait_until

PLACES = ["1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"]

# The page's clock: `Date` shifted by `globalThis.__clockShift` ms, set before the page's own
# script runs, on every page the tab opens, and run again in the open page to move its clock as
# libfaketime moves the servers' (or as a phone's clock goes wrong).
SHIFTED_DATE = """
(function () {
  globalThis.__clockShift = %d;
  if (globalThis.__clockShifted) { return; }
  globalThis.__clockShifted = true;
  var Real = Date;
  class Shifted extends Real {
    constructor(...parts) { if (parts.length === 0) { super(Real.now() + globalThis.__clockShift); } else { super(...parts); } }
    static now() { return Real.now() + globalThis.__clockShift; }
  }
  globalThis.Date = Shifted;
})();
"""


def visible(driver, element_id) -> bool:
    return read(driver, By.ID, element_id, lambda e: e.is_displayed(), False)


def kept_text(driver) -> str:
    return read(driver, By.ID, "kept", lambda e: e.text if e.is_displayed() else "", "")


def shown_card(driver) -> str | None:
    """The id of the card the page shows (its `data-card`)."""
    return read(driver, By.ID, "card", lambda e: e.get_attribute("data-card"), None)


def kept_ready(driver, count) -> bool:
    """The page kept `count` cards and its service worker controls it."""
    return wait_until(lambda: driver.execute_script(
        "return document.documentElement.getAttribute('data-kept') === arguments[0] && !!navigator.serviceWorker.controller",
        str(count)), timeout=20)


def all_sent(driver, timeout=30) -> bool:
    return wait_until(lambda: "All grades kept on this phone are sent." in kept_text(driver), timeout=timeout)


def levels(store: pathlib.Path, card_id: str) -> list[str]:
    """Every place that holds a directory `card_id`: one, in a sound store."""
    return [level for level in PLACES if (store / level / card_id).is_dir()]


def log_lines(path: pathlib.Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text().splitlines()] if path.exists() else []


def phone_log(store: pathlib.Path) -> list[list[str]]:
    """The browser's own log, `.leitner/devices/web-ID/log` (the one browser of the test)."""
    devices = [d for d in (store / ".leitner" / "devices").iterdir() if d.name.startswith("web-")]
    assert len(devices) == 1, devices
    return log_lines(devices[0] / "log")


def start_review(box, browser):
    """Lets the browser in with the pairing link and opens today's test."""
    browser.get(box.url)
    assert wait_until(lambda: browser.current_url == box.base + "/")
    browser.find_element(By.ID, "start").click()
    assert wait_until(lambda: browser.current_url == box.base + "/review")


def go_offline_to_the_kept_review(browser):
    """Cuts the network, and clicks "Show answer" on the online page: the page goes on at
    /review/offline from what it kept."""
    set_offline(browser, True)
    assert browser.execute_script("return navigator.onLine") is False
    browser.find_element(By.ID, "show").click()
    assert wait_until(lambda: browser.current_url.endswith("/review/offline") and visible(browser, "show"), timeout=15), (
        browser.current_url, console_errors(browser))


def offline_show(browser) -> str:
    """Shows the answer of the card the offline review shows; returns its id."""
    assert wait_until(lambda: visible(browser, "show"))
    card = shown_card(browser)
    browser.find_element(By.ID, "show").click()
    assert wait_until(lambda: visible(browser, "right")), (browser.current_url, browser.find_element(By.TAG_NAME, "main").text,
                                                          browser.execute_script("return navigator.onLine"), console_errors(browser))
    return card


def offline_click(browser, right: bool):
    """Grades the card whose answer the offline review shows."""
    browser.find_element(By.ID, "right" if right else "wrong").click()
    assert wait_until(lambda: visible(browser, "show") or not visible(browser, "card"))


def offline_grade(browser, right: bool) -> str:
    """Shows the answer of the card the offline review shows, grades it; returns its id."""
    card = offline_show(browser)
    offline_click(browser, right)
    return card


def offline_undo(browser, card: str):
    """Takes back the last grade, not yet sent: `card` is shown again."""
    browser.find_element(By.ID, "undo").click()
    assert wait_until(lambda: visible(browser, "show") and shown_card(browser) == card)


def online_show(browser) -> str:
    """Shows the answer of the card the online review shows; returns its id (the answer's page
    names it)."""
    with next_page(browser):
        browser.find_element(By.ID, "show").click()
    assert wait_until(lambda: visible(browser, "right"))
    return shown_card(browser)


def online_click(browser, right: bool):
    """Grades the card whose answer the online review shows, and waits for the next page."""
    with next_page(browser):
        browser.find_element(By.ID, "right" if right else "wrong").click()
    assert wait_until(lambda: browser.find_elements(By.ID, "notice"))


def online_undo(browser, card: str):
    with next_page(browser):
        browser.find_element(By.ID, "undo").click()
    assert wait_until(lambda: "done=undone" in browser.current_url)


class Answers:
    """One rule of answers, the same offline and online: a card in `wrong_first` is answered
    wrong the first `wrong_first[card]` times it is asked, right after; at grade number
    `undo_at` the opposite answer is given first and taken back. `given` is what stays: (card,
    right) in order."""

    def __init__(self, wrong_first: dict[str, int], undo_at: int | None = None):
        self.wrong_first, self.undo_at = wrong_first, undo_at
        self.given: list[tuple[str, bool]] = []
        self.undone: str | None = None

    def review(self, browser, show, click, undo, more):
        while more():
            card = show(browser)
            right = sum(1 for c, _ in self.given if c == card) >= self.wrong_first.get(card, 0)
            if self.undone is None and len(self.given) == self.undo_at:
                click(browser, not right)
                undo(browser, card)
                self.undone = card
                assert show(browser) == card
            click(browser, right)
            self.given.append((card, right))
        return self.given


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


def start_web_behind(box, door: DaemonDoor):
    """Starts the box's leitner-web on the door's socket instead of the daemon's."""
    daemon_socket, box.socket = box.socket, door.path
    try:
        box.start_web()
    finally:
        box.socket = daemon_socket


def restart_web(box, socket_path: pathlib.Path):
    """leitner-web again, on the address it had (the page's origin, its service worker and kept
    grades stay the same), reaching the daemon through `socket_path`."""
    box.web = subprocess.Popen(
        [str(box.bin_dir / "leitner-web"), "--socket", str(socket_path), "--listen", f"127.0.0.1:{box.port}"],
        env=box.env, stdout=subprocess.DEVNULL, stderr=box.web_log)

    def answers():
        try:
            return box.request("GET", "/static/nothing")[0] == 404
        except OSError:
            return False
    assert wait_until(answers, timeout=15), box.log_text()
