"""leitner-web with the learning features (issue #28) in a real browser: Suspend from the review
(with the button and the `s` key; the card lands in suspended/ on disk and leaves the test), Edit
from the review once the answer is shown (the `e` key; the side's file changes, and the review
goes back to the answer), the Today page's waiting cards with pacing on, the tag filter on the
Cards page and a review of one tag; curl: the new POSTs without the CSRF token change nothing;
two boxes served by two leitner-web processes, each with its own cards and its own devices."""
import os
import pathlib
import subprocess
import urllib.parse

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from browsers import next_page
from test_boxes import boxes  # noqa: F401 (fixture)
from test_web_http import curl
from web_box import paced_web_box, web_box, wait_until  # noqa: F401 (fixtures)


def stock(box, count=6, tags=None):
    """`count` text cards in level 1; `tags` maps a card's number to its tags."""
    for n in range(count):
        box.ok("add", "--id", f"word{n:02d}", f"question {n}", f"answer {n}")
        for tag in (tags or {}).get(n, []):
            box.ok("tag", f"word{n:02d}", tag)


def head(box) -> str:
    """The id of the card the review shows now (the daemon's Next, as the page's)."""
    return box.json("next")["card"]["id"]


def reviewing(box, driver) -> str:
    """Six cards, the browser let in and on the first front: that card's id."""
    stock(box)
    box.start_web()
    driver.get(box.url)
    driver.find_element(By.ID, "start").click()
    assert wait_until(lambda: driver.current_url == box.base + "/review")
    return head(box)


def test_suspend_from_the_review_puts_the_card_in_suspended(web_box, phone):
    box = web_box
    first = reviewing(box, phone)
    # On the front: the button, and no id anywhere in the page.
    assert first not in phone.page_source
    # The page after the suspend, not the front it replaces (which has a Show too), is read next.
    with next_page(phone):
        phone.find_element(By.ID, "suspend").click()
    assert head(box) != first
    assert (box.store / "suspended" / first).is_dir() and not (box.store / "1" / first).exists()
    assert box.card_level(first) == "suspended"
    # The next card's front; suspended with the key this time, from its answer.
    second = head(box)
    with next_page(phone):
        phone.find_element(By.ID, "show").click()
    assert "/review/answer" in phone.current_url
    with next_page(phone):
        phone.find_element(By.TAG_NAME, "body").send_keys("s")
    assert box.card_level(second) == "suspended"
    assert (box.store / "suspended" / second).is_dir()
    # Both left today's test: four cards remain of six, none graded.
    test = box.json("status")["test"]
    assert test["remaining"] == 4 and test["passed"] == 0 and test["failed"] == 0
    assert phone.find_element(By.ID, "progress").text == "0 of 4 done"
    # Today says so.
    phone.get(box.base + "/")
    assert "2 cards are suspended" in phone.find_element(By.ID, "suspended").text


def test_edit_from_the_review_once_the_answer_is_shown(web_box, phone, artifacts):
    box = web_box
    card = reviewing(box, phone)
    # Before the answer there is no Edit, and `e` does nothing.
    assert not phone.find_elements(By.ID, "edit")
    front_url = phone.current_url
    phone.find_element(By.TAG_NAME, "body").send_keys("e")
    assert phone.current_url == front_url and card not in phone.page_source
    phone.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)
    assert wait_until(lambda: "/review/answer" in phone.current_url)
    answer_url = phone.current_url
    phone.find_element(By.TAG_NAME, "body").send_keys("e")
    assert wait_until(lambda: "/review/edit" in phone.current_url)
    assert phone.find_element(By.TAG_NAME, "h1").text == f"Edit {card}"
    back = phone.find_element(By.ID, "back")
    back.clear()
    back.send_keys("the right answer")
    artifacts.shoot(phone, "review-edit")
    phone.find_element(By.ID, "save").click()
    assert wait_until(lambda: "/review/answer" in phone.current_url)
    assert phone.current_url.startswith(answer_url) and "done=edited" in phone.current_url
    assert phone.find_element(By.ID, "notice").text == "Saved."
    assert "the right answer" in phone.find_element(By.ID, "card").text
    # On disk, under the side's own file name; the card is still the one to grade, in level 1.
    files = [p for p in (box.store / "1" / card).iterdir() if p.name.startswith("back")]
    assert len(files) == 1 and files[0].read_text().rstrip("\n") == "the right answer"
    phone.find_element(By.ID, "right").click()
    assert wait_until(lambda: box.card_level(card) == "2")


def test_today_shows_the_new_cards_waiting_with_pacing_on(paced_web_box, phone, artifacts):
    box = paced_web_box
    stock(box, count=25)
    box.start_web()
    phone.get(box.url)
    # Before the day's test opens, the first 20 (NewPerDay=20) come in when it does.
    assert phone.find_element(By.ID, "waiting").text == "25 new cards wait; 20 arrive today, when the test opens."
    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url == box.base + "/review")
    phone.get(box.base + "/")
    assert phone.find_element(By.ID, "waiting").text == "5 new cards wait; 5 arrive tomorrow."
    assert phone.find_element(By.ID, "progress").text == "Today's test: 0 of 20 done."
    assert len(list((box.store / "new").iterdir())) == 5
    artifacts.shoot(phone, "today-waiting")


def test_today_counts_the_new_cards_before_they_arrive(paced_web_box, phone, artifacts):
    """Two cards due in level 1 and 20 new ones that arrive when the day's test opens: before
    Start, Today counts the 22 the test will hold (it said "0 of 2 done"), and after it the
    review's own count is the same 22."""
    box = paced_web_box
    for n in range(2):
        box.ok("add", "--id", f"due{n}", f"due question {n}", f"answer {n}", "--level", "1")
    stock(box, count=20)
    box.start_web()
    phone.get(box.url)
    assert phone.find_element(By.ID, "progress").text == "Today's test: 0 of 22 done, 20 of them new, coming in when it starts."
    artifacts.shoot(phone, "today-before-arrivals")
    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url == box.base + "/review")
    phone.get(box.base + "/")
    assert phone.find_element(By.ID, "progress").text == "Today's test: 0 of 22 done."


def test_the_tag_filter_and_a_review_of_one_tag(web_box, phone, artifacts):
    box = web_box
    stock(box, tags={1: ["ja"], 3: ["ja", "verbs"], 4: ["de"]})
    box.start_web()
    phone.get(box.url)
    phone.get(box.base + "/cards")
    # The choice applies at once, with no press of Search (#36).
    Select(phone.find_element(By.ID, "tag")).select_by_value("ja")
    assert wait_until(lambda: "tag=ja" in phone.current_url)
    listed = [a.get_attribute("href").rsplit("/", 1)[1] for a in phone.find_elements(By.CSS_SELECTOR, ".results a")]
    assert listed == ["word01", "word03"]
    artifacts.shoot(phone, "cards-tag")
    # A card's page shows its tags as links to the filter.
    phone.get(box.base + "/cards/word03")
    assert [a.text for a in phone.find_elements(By.CSS_SELECTOR, "#tags a")] == ["ja", "verbs"]
    # The review of the tag: only its two cards, then the rest of the test is offered.
    phone.get(box.base + "/cards?tag=ja")
    phone.find_element(By.ID, "review-tag").click()
    seen = []
    while True:
        assert wait_until(lambda: phone.find_elements(By.ID, "show") or phone.find_elements(By.ID, "complete"))
        if not phone.find_elements(By.ID, "show"):
            break
        assert "Review · tag ja" in phone.find_element(By.TAG_NAME, "h1").text
        phone.find_element(By.ID, "show").click()
        assert wait_until(lambda: "/review/answer" in phone.current_url)
        seen.append(phone.find_element(By.CSS_SELECTOR, ".card-id").text.split(" · ")[0])
        phone.find_element(By.ID, "right").click()
        assert wait_until(lambda: "/review/answer" not in phone.current_url)
    assert sorted(seen) == ["word01", "word03"]
    assert "No card tagged ja is left in today's test; 4 other cards are to review." in phone.find_element(By.ID, "complete").text
    levels = {f"word{n:02d}": box.card_level(f"word{n:02d}") for n in range(6)}
    assert levels == {"word00": "1", "word01": "2", "word02": "1", "word03": "2", "word04": "1", "word05": "1"}


def test_a_search_shows_its_first_page_and_links_the_rest(web_box, phone, artifacts):
    """The Cards search shows its first 100 cards without counting every match (docs/web.md,
    "Cards"): leitner-web leaves the daemon's stream at the card after the page, and the next
    call, on a new connection, is answered; the page where the matches end counts them, and a
    hand edit made since is found (R13)."""
    box = web_box
    deck = box.tmp / "deck.tsv"
    deck.write_text("id\tfront\tback\n" + "".join(f"w{n:03d}\tsearched word {n}\tanswer {n}\n" for n in range(130)))
    box.ok("import", str(deck))
    box.ok("add", "--id", "zebra", "another front", "another back")
    box.start_web()
    phone.get(box.url)
    phone.get(box.base + "/cards")
    field = phone.find_element(By.NAME, "q")
    field.send_keys("searched")
    with next_page(phone):
        field.send_keys(Keys.ENTER)
    assert phone.find_element(By.ID, "shown").text == "1–100 of more than 100 cards matching"
    listed = [a.get_attribute("href").rsplit("/", 1)[1] for a in phone.find_elements(By.CSS_SELECTOR, ".results a")]
    assert listed == [f"w{n:03d}" for n in range(100)]
    artifacts.shoot(phone, "cards-search", dark=True)
    with next_page(phone):
        phone.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
    assert phone.find_element(By.ID, "shown").text == "101–130 of 130 cards matching"
    assert not phone.find_elements(By.CSS_SELECTOR, "a[rel=next]")
    # A side edited by hand since: found by the next search.
    (box.store / "1" / "zebra" / "front.txt").write_text("searched by hand")
    phone.get(box.base + "/cards?q=searched&page=2")
    assert phone.find_element(By.ID, "shown").text == "101–131 of 131 cards matching"
    assert phone.find_elements(By.CSS_SELECTOR, ".results a")[-1].get_attribute("href").endswith("/cards/zebra")
    # A page past the last match (an old link, a number typed) says where the matches end and
    # links that page, rather than "No card matches." (docs/web.md, "Cards").
    phone.get(box.base + "/cards?q=searched&page=5")
    shown = phone.find_element(By.ID, "shown").text
    assert "past the last match" in shown and "131 cards" in shown and "page 2" in shown, shown
    assert "No card matches." not in phone.page_source
    artifacts.shoot(phone, "cards-search-past-the-last-page", dark=True)
    with next_page(phone):
        phone.find_element(By.ID, "last-page").click()
    assert phone.find_element(By.ID, "shown").text == "101–131 of 131 cards matching"


def store_files(store):
    """The store's files and directories but hidden ones and the voice's cache, which the daemon
    fills off the box's turn after an add (docs/rules.md R33), whatever the page posts."""
    return sorted(str(p.relative_to(store)) for p in store.rglob("*")
                  if not p.name.startswith(".") and not p.relative_to(store).as_posix().startswith(".leitner/cache"))


def test_the_new_posts_without_the_csrf_token_change_nothing(web_box):
    box = web_box
    stock(box, count=2)
    box.start_web()
    cookie = box.login()
    status, _, page = box.request("GET", "/review", cookie=cookie)
    assert status == 200
    handle = page.split("/review/answer?card=")[1].split('"')[0]
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    card = head(box)
    before = store_files(box.store)
    for path, body in [("/review/suspend", f"card={handle}"), ("/review/suspend", f"card={handle}&csrf=" + "0" * 64),
                       ("/review/edit", f"card={handle}&back=changed"), ("/review/edit", f"card={handle}&back=changed&csrf=")]:
        status, _, text = curl("-X", "POST", "-H", "Cookie: " + cookie, "--data", body, box.base + path)
        assert status == 403 and "nothing was changed" in text, (path, body)
    # With the token but before the answer was shown, the edit is not made either.
    status, headers, _ = curl("-X", "POST", "-H", "Cookie: " + cookie, "--data", f"card={handle}&back=changed&csrf={csrf}",
                              box.base + "/review/edit")
    assert status == 303 and headers["location"] == "/review"
    after = store_files(box.store)
    assert after == before and box.card_level(card) == "1"
    assert "changed" not in box.ok("show", card)
    # The same suspend with the token does it.
    status, headers, _ = curl("-X", "POST", "-H", "Cookie: " + cookie, "--data", f"card={handle}&csrf={csrf}",
                              box.base + "/review/suspend")
    assert status == 303 and box.card_level(card) == "suspended"


def start_box_web(boxes, box, env=None):
    """`leitnerctl --box BOX web` (or with LEITNER_BOX in `env`) on a free port: the process and the link."""
    command = [str(boxes.bin_dir / "leitnerctl")] + ([f"--box={box}"] if box else []) + ["web", "--listen", "127.0.0.1:0"]
    process = subprocess.Popen(command, env=dict(boxes.env, **(env or {})), stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    url = process.stdout.readline().strip()
    assert url.startswith("http://127.0.0.1:"), url
    return process, url


def login(url):
    """Opens the link; returns (base address, cookie)."""
    parts = urllib.parse.urlsplit(url)
    base = f"{parts.scheme}://{parts.netloc}"
    status, headers, _ = curl(url)
    assert status == 303, status
    return base, headers["set-cookie"].split(";")[0]


def test_two_boxes_two_servers_each_its_own_cards_and_devices(boxes):  # noqa: F811
    boxes.ok("add", "--id", "neko", "猫", "cat", box="kana")
    boxes.ok("add", "--id", "hund", "Hund", "dog", env={"LEITNER_BOX": "german"})
    kana, kana_url = start_box_web(boxes, "kana")
    german, german_url = start_box_web(boxes, None, env={"LEITNER_BOX": "german"})
    try:
        kana_base, kana_cookie = login(kana_url)
        german_base, german_cookie = login(german_url)
        assert kana_base != german_base
        _, _, kana_cards = curl("-H", "Cookie: " + kana_cookie, kana_base + "/cards")
        _, _, german_cards = curl("-H", "Cookie: " + german_cookie, german_base + "/cards")
        assert "href=\"/cards/neko\"" in kana_cards and "hund" not in kana_cards
        assert "href=\"/cards/hund\"" in german_cards and "neko" not in german_cards
        assert "<title>Cards · kana · Leitner box</title>" in kana_cards
        assert "<title>Cards · german · Leitner box</title>" in german_cards
        # Each cookie is named for its box and port, and each device opens its own server only.
        kana_name, kana_secret = kana_cookie.split("=", 1)
        german_name, german_secret = german_cookie.split("=", 1)
        assert kana_name.startswith("leitner_kana_") and german_name.startswith("leitner_german_")
        assert kana_secret != german_secret
        status, _, page = curl("-H", f"Cookie: {german_name}={kana_secret}", german_base + "/cards")
        assert status == 401 and "neko" not in page and "kana" not in page
        status, _, _ = curl("-H", f"Cookie: {kana_name}={german_secret}", kana_base + "/cards")
        assert status == 401
        # A link opens once: the kana link, used, opens neither server again.
        for base in (kana_base, german_base):
            status, _, _ = curl(base + urllib.parse.urlsplit(kana_url).path)
            assert status == 401
        # The devices are kept per box, 0600, beside where the default box's would be (not made).
        for name, secret in [("kana", kana_secret), ("german", german_secret)]:
            path = boxes.state / f"{name}.web-devices"
            assert secret in path.read_text()
            assert os.stat(path).st_mode & 0o777 == 0o600
        assert not (boxes.state / "web-devices").exists()
    finally:
        for process in (kana, german):
            process.terminate()
            process.wait(10)


def test_the_default_box_serves_no_box_name(web_box):
    box = web_box
    box.start_web()
    cookie = box.login()
    _, _, page = box.request("GET", "/", cookie=cookie)
    assert "<title>Today · Leitner box</title>" in page and "box-name" not in page
    assert pathlib.Path(box.tmp / "xdg-state" / "leitner" / "web-devices").exists()


def test_a_cloze_cards_page_edits_its_note(web_box):
    """A cloze card's page (docs/rules.md R30) offers the note's text, with its gaps, and its
    extra, not the sides made from them: a word changed there changes every card of the note,
    and a side saved unchanged leaves the note as it was (the front shown, "Die **[…]** …", written
    back as the note's text would have lost every gap)."""
    box = web_box
    box.ok("add", "--level", "1", "--id", "katze", "--cloze", "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}")
    box.start_web()
    cookie = box.login()
    status, _, page = box.request("GET", "/cards/katze.c1", cookie=cookie)
    assert status == 200, page
    fields = {name: page.split(f'<textarea id="{name}" name="{name}">')[1].split("</textarea>")[0] for name in ("front", "back")}
    assert fields == {"front": "Die {{c1::Katze}} schläft {{c2::auf dem Sofa::wo?}}", "back": ""}, fields
    csrf = page.split('name="csrf" value="')[1].split('"')[0]
    note = box.store / "notes" / "katze"
    for front, back, done in [(fields["front"], "", "unchanged"),
                              ("Die {{c1::Katze}} schläft {{c2::im Korb::wo?}}", "the cat sleeps", "edited")]:
        form = urllib.parse.urlencode(dict(csrf=csrf, front=front, back=back))
        status, headers, _ = box.request("POST", "/cards/katze.c1/edit", body=form, cookie=cookie)
        assert status == 303 and headers["location"] == f"/cards/katze.c1?done={done}", (status, headers)
        assert (note / "text.md").read_text() == front
    assert (note / "extra.md").read_text() == "the cat sleeps"
    assert "im Korb" in box.ok("show", "katze.c2") and box.ctl("doctor").returncode == 0
