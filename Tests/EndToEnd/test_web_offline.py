"""Reviewing offline in a real browser (docs/rules.md, R35; docs/web.md, "Reviewing offline"):
headless Chromium through Selenium, its network cut with DevTools'
`Network.emulateNetworkConditions`. The review kept online goes on offline — answers right and
wrong, a card answered wrong asked again, an undo — each grade kept in IndexedDB at once; a page
reloaded offline still has them and says how many wait; back online they are sent and the count
goes to zero; the store then holds every card in one level, where the same answers online put
it, and the browser's own log holds each grade once. A reply lost on the way — leitner-web killed
after the daemon took a grade, before the page had the answer — and the grade is taken once. A
grade the box refuses in the middle of the queue is set aside and shown, and the grades behind
it are sent. Screenshots (390×844) go to WEB_ARTIFACTS."""
import re

import pytest
from selenium.webdriver.common.by import By

from browsers import set_offline
from daemon_support import log_file
from offline_review import (SHIFTED_DATE, Answers, DaemonDoor, all_sent, go_offline_to_the_kept_review, kept_ready, kept_text,
                            levels, log_lines, offline_click, offline_grade, offline_show, offline_undo, online_click,
                            online_show, online_undo, phone_log, restart_web, shown_card, start_review, start_web_behind,
                            visible)
from web_box import started_web_box, web_box, wait_until  # noqa: F401 (fixture)

CARDS = 8


def network(driver, online: bool):
    set_offline(driver, not online)


def kept_grades(driver) -> list[dict]:
    """The grades the page holds in the browser's storage (IndexedDB), as it wrote them."""
    return driver.execute_script(
        "return new Promise(function (ok) { var r = indexedDB.open('leitner-offline', 1); r.onsuccess = function () {"
        " var q = r.result.transaction(['grades']).objectStore('grades').getAll(); q.onsuccess = function () { ok(q.result); }; }; })")


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
    online_show(browser)
    online_click(browser, True)
    assert kept_ready(browser, CARDS - 1)

    # The answer's page, offline: its grade is kept, and the review goes on from what was kept.
    go_offline_to_the_kept_review(browser)
    artifacts.shoot(browser, "review-offline-front")
    answers = [True, False, True, True, False]
    graded = []
    for right in answers:
        graded.append((offline_grade(browser, right), right))
    # An undo takes back the last grade, which was never sent.
    browser.find_element(By.ID, "undo").click()
    undone = graded.pop()
    assert wait_until(lambda: shown_card(browser) == undone[0]), (
        graded, undone, shown_card(browser), kept_text(browser), browser.find_element(By.TAG_NAME, "main").text)
    assert wait_until(lambda: "kept on this phone: 4 grades waiting" in kept_text(browser)), (
        graded, kept_grades(browser))
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


def test_a_reply_lost_after_the_daemon_took_the_grade(stocked, phone, tmp_path):
    box = stocked
    door = DaemonDoor(tmp_path / "door.sock", box.socket)
    start_web_behind(box, door)
    browser = phone
    start_review(box, browser)
    assert kept_ready(browser, CARDS)
    go_offline_to_the_kept_review(browser)
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
    restart_web(box, door.path)
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


def test_a_refused_grade_is_set_aside_and_the_grades_behind_it_are_sent(stocked, phone, artifacts):
    """The third of five grades kept offline is given while the phone's clock runs an hour ahead:
    the box refuses it (after now by more than ten minutes, R35). Back online, it is set aside
    and shown with its card and the box's reason, the four around it are taken, and the count of
    grades waiting goes to zero. It stays on the phone, also when the page is opened again,
    until the learner forgets it."""
    browser = phone
    box = stocked.start_web()
    start_review(box, browser)
    assert kept_ready(browser, CARDS)
    go_offline_to_the_kept_review(browser)
    before = [offline_grade(browser, True) for _ in range(2)]
    browser.execute_script(SHIFTED_DATE % 3_600_000)
    wrong_clock = offline_grade(browser, True)
    browser.execute_script(SHIFTED_DATE % 0)
    after = [offline_grade(browser, True) for _ in range(2)]
    assert wait_until(lambda: "kept on this phone: 5 grades waiting" in kept_text(browser)), kept_text(browser)

    set_offline(browser, False)
    said = "1 grade was refused by the box and is kept aside on this phone (below). All the others are sent."
    assert wait_until(lambda: said in kept_text(browser), timeout=30), kept_text(browser)
    assert "waiting" not in kept_text(browser)
    refused = browser.find_elements(By.CSS_SELECTOR, "#kept-refused .notice")
    assert [item.get_attribute("data-card") for item in refused] == [wrong_clock]
    words = refused[0].text
    number = wrong_clock.removeprefix("word")
    assert f"Not counted: your answer “Right” to card {wrong_clock} (question {number}), given " in words, words
    assert "by this phone's clock" in words and "ahead of the box's clock" in words and "the device's clock is wrong" in words, words
    # The page's sentence names the card, not the device's id that the box's message begins with,
    # nor the grade's number (it reads like a level); the box's time is in the phone's own words.
    assert "web-" not in words and not re.search(r"grade \d", words), words
    reason = [g for g in kept_grades(browser) if g.get("refused")][0]["refused"]
    stamp = re.search(r"\((\d{4}-\d\d-\d\dT[0-9:.]+[+-]\d\d:\d\d)\)", reason).group(1)
    box_time = browser.execute_script("return new Date(arguments[0]).toLocaleString()", stamp)
    assert f"ahead of the box's clock ({box_time})" in words and stamp not in words, (reason, words)
    # The long paragraph has the notice's width, its button below it, not a narrow column beside
    # the button that breaks the times in pieces on a phone.
    text, whole = browser.execute_script("return [arguments[0].querySelector('p').getBoundingClientRect().width,"
                                         " arguments[0].getBoundingClientRect().width]", refused[0])
    assert text >= 0.8 * whole, (text, whole)
    artifacts.shoot(browser, "review-offline-refused")

    # The box took the four around it, in order, and left the refused card where it was.
    lines = phone_log(box.store)
    assert [(line[2], line[5]) for line in lines] == [(card, "correct") for card in before + after]
    for card in before + after:
        assert levels(box.store, card) == ["2"], card
    assert levels(box.store, wrong_clock) == ["1"]
    aside = [g for g in kept_grades(browser) if g.get("refused")]
    assert [g["id"] for g in aside] == [wrong_clock]

    # Opened again: still shown, and sent no more; forgotten, it is gone from the phone.
    browser.get(box.base + "/review")
    assert wait_until(lambda: browser.find_elements(By.CSS_SELECTOR, "#kept-refused .notice"), timeout=15)
    assert [line[2] for line in phone_log(box.store)] == before + after
    browser.find_element(By.CSS_SELECTOR, "#kept-refused .notice button").click()
    assert wait_until(lambda: not visible(browser, "kept-refused"))
    assert not [g for g in kept_grades(browser) if g.get("refused")]


TWENTY = 20
# Wrong the first time they are asked (R9: asked again at the end of the test), one of them twice.
WRONG_FIRST = {"word03": 1, "word08": 2, "word12": 1, "word17": 1}


def standing_grades(lines) -> dict[str, list[tuple[str, str, str]]]:
    """Each card's grades that stand, in order, as (from, to, answer): an undo takes back its
    card's last grade (the online review logs it; offline, a grade undone was never sent)."""
    grades: dict[str, list[tuple[str, str, str]]] = {}
    for line in lines:
        if line[1] == "grade":
            grades.setdefault(line[2], []).append((line[3], line[4], line[5]))
        elif line[1] == "undo":
            grades[line[2]].pop()
    return grades


def test_twenty_cards_offline_end_where_the_same_answers_online_do(web_box, bin_dir, tmp_path, phone, desktop, artifacts):
    twin = started_web_box(bin_dir, tmp_path / "twin", pacing=False)
    try:
        for store in (web_box, twin):
            for n in range(TWENTY):
                store.ok("add", "--id", f"word{n:02}", f"question {n}", f"answer {n}")
        # The phone keeps the whole test online, then every answer is given offline: wrong
        # answers asked again at the end, one of them twice, and a grade undone on the way.
        box = web_box.start_web()
        start_review(box, phone)
        assert kept_ready(phone, TWENTY)
        go_offline_to_the_kept_review(phone)
        answers = Answers(WRONG_FIRST, undo_at=7)
        offline = answers.review(phone, offline_show, offline_click, offline_undo, lambda: visible(phone, "show"))
        assert answers.undone
        assert len(offline) == TWENTY + sum(WRONG_FIRST.values())
        assert f"kept on this phone: {len(offline)} grades waiting" in kept_text(phone)
        artifacts.shoot(phone, "review-offline-done")
        assert not list((box.store / ".leitner" / "devices").glob("web-*/log"))
        set_offline(phone, False)
        assert all_sent(phone, timeout=90), kept_text(phone)

        # The same answers online, on a twin store, through the review's own pages.
        twin.start_web()
        start_review(twin, desktop)
        online = Answers(WRONG_FIRST, undo_at=7).review(desktop, online_show, online_click, online_undo,
                                                         lambda: visible(desktop, "show"))
        assert sorted(online) == sorted(offline)

        # The store as the online answers left theirs: every card in one place, the same one.
        places = {f"word{n:02}": levels(box.store, f"word{n:02}") for n in range(TWENTY)}
        assert places == {card: levels(twin.store, card) for card in places}
        assert all(len(found) == 1 for found in places.values()), places
        # The log: the phone's grades, each once, in the order given, are the twin's.
        lines = phone_log(box.store)
        assert [(line[2], line[5] == "correct") for line in lines] == offline
        assert standing_grades(lines) == standing_grades(log_lines(log_file(twin.store)))
        sequences = [int(line[-1].split(":")[1]) for line in lines]
        assert sequences == sorted(set(sequences)), sequences
        own = log_lines(log_file(box.store))
        assert sum(1 for line in own if "origin=kept" in line) == len(offline)
        # The test completed, on the same date, by the same count.
        completions = [[line[1], line[-1]] for line in own if line[1] == "complete"]
        assert completions == [[line[1], line[-1]] for line in log_lines(log_file(twin.store)) if line[1] == "complete"]
        assert len(completions) == 1
        test, twin_test = box.json("status")["test"], twin.json("status")["test"]
        assert test["state"] == "completed"
        assert {k: v for k, v in test.items() if k != "completedAt"} == {k: v for k, v in twin_test.items() if k != "completedAt"}
    finally:
        twin.stop()
