"""R31 on the web: a Markdown side's own picture inline, scaled to a phone's screen, and its sound
as an <audio controls>, served by their names through the review's handle and the card's page,
with their own content type under the asset policy (sandboxed: an SVG opened alone runs nothing);
a name with `/` or `..`, a side's own file, a file no side names are refused; a reference that is
a path is shown as written. A phone-sized screenshot is kept (browsers.py says where)."""
import pytest
from selenium.webdriver.common.by import By

from review_pty import png
from test_web_browser import wav
from web_box import web_box, wait_until  # noqa: F401 (fixture)

FRONT = "# Katze\n\n![eine rote Katze](katze.png)\n\nmiaut: [sound:miau.wav]\n\nnicht: ![böse](../hund/x.png)\n"
SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'


@pytest.fixture
def media_box(web_box):
    web_box.ok("add", "--id", "katze", "--level", "1", "placeholder", "cat")
    card = web_box.store / "1" / "katze"
    (card / "front.txt").unlink()
    (card / "front.md").write_text(FRONT + "![svg](bild.svg)\n")
    (card / "katze.png").write_bytes(png(1200, 300, (200, 30, 30)))  # wider than any phone
    (card / "miau.wav").write_bytes(wav())
    (card / "bild.svg").write_text(SVG)
    return web_box.start_web()


def test_the_picture_and_the_sound_in_the_review_on_a_phone(media_box, phone, artifacts):
    box = media_box
    phone.get(box.url)
    phone.find_element(By.ID, "start").click()
    assert wait_until(lambda: phone.current_url == box.base + "/review")
    image = phone.find_element(By.CSS_SELECTOR, "#card img.medium")
    assert image.get_attribute("alt") == "eine rote Katze"
    assert "/review/medium/" in image.get_attribute("src") and image.get_attribute("src").endswith("/katze.png")
    assert wait_until(lambda: phone.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image))
    assert phone.execute_script("return arguments[0].naturalWidth", image) == 1200
    # Scaled to the screen: no wider than the phone's viewport.
    width = phone.execute_script("return arguments[0].getBoundingClientRect().width", image)
    assert 0 < width <= phone.execute_script("return window.innerWidth")
    audio = phone.find_element(By.CSS_SELECTOR, "#card audio.medium")
    assert audio.get_attribute("controls") is not None and audio.get_attribute("src").endswith("/miau.wav")
    # The browser can read the sound: its length is known once its metadata loaded.
    phone.execute_script("arguments[0].load()", audio)
    assert wait_until(lambda: phone.execute_script("return arguments[0].duration > 0", audio))
    text = phone.find_element(By.ID, "card").text
    assert "![böse](../hund/x.png)" in text and "Katze" in text
    artifacts.shoot(phone, "review-media")

    cookie = f"{box.cookie_name}={phone.get_cookie(box.cookie_name)['value']}"
    status, headers, _ = box.request("GET", "/cards/katze/medium/katze.png", cookie=cookie)
    assert status == 200 and headers["content-type"] == "image/png"
    assert "sandbox" in headers["content-security-policy"] and headers["x-content-type-options"] == "nosniff"
    status, headers, body = box.request("GET", "/cards/katze/medium/bild.svg", cookie=cookie)
    assert status == 200 and headers["content-type"] == "image/svg+xml" and "<script>" in body
    assert headers["content-security-policy"].startswith("default-src 'none'") and "sandbox" in headers["content-security-policy"]
    status, headers, _ = box.request("GET", "/cards/katze/medium/miau.wav", cookie=cookie)
    assert status == 200 and headers["content-type"] == "audio/wav"
    for refused in ["..%2Fhund%2Fx.png", "..", "%2Fetc%2Fpasswd", "front.md", "tags", "fehlt.png", "x.png"]:
        status, _, body = box.request("GET", "/cards/katze/medium/" + refused, cookie=cookie)
        assert status in (400, 404), (refused, status)
        assert "ID3" not in body and "# Katze" not in body
    # Without the cookie, nothing.
    status, _, _ = box.request("GET", "/cards/katze/medium/katze.png")
    assert status == 401
