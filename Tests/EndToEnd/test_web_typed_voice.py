"""R32 and R33 on the web, in Chromium on a phone: a card that asks for its answer typed shows a
text field (a form POST: no script needed), the answer page shows what was typed beside what was
expected with the differences marked and the proposed grade, and the learner confirms or
overrides it; a reverse card expects its original's front and a cloze card its deletion; "Type
every answer" is this browser's own setting. The speech espeak-ng made ahead of time is an
<audio> element whose address gives a real WAV (the back's only once the answer is shown)."""
import http.client
import shutil
import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from web_box import web_box, wait_until  # noqa: F401 (fixture)


def review(phone, box):
    phone.get(box.url)
    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url.startswith(box.base + "/review"))


def type_answer(phone, text):
    field = phone.find_element(By.ID, "answer")
    field.send_keys(text)
    phone.find_element(By.ID, "check").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "typed"))


def test_a_typed_kana_answer_proposed_right_and_overridden_on_a_phone(web_box, phone, artifacts):
    box = web_box
    box.ok("add", "--type-answer", "--level", "1", "--id", "ka", "か", "ka")
    box.start_web()
    review(phone, box)
    assert not phone.find_elements(By.ID, "show")
    type_answer(phone, "KA")
    assert phone.find_element(By.ID, "expected").text == "ka"
    assert "right" in phone.find_element(By.ID, "proposal").text
    assert "proposed" in phone.find_element(By.ID, "right").get_attribute("class")
    assert "proposed" not in phone.find_element(By.ID, "wrong").get_attribute("class")
    artifacts.shoot(phone, "typed-right")
    # Overridden: the learner says it was wrong after all; what is confirmed is graded (R9).
    phone.find_element(By.ID, "wrong").click()
    assert wait_until(lambda: "✗ → level 1" in phone.page_source)
    assert box.card_level("ka") == "1"


def test_a_wrong_answer_is_marked_and_confirmed(web_box, phone, artifacts):
    box = web_box
    box.ok("add", "--type-answer", "--level", "1", "--id", "hund", "dog", "der Hund")
    box.start_web()
    review(phone, box)
    type_answer(phone, "die Hunde")
    marked = phone.find_element(By.ID, "typed-marked")
    assert [e.text for e in marked.find_elements(By.TAG_NAME, "del")] and [e.text for e in marked.find_elements(By.TAG_NAME, "ins")]
    assert "wrong" in phone.find_element(By.ID, "proposal").text
    assert "proposed" in phone.find_element(By.ID, "wrong").get_attribute("class")
    artifacts.shoot(phone, "typed-wrong")
    phone.find_element(By.ID, "wrong").click()
    assert wait_until(lambda: "✗ → level 1" in phone.page_source)


def test_reverse_and_cloze_cards_expect_their_own_answers(web_box, phone):
    box = web_box
    box.ok("add", "--type-answer", "--reverse", "--level", "1", "--id", "katze", "die Katze", "cat")
    box.ok("move", "katze", "finished")
    box.ok("add", "--cloze", "Die {{c1::Maus}} piepst", "--id", "maus", "--level", "1")
    (box.store / "notes" / "maus" / "type-answer").write_text("")
    box.start_web()
    review(phone, box)
    expected = set()
    for _ in range(2):
        question = phone.find_element(By.ID, "card").text
        type_answer(phone, "die katze" if "cat" in question else "maus")
        expected.add(phone.find_element(By.ID, "expected").text)
        assert "right" in phone.find_element(By.ID, "proposal").text
        phone.find_element(By.ID, "right").click()
        assert wait_until(lambda: "→ level 2" in phone.page_source)
    assert expected == {"die Katze", "Maus"}


def test_type_every_answer_is_the_browsers_setting(web_box, phone):
    box = web_box
    box.ok("add", "--level", "1", "--id", "haus", "das Haus", "house")
    box.ok("add", "--level", "1", "--id", "baum", "der Baum", "tree")
    box.start_web()
    review(phone, box)
    assert phone.find_elements(By.ID, "show") and not phone.find_elements(By.ID, "answer")
    phone.find_element(By.ID, "typing").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "answer"))
    type_answer(phone, "house" if "Haus" in phone.find_element(By.ID, "card").text else "tree")
    assert "right" in phone.find_element(By.ID, "proposal").text
    phone.find_element(By.ID, "right").click()
    # The next card asks too: the setting is kept by this browser.
    assert wait_until(lambda: "→ level 2" in phone.page_source and phone.find_elements(By.ID, "answer"))
    # Off again: the card is shown as usual.
    phone.find_element(By.ID, "typing").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "show")) and not phone.find_elements(By.ID, "answer")


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_the_voice_is_an_audio_element_with_a_real_wav(web_box, phone, artifacts):
    box = web_box
    box.ok("add", "--level", "1", "--id", "hund", "der Hund", "dog")
    box.ok("prepare")
    cache = box.store / ".leitner" / "cache" / "voice"
    assert wait_until(lambda: len(list(cache.glob("*.wav"))) == 2, timeout=30)
    box.start_web()
    review(phone, box)
    audio = phone.find_element(By.ID, "voice-front")
    assert audio.get_attribute("controls") is not None and not phone.find_elements(By.ID, "voice-back")
    source = audio.get_attribute("src")
    # The browser reads it as sound: its length is known once its metadata loaded.
    phone.execute_script("arguments[0].load()", audio)
    assert wait_until(lambda: phone.execute_script("return arguments[0].duration > 0", audio))
    cookie = f"{box.cookie_name}={phone.get_cookie(box.cookie_name)['value']}"
    path = urllib.parse.urlsplit(source).path
    connection_status, headers, _ = box.request("GET", path, cookie=cookie)
    assert connection_status == 200 and headers["content-type"] == "audio/wav"
    raw = http.client.HTTPConnection("127.0.0.1", box.port, timeout=20)
    raw.request("GET", path, headers={"Cookie": cookie})
    body = raw.getresponse().read()
    assert body[:4] == b"RIFF" and body[8:12] == b"WAVE" and len(body) > 44
    # The back's speech would say the answer: not before it is shown.
    status, _, _ = box.request("GET", path.replace("/front", "/back"), cookie=cookie)
    assert status == 404
    phone.find_element(By.ID, "show").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "voice-back"))
    status, headers, _ = box.request("GET", path.replace("/front", "/back"), cookie=cookie)
    assert status == 200 and headers["content-type"] == "audio/wav"
    artifacts.shoot(phone, "voice-answer")
