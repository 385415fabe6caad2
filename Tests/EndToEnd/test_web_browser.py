"""leitner-web in a real browser: headless Chromium driven by Selenium and chromium-driver. Pair
with the printed link; review five cards with clicks and five with keys; the store moves them as the
terminal's review would (R4, R5: right goes one level up, wrong back to level 1); Undo; an
image card's image loads; an audio card has its player; a browser without the cookie sees no
card; a POST without the CSRF token changes nothing. Phone-sized (390×844) screenshots of the
review and of today's page are kept (browsers.py says where)."""
import io
import time
import wave

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browsers import read
from review_pty import png
from web_box import web_box, wait_until  # noqa: F401 (fixture)

TEXT_CARDS = 12


def wav(seconds=0.2, rate=8000) -> bytes:
    """A short silent WAV file."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(1)
        out.setframerate(rate)
        out.writeframes(b"\x80" * int(seconds * rate))
    return buffer.getvalue()


@pytest.fixture
def stocked(web_box, tmp_path):
    """Twelve text cards, one image card and one audio card, all in level 1 (so in today's test)."""
    for n in range(TEXT_CARDS):
        web_box.ok("add", "--id", f"word{n:02d}", f"question {n}", f"answer {n}")
    picture = tmp_path / "picture.png"
    picture.write_bytes(png(64, 48, (200, 30, 30)))
    web_box.ok("add", "--id", "picture", "--front-file", picture, "a red rectangle")
    sound = tmp_path / "sound.wav"
    sound.write_bytes(wav())
    web_box.ok("add", "--id", "sound", "--front-file", sound, "a short silence")
    return web_box.start_web()


def current_card_id(driver) -> str:
    """The id shown under the answer (only once the answer is shown)."""
    return driver.find_element(By.CSS_SELECTOR, ".card-id").text.split(" · ")[0]


def progress_is(driver, text) -> bool:
    """Waits until the page's progress starts with `text`, "N of M done" (a click's page load may
    still be under way)."""
    return wait_until(lambda: read(driver, By.ID, "progress", lambda e: e.text.startswith(text), False))


def check_media(driver, seen):
    """On a front page: the image loaded, the audio element is there."""
    images = driver.find_elements(By.CSS_SELECTOR, "#card img")
    if images:
        assert wait_until(lambda: driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth", images[0]))
        assert driver.execute_script("return arguments[0].naturalWidth", images[0]) == 64
        seen.add("image")
    # An audio side's player, not the voice's (R33: its own <p class="voice">, test_web_typed_voice.py).
    if driver.find_elements(By.CSS_SELECTOR, "#card audio:not([id^=voice-])"):
        audio = driver.find_element(By.CSS_SELECTOR, "#card audio:not([id^=voice-])")
        assert audio.get_attribute("src").startswith(driver.current_url.split("/review")[0] + "/review/asset/")
        seen.add("audio")


def test_review_in_the_browser_moves_the_cards_as_the_terminal(stocked, phone, artifacts):
    box = stocked
    phone.get(box.url)
    # The pairing code left the address at once, and the cookie is there, lasting, and hidden from scripts.
    assert phone.current_url == box.base + "/"
    cookie = phone.get_cookie(box.cookie_name)
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict" and cookie["expiry"] > time.time() + 300 * 86400
    assert phone.execute_script("return document.cookie") == ""
    assert "Today's test: 0 of " in phone.find_element(By.TAG_NAME, "main").text
    artifacts.shoot(phone, "today")

    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url == box.base + "/review")
    expected = {}   # id → level after the grade
    graded = []
    done = 0  # the cards answered right: a wrong one is not done (docs/rules.md, "How far you are")
    seen = set()
    total = TEXT_CARDS + 2
    for n in range(10):
        check_media(phone, seen)
        # Before the answer, the page holds no card id at all.
        source = phone.page_source
        assert not any(f"word{k:02d}" in source for k in range(TEXT_CARDS)) and "picture" not in source.replace("the front of the card", "")
        if n == 0:
            artifacts.shoot(phone, "review-front")
        correct = n % 3 != 2
        if n < 5:
            phone.find_element(By.ID, "show").click()
            assert wait_until(lambda: "/review/answer" in phone.current_url)
            card = current_card_id(phone)
            if n == 0:
                artifacts.shoot(phone, "review-answer")
            phone.find_element(By.ID, "right" if correct else "wrong").click()
            assert wait_until(lambda: "/review/answer" not in phone.current_url)
        else:
            body = phone.find_element(By.TAG_NAME, "body")
            body.send_keys(Keys.SPACE)
            assert wait_until(lambda: "/review/answer" in phone.current_url)
            card = current_card_id(phone)
            phone.find_element(By.TAG_NAME, "body").send_keys("y" if correct else "n")
            assert wait_until(lambda: "/review/answer" not in phone.current_url)
        expected[card] = "2" if correct else "1"
        graded.append(card)
        done += correct
        assert progress_is(phone, f"{done} of {total} done")

    for card, level in expected.items():
        assert box.card_level(card) == level, card

    # Undo, with the key: the last grade is taken back, its card back in level 1 and due again.
    last = graded[-1]
    phone.find_element(By.TAG_NAME, "body").send_keys("u")
    assert progress_is(phone, f"{done - 1} of {total} done")
    assert box.card_level(last) == "1"
    phone.find_element(By.ID, "show").click()
    assert wait_until(lambda: "/review/answer" in phone.current_url)
    assert current_card_id(phone) == last
    phone.find_element(By.ID, "right").click()
    expected[last] = "2"
    assert progress_is(phone, f"{done} of {total} done")

    # The rest with clicks, every one right: the cards answered wrong come back (R9) and go up
    # to level 2 from level 1 as well.
    rest = 0
    while phone.find_elements(By.ID, "show"):
        rest += 1
        check_media(phone, seen)
        phone.find_element(By.ID, "show").click()
        assert wait_until(lambda: "/review/answer" in phone.current_url)
        card = current_card_id(phone)
        phone.find_element(By.ID, "right").click()
        expected[card] = "2"
        assert wait_until(lambda: "/review/answer" not in phone.current_url)
    assert "Today's test is complete" in phone.find_element(By.ID, "complete").text
    assert seen == {"image", "audio"}
    assert len(expected) == total
    for card, level in expected.items():
        assert box.card_level(card) == level, card
    status = box.json("status")
    assert status["test"]["state"] == "completed"
    # The review log, as after the terminal's review: a grade a click or key, with its answer
    # time, and the one undo.
    entries = box.json_lines("log")
    grades = [e for e in entries if e["event"] == "grade"]
    assert len(grades) == 10 + 1 + rest, entries
    assert all(isinstance(e.get("answerMs"), int) and e["answerMs"] >= 0 for e in grades)
    assert [e["event"] for e in entries].count("undo") == 1


def test_review_page_screenshot_of_an_image_card(stocked, phone, artifacts):
    """The review of the image card at a phone's size, kept with the others."""
    box = stocked
    phone.get(box.url)
    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url == box.base + "/review")
    for _ in range(TEXT_CARDS + 2):
        if phone.find_elements(By.CSS_SELECTOR, "#card img"):
            break
        phone.find_element(By.ID, "show").click()
        assert wait_until(lambda: "/review/answer" in phone.current_url)
        phone.find_element(By.ID, "right").click()
        assert wait_until(lambda: "/review/answer" not in phone.current_url)
    check_media(phone, set())
    artifacts.shoot(phone, "review-image")


def test_a_browser_without_the_cookie_sees_no_card(stocked, phone):
    box = stocked
    for path in ["/", "/review", "/review/answer?card=x", "/cards", "/cards/word00", "/cards/word00/asset/front", "/stats"]:
        phone.get(box.base + path)
        text = phone.find_element(By.TAG_NAME, "body").text
        assert "Pair this browser" in phone.title, path
        assert "question" not in text and "answer 0" not in text and "word00" not in phone.page_source, path
        status, _, body = box.request("GET", path)
        assert status == 401 and "question" not in body and "word0" not in body, path
    # A wrong pairing code does not let in either, nor does the old link with a token.
    phone.get(box.base + "/pair/" + "0" * 32)
    assert "used already, or its 10 minutes are over" in phone.find_element(By.TAG_NAME, "body").text
    phone.get(box.base + "/?token=" + "0" * 64)
    assert "no longer open it" in phone.find_element(By.TAG_NAME, "body").text
    assert phone.get_cookie(box.cookie_name) is None


def test_a_post_without_the_csrf_token_changes_nothing(stocked, phone):
    box = stocked
    phone.get(box.url)
    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url == box.base + "/review")
    phone.find_element(By.ID, "show").click()
    assert wait_until(lambda: "/review/answer" in phone.current_url)
    card = current_card_id(phone)
    handle = phone.find_element(By.CSS_SELECTOR, "input[name=card]").get_attribute("value")
    cookie = box.cookie_name + "=" + phone.get_cookie(box.cookie_name)["value"]
    before = box.json("status")["test"]
    for body in [f"card={handle}&correct=yes", f"card={handle}&correct=yes&csrf=" + "0" * 64, f"card={handle}&correct=yes&csrf="]:
        status, _, text = box.request("POST", "/review/grade", body=body, cookie=cookie)
        assert status == 403 and "nothing was changed" in text
    status, _, _ = box.request("POST", "/review/undo", body="", cookie=cookie)
    assert status == 403
    status, _, _ = box.request("POST", "/cards/word00/move", body="level=5", cookie=cookie)
    assert status == 403
    # A GET never changes anything, even to a change's address.
    status, _, _ = box.request("GET", f"/review/grade?card={handle}&correct=yes", cookie=cookie)
    assert status == 404
    assert box.json("status")["test"] == before
    assert box.card_level(card) == "1" and box.card_level("word00") == "1"
    # The same form with the token does change it.
    csrf = phone.find_element(By.CSS_SELECTOR, "input[name=csrf]").get_attribute("value")
    status, headers, _ = box.request("POST", "/review/grade", body=f"card={handle}&correct=yes&csrf={csrf}", cookie=cookie)
    assert status == 303 and headers["location"] == "/review?done=right-2"
    assert box.card_level(card) == "2"
