"""leitner-web as a phone uses it (#36 §3, §4): Chromium's mobile emulation at 390×844 with touch.
A card is added from the phone with a drawing made with pointer events (it arrives in the store
as a PNG side with the drawn pixels) and with a photo from a file; the daemon's refusals are shown
beside their fields; a grade, an undo and a suspend are confirmed, and right after a suspend the
page takes back that suspend, not an older grade; a suspended card is unsuspended from its page.
Screenshots of every page, light and dark, are kept (browsers.py says where)."""
import os
import struct
import zlib

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By

from browsers import Device, next_page, read, start_chromium
from review_pty import png
from web_box import web_box, wait_until  # noqa: F401 (fixture)


def decode_png(data: bytes):
    """Width, height and rows of RGB(A) pixels of an 8-bit, non-interlaced PNG (what a canvas makes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, (depth, color, interlace)
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def side_file(box, card_id, side):
    found = list(box.store.glob(f"**/{card_id}/{side}.*"))
    assert len(found) == 1, (card_id, side, found)
    return found[0]


def log_in(box, driver):
    driver.get(box.url)
    assert wait_until(lambda: driver.current_url == box.base + "/")


def choose(driver, side, kind):
    """Taps the side's Text, Photo or Drawing."""
    driver.find_element(By.CSS_SELECTOR, f"label:has(#{side}-is-{kind}) span").click()


def draw(driver, canvas, strokes):
    """Strokes on the canvas with a finger: touch pointer events, as a phone sends them."""
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    for stroke in strokes:
        x, y = stroke[0]
        actions.pointer_action.move_to(canvas, x, y).pointer_down()
        for x, y in stroke[1:]:
            actions.pointer_action.move_to(canvas, x, y)
        actions.pointer_action.pointer_up()
    actions.perform()


def shows(driver, element_id, text) -> bool:
    """Waits until the element `element_id` holds `text` (a click's page load may be under way)."""
    return wait_until(lambda: read(driver, By.ID, element_id, lambda e: text in e.text, False))


def added_id(driver) -> str:
    assert shows(driver, "notice", "Added"), driver.page_source[:2000]
    return driver.find_element(By.CSS_SELECTOR, "#notice a").text


def test_a_drawing_made_with_a_finger_arrives_as_a_png_side(web_box, phone, artifacts):
    box = web_box
    box.start_web()
    log_in(box, phone)
    phone.get(box.base + "/cards/new")
    artifacts.shoot(phone, "add", dark=True)
    # Said for a person on a phone, who need not know the terminal's program.
    assert "leitnerctl" not in phone.find_element(By.TAG_NAME, "main").text
    phone.find_element(By.ID, "front").send_keys("a house")
    choose(phone, "back", "drawing")
    canvas = phone.find_element(By.ID, "back-pad")
    # Offsets from the canvas's centre: a roof and two walls.
    draw(phone, canvas, [[(-100, 20), (0, -80), (100, 20)], [(-80, 20), (-80, 110)], [(80, 20), (80, 110), (-80, 110)]])
    assert wait_until(lambda: phone.execute_script("return document.getElementById('back-drawing').files.length") == 1)
    artifacts.shoot(phone, "add-drawing", dark=True)
    phone.find_element(By.ID, "tags").send_keys("sketch")
    phone.find_element(By.ID, "add").click()
    card = added_id(phone)
    artifacts.shoot(phone, "add-done", dark=True)
    # The notice reads as one sentence: the card's link right after "Added", not spread across
    # the line with the full stop at its far end.
    gap = phone.execute_script("const n = document.getElementById('notice'), a = n.querySelector('a');"
                               "return a.getBoundingClientRect().left - n.getBoundingClientRect().left")
    assert gap < 100, f"the added card's link is {gap} px into the notice"
    # The form is ready for the next card, with the tags kept.
    assert phone.find_element(By.ID, "tags").get_attribute("value") == "sketch"
    shown = box.json("show", card)["card"]
    assert shown["tags"] == ["sketch"]
    stored = side_file(box, card, "back")
    assert stored.suffix == ".png"
    width, height, channels, rows = decode_png(stored.read_bytes())
    assert (width, height) == (600, 450)
    dark = sum(1 for row in rows for x in range(0, len(row), channels) if row[x] < 100 and row[x + 1] < 100 and row[x + 2] < 100)
    white = sum(1 for row in rows for x in range(0, len(row), channels) if row[x] > 240)
    # Three strokes of about 5 px over some 600 px of path: thousands of dark pixels, the rest white.
    assert dark > 1500, dark
    assert white > width * height * 0.8
    # The card's page shows the drawing (the image loads).
    phone.get(box.base + f"/cards/{card}")
    image = phone.find_element(By.CSS_SELECTOR, ".side.back img")
    assert wait_until(lambda: phone.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) == 600)
    artifacts.shoot(phone, "card-drawing", dark=True)


def test_a_photo_from_a_file_and_a_reverse_card(web_box, phone, artifacts, tmp_path):
    box = web_box
    box.start_web()
    log_in(box, phone)
    photo = tmp_path / "cat.png"
    photo.write_bytes(png(80, 60, (30, 120, 200)))
    phone.get(box.base + "/cards/new")
    choose(phone, "front", "photo")
    phone.find_element(By.ID, "front-photo").send_keys(str(photo))
    phone.find_element(By.ID, "back").send_keys("**a blue** cat")
    phone.find_element(By.CSS_SELECTOR, "label:has(#back-markdown)").click()
    phone.find_element(By.ID, "id").send_keys("blue-cat")
    # Each tick box is as large as the others, also beside words that take two lines on a phone.
    sizes = {box.get_attribute("id"): box.size for box in phone.find_elements(By.CSS_SELECTOR, "#add-form label.check input")
             if box.is_displayed()}
    assert set(sizes) >= {"reverse", "type-answer"} and all(size == {"width": 24, "height": 24} for size in sizes.values()), sizes
    # The typed answer's box names the reverse card only while one is asked for.
    typed = phone.find_element(By.CSS_SELECTOR, "label:has(#type-answer)")
    assert typed.text == "The answer is typed in the review", typed.text
    phone.find_element(By.CSS_SELECTOR, "label:has(#reverse)").click()
    assert typed.text == "The answer is typed in the review (its reverse's too)", typed.text
    typed.click()
    phone.find_element(By.CSS_SELECTOR, "#level option[value=new]").click()
    phone.find_element(By.ID, "add").click()
    assert added_id(phone) == "blue-cat"
    assert side_file(box, "blue-cat", "front").read_bytes() == photo.read_bytes()
    assert side_file(box, "blue-cat", "back").read_text() == "**a blue** cat"
    assert box.card_level("blue-cat") == "new"
    # Its reverse card, beside it, asks the back; both ask for their answer typed (R32).
    assert box.card_level("blue-cat.rev") == "new"
    assert (box.store / "new" / "blue-cat" / "type-answer").is_file() and (box.store / "new" / "blue-cat.rev" / "type-answer").is_file()


def test_refusals_are_shown_beside_their_field(web_box, phone, artifacts, tmp_path):
    box = web_box
    box.ok("add", "--id", "word00", "question 0", "answer 0")
    box.start_web()
    log_in(box, phone)
    phone.get(box.base + "/cards/new")
    # A front the box has: beside the front, with the text kept.
    phone.find_element(By.ID, "front").send_keys("question 0")
    phone.find_element(By.ID, "back").send_keys("another answer")
    phone.find_element(By.ID, "add").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "front-error")), phone.find_element(By.TAG_NAME, "main").text
    assert "same front" in phone.find_element(By.ID, "front-error").text
    assert phone.find_element(By.ID, "back").get_attribute("value") == "another answer"
    artifacts.shoot(phone, "add-refused", dark=True)
    # An id that exists, and one that is no id: beside the id.
    phone.find_element(By.ID, "front").clear()
    phone.find_element(By.ID, "front").send_keys("question 1")
    phone.find_element(By.ID, "id").send_keys("word00")
    phone.find_element(By.ID, "add").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "id-error"))
    assert "already exists" in phone.find_element(By.ID, "id-error").text
    assert not phone.find_elements(By.ID, "front-error")
    phone.find_element(By.ID, "id").clear()
    phone.find_element(By.ID, "id").send_keys("no/such id")
    phone.find_element(By.ID, "add").click()
    assert shows(phone, "id-error", "invalid card id")
    # A tag that breaks R25: beside the tags, and nothing added.
    phone.find_element(By.ID, "id").clear()
    phone.find_element(By.ID, "tags").send_keys("ok bad/tag")
    phone.find_element(By.ID, "add").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "tags-error"))
    assert "bad/tag" in phone.find_element(By.ID, "tags-error").text
    # A drawing side with nothing drawn: beside that side.
    phone.find_element(By.ID, "tags").clear()
    choose(phone, "back", "drawing")
    phone.find_element(By.ID, "add").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "back-error"))
    assert "Draw the back" in phone.find_element(By.ID, "back-error").text
    # A side too big to send: the page says so beside it and sends nothing.
    big = tmp_path / "big.gif"
    big.write_bytes(b"GIF89a" + os.urandom(1_200_000))
    choose(phone, "back", "photo")
    phone.find_element(By.ID, "back-photo").send_keys(str(big))
    phone.find_element(By.ID, "add").click()
    assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, "#back-side .size-error"))
    assert "Too big" in phone.find_element(By.CSS_SELECTOR, "#back-side .size-error").text
    artifacts.shoot(phone, "add-too-big", dark=True)
    assert [card["id"] for card in box.json_lines("list")] == ["word00"]


def test_grade_undo_and_suspend_are_confirmed_and_a_suspend_taken_back(web_box, phone, artifacts):
    box = web_box
    for n in range(4):
        box.ok("add", "--id", f"word{n:02d}", f"question {n}", f"answer {n}", "--tag", "ja")
    box.start_web()
    log_in(box, phone)
    artifacts.shoot(phone, "today", dark=True)
    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url == box.base + "/review")
    # No keys taught on a touch screen.
    assert not phone.find_element(By.CSS_SELECTOR, ".keys").is_displayed()
    artifacts.shoot(phone, "review-front", dark=True)
    phone.find_element(By.ID, "show").click()
    assert wait_until(lambda: "/review/answer" in phone.current_url)
    artifacts.shoot(phone, "review-answer", dark=True)
    graded = phone.find_element(By.CSS_SELECTOR, ".card-id").text.split(" · ")[0]
    phone.find_element(By.ID, "right").click()
    assert shows(phone, "notice", "✓ → level 2")
    artifacts.shoot(phone, "review-graded", dark=True)
    # Buttons of one size, big enough for a finger.
    heights = {button.get_attribute("id"): button.size["height"]
               for button in phone.find_elements(By.CSS_SELECTOR, "main button, main a.button") if button.is_displayed()}
    assert all(height >= 48 for height in heights.values()), heights
    # Suspend the card shown: the notice says so, and offers to take back that suspend only.
    phone.find_element(By.ID, "suspend").click()
    assert shows(phone, "notice", "Suspended")
    suspended = [card["id"] for card in box.json_lines("list") if card["level"] == "suspended"]
    assert len(suspended) == 1 and suspended[0] != graded
    assert phone.find_element(By.ID, "undo").text == "Take back"
    artifacts.shoot(phone, "review-suspended", dark=True)
    phone.find_element(By.ID, "undo").click()
    assert shows(phone, "notice", "Suspend taken back")
    assert box.card_level(suspended[0]) == "1"
    assert box.card_level(graded) == "2", "the take-back undid the grade of another card"
    # Undo is confirmed too.
    phone.find_element(By.ID, "undo").click()
    assert shows(phone, "notice", "Undone")
    assert box.card_level(graded) == "1"
    # The edit page, and the end: the next test and the way back to Today.
    phone.find_element(By.ID, "show").click()
    assert wait_until(lambda: "/review/answer" in phone.current_url)
    phone.find_element(By.ID, "edit").click()
    assert wait_until(lambda: "/review/edit" in phone.current_url)
    artifacts.shoot(phone, "review-edit", dark=True)
    # Each page waited for before it is read: the edit page has neither Show nor Right, and the
    # loop would end on it at once.
    with next_page(phone):
        phone.find_element(By.ID, "cancel").click()
    while phone.find_elements(By.ID, "show") or phone.find_elements(By.ID, "right"):
        if phone.find_elements(By.ID, "show"):
            with next_page(phone):
                phone.find_element(By.ID, "show").click()
        with next_page(phone):
            phone.find_element(By.ID, "right").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "complete"))
    assert "Next test" in phone.find_element(By.ID, "next").text
    artifacts.shoot(phone, "review-done", dark=True)
    phone.find_element(By.ID, "today").click()
    assert wait_until(lambda: phone.current_url == box.base + "/")
    for path, name in [("/cards", "cards"), ("/cards?tag=ja", "cards-tag"), ("/cards/word00", "card"), ("/stats", "stats")]:
        phone.get(box.base + path)
        artifacts.shoot(phone, name, dark=True)


def test_a_suspended_card_is_unsuspended_from_its_page_and_tags_edited(web_box, phone, artifacts):
    box = web_box
    box.ok("add", "--id", "word00", "question 0", "answer 0", "--tag", "ja")
    box.ok("suspend", "word00")
    assert box.card_level("word00") == "suspended"
    box.start_web()
    log_in(box, phone)
    phone.get(box.base + "/cards/word00")
    artifacts.shoot(phone, "card-suspended", dark=True)
    phone.find_element(By.ID, "unsuspend").click()
    assert shows(phone, "notice", "Unsuspended")
    assert box.card_level("word00") == "1"
    assert not phone.find_elements(By.ID, "unsuspend")
    field = phone.find_element(By.ID, "tags-field")
    assert field.get_attribute("value") == "ja"
    field.clear()
    field.send_keys("ja verbs")
    phone.find_element(By.ID, "save-tags").click()
    assert shows(phone, "notice", "Tags saved")
    assert box.json("show", "word00")["card"]["tags"] == ["ja", "verbs"]


SMALL_PHONE = Device("phone", 360, 780, touch=True)


def wider(driver, width):
    """The screen made `width` CSS pixels wide, as a larger phone's, until the next navigation
    (Chromium's mobile emulation sets its own size again then)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": driver.device.height, "deviceScaleFactor": 1, "mobile": True})


def font_px(driver, selector) -> float:
    return float(driver.execute_script(
        "return getComputedStyle(document.querySelector(arguments[0])).fontSize", selector).removesuffix("px"))


def test_the_answer_side_is_large_wraps_and_scales_its_image(web_box, artifacts, tmp_path):
    """The answer, once shown, is read at arm's length: larger than the page's text and larger on
    a wider screen; a long text, a long word and a long line of code wrap within a 360 px screen;
    a photo of 1600×1200 is shown whole, within the card's width and 70% of the screen's height."""
    box = web_box
    long_text = "This answer goes on for a while, " * 8 + "and it has one word " + "Donaudampfschifffahrt" * 3 + "."
    box.ok("add", "--id", "long", "a long answer?", long_text, "--tag", "long")
    markdown = tmp_path / "code.md"
    markdown.write_text("A line of code:\n\n```\n" + "print('" + "x" * 120 + "')\n```\n")
    box.ok("add", "--id", "code", "--back-file", str(markdown), "some code?", "--tag", "code")
    photo = tmp_path / "photo.png"
    photo.write_bytes(png(1600, 1200, pixel=(40, 120, 200)))
    box.ok("add", "--id", "pic", "--back-file", str(photo), "a photo?", "--tag", "pic")
    box.start_web()
    phone = start_chromium(SMALL_PHONE)
    try:
        answers_at_360(box, phone, artifacts)
    finally:
        phone.quit()


def answers_at_360(box, phone, artifacts):
    log_in(box, phone)
    for tag in ["long", "code", "pic"]:
        phone.get(f"{box.base}/review?tag={tag}")
        phone.find_element(By.ID, "show").click()
        assert wait_until(lambda: phone.find_elements(By.CSS_SELECTOR, ".card .side.back"))
        artifacts.shoot(phone, f"answer-{tag}", dark=True)
        overflow = phone.execute_script("const e = document.querySelector('.side.back'); return e.scrollWidth - e.clientWidth")
        assert overflow <= 0, f"the {tag} answer overflows its side by {overflow} px"
        if tag == "pic":
            assert wait_until(lambda: phone.execute_script("return document.querySelector('.side.back img').complete"))
            image = phone.execute_script(
                "const i = document.querySelector('.side.back img'), c = document.querySelector('.card');"
                "return [i.naturalWidth, i.getBoundingClientRect().width, i.getBoundingClientRect().height, c.clientWidth, innerHeight]")
            natural, width, height, card_width, screen_height = image
            assert natural == 1600 and 0 < width <= card_width and height <= 0.7 * screen_height + 1, image
            assert abs(width / height - 4 / 3) < 0.02, image
        else:
            small = font_px(phone, ".side.back")
            assert small >= 19 and small > font_px(phone, "body"), small
            wider(phone, 460)
            assert font_px(phone, ".side.back") > small, "the answer's size does not follow the screen's"
    print(f"answer text at 360 px: {small:.1f} px")


def test_statistics_are_drawn_for_a_phone_and_a_tap_shows_a_day(web_box, artifacts):
    """At 360 px the statistics page shows the charts drawn for a phone (their SVG 330 units wide
    in some 320 px, so a 12-unit label is over 11 px, where the screen's 920-unit drawing made it
    4 px), none wider than the screen; a tap on today's square of the heatmap and on today's
    column of the work shows that day's figures, with no script (`:target`)."""
    box = web_box
    for n in range(6):
        box.ok("add", "--id", f"word{n:02d}", f"question {n}", f"answer {n}")
    box.ok("prepare")
    for n in range(4):
        box.ok("grade", box.json("next")["card"]["id"], "correct" if n % 2 == 0 else "wrong")
    today = box.json("status")["today"]
    box.start_web()
    phone = start_chromium(SMALL_PHONE)
    try:
        log_in(box, phone)
        phone.get(box.base + "/stats")
        artifacts.shoot(phone, "stats")
        charts = phone.execute_script(
            "return [...document.querySelectorAll('svg')].filter(s => s.getBoundingClientRect().width > 0)"
            ".map(s => [s.viewBox.baseVal.width, s.getBoundingClientRect().width])")
        assert charts and all(view == 330 and 300 <= shown <= 360 for view, shown in charts), charts
        label = phone.execute_script(
            "const t = [...document.querySelectorAll('.for-phone svg text')].find(t => t.getBoundingClientRect().height > 0);"
            "return t.getBoundingClientRect().height")
        assert label >= 11, f"a chart's label is {label:.1f} px high"
        # The retention table scrolls on a phone; "level 1" and "50% (uncertain)" stay on one line.
        row = phone.execute_script("return document.querySelector('.table-room td').getBoundingClientRect().height")
        assert row < 32, f"the retention table's first cell is {row} px high: wrapped"
        for chart, words in [("day", "4 reviews"), ("work", "4 reviews")]:
            figures = phone.find_element(By.ID, f"{chart}-{today}")
            assert not figures.is_displayed()
            phone.find_element(By.CSS_SELECTOR, f".for-phone a[href='#{chart}-{today}']").click()
            assert wait_until(figures.is_displayed), chart
            assert words in figures.text, figures.text
            artifacts.shoot(phone, f"stats-{chart}-tapped")
    finally:
        phone.quit()


def test_a_cloze_note_is_added_from_the_phone(web_box, phone, artifacts):
    """The add page's folded cloze form (R30): a text with two gap numbers makes a note of two
    cards, named in the notice, the note asking for typed answers when ticked (R32); a text
    without a gap is refused beside the field, the form open and the text and the tick kept."""
    box = web_box
    box.start_web()
    log_in(box, phone)
    phone.get(box.base + "/cards/new")
    phone.find_element(By.CSS_SELECTOR, "#cloze summary").click()
    phone.find_element(By.ID, "cloze-text").send_keys("no gap here")
    phone.find_element(By.CSS_SELECTOR, "label:has(#cloze-type-answer)").click()
    phone.find_element(By.ID, "add-cloze").click()
    assert wait_until(lambda: phone.find_elements(By.ID, "text-error"))
    assert "{{c1::word}}" in phone.find_element(By.ID, "text-error").text
    assert phone.find_element(By.ID, "cloze").get_attribute("open") is not None
    assert phone.find_element(By.ID, "cloze-text").get_attribute("value") == "no gap here"
    assert phone.find_element(By.ID, "cloze-type-answer").is_selected()
    artifacts.shoot(phone, "add-cloze-refused")
    text = phone.find_element(By.ID, "cloze-text")
    text.clear()
    text.send_keys("The capital of {{c1::France}} is {{c2::Paris}}.")
    phone.find_element(By.ID, "cloze-extra").send_keys("Europe")
    phone.find_element(By.ID, "cloze-tags").send_keys("geo")
    phone.find_element(By.ID, "add-cloze").click()
    assert shows(phone, "notice", "and 1 card more of its note")
    artifacts.shoot(phone, "add-cloze-done")
    cards = {card["id"]: card for card in box.json_lines("list")}
    clozes = sorted(card_id for card_id in cards if ".c" in card_id)
    assert len(clozes) == 2 and clozes[0].endswith(".c1") and clozes[1].endswith(".c2"), cards
    assert box.json("show", clozes[0])["card"]["tags"] == ["geo"]
    note = clozes[0].removesuffix(".c1")
    assert (box.store / "notes" / note / "type-answer").is_file()
