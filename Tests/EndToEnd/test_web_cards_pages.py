"""The Cards page a page at a time (docs/web.md, "Cards"), on a phone: the daemon lists only the
page (`List` with `limit`), and the page's Next and Previous links name the positions of its
last and first cards, so that they keep working as cards move, come and go between two views —
no card that stayed is skipped or shown twice. Cards are written into the store by hand, as a
sync tool or `mv` would (R13)."""
from selenium.webdriver.common.by import By

from web_box import web_box, wait_until  # noqa: F401 (fixture)

PAGE = 100


def listed(driver):
    return [a.get_attribute("href").rsplit("/", 1)[1] for a in driver.find_elements(By.CSS_SELECTOR, ".results a")]


def follow(driver, rel):
    links = driver.find_elements(By.CSS_SELECTOR, f'nav.pages a[rel="{rel}"]')
    assert links, f"no {rel} link on {driver.current_url}"
    before = driver.current_url
    links[0].click()
    assert wait_until(lambda: driver.current_url != before)


def test_the_cards_page_goes_a_page_at_a_time_as_cards_move(web_box, phone, artifacts):  # noqa: F811
    box = web_box
    ids = [f"c{n:03d}" for n in range(250)]
    for card_id in ids:
        directory = box.store / "3" / card_id
        directory.mkdir(parents=True)
        (directory / "front.txt").write_text(f"question {card_id}")
        (directory / "back.txt").write_text(f"answer {card_id}")
    box.start_web()
    phone.get(box.url)
    phone.get(box.base + "/cards?level=3")
    assert listed(phone) == ids[:PAGE]
    # Each row shows the card's front, read for the page's cards only.
    assert "question c000" in phone.find_element(By.CSS_SELECTOR, ".results li").text
    assert not phone.find_elements(By.CSS_SELECTOR, 'nav.pages a[rel="prev"]')
    artifacts.shoot(phone, "cards-first-page", dark=True)

    # Between two views, cards of the first page go (moved to level 5, deleted) and one comes
    # before the page's end: the next page still begins after the last card shown.
    (box.store / "3" / "c010").rename(box.store / "5" / "c010")
    for name in ("front.txt", "back.txt"):
        (box.store / "3" / "c020" / name).unlink()
    (box.store / "3" / "c020").rmdir()
    follow(phone, "next")
    assert "after=3" in phone.current_url
    assert listed(phone) == ids[PAGE:2 * PAGE]
    artifacts.shoot(phone, "cards-second-page")

    # A card of the next page moves to the first page's place in the order; the last page is
    # what is left, with no Next.
    (box.store / "3" / "c230").rename(box.store / "3" / "c0505")
    follow(phone, "next")
    assert listed(phone) == [i for i in ids[2 * PAGE:] if i != "c230"]
    assert not phone.find_elements(By.CSS_SELECTOR, 'nav.pages a[rel="next"]')

    # Back: the page before the one shown, the cards as they are now.
    follow(phone, "prev")
    assert listed(phone) == ids[PAGE:2 * PAGE]
    follow(phone, "prev")
    first = [i for i in ids[:PAGE] if i not in ("c010", "c020")]
    first.insert(first.index("c051"), "c0505")
    # Two cards fewer and one more: 99 cards before the second page, all on this one, the first.
    assert listed(phone) == first and len(first) == PAGE - 1
    assert not phone.find_elements(By.CSS_SELECTOR, 'nav.pages a[rel="prev"]')
    artifacts.shoot(phone, "cards-back-to-the-first-page")

    # Every card of the box, all levels, page after page, each once.
    phone.get(box.base + "/cards")
    seen = listed(phone)
    while phone.find_elements(By.CSS_SELECTOR, 'nav.pages a[rel="next"]'):
        follow(phone, "next")
        seen += listed(phone)
    assert sorted(seen) == sorted(set(ids) - {"c020", "c230"} | {"c0505"}) and len(seen) == len(set(seen))


def test_each_row_shows_the_front_as_it_reads_without_its_markdown(web_box):  # noqa: F811
    """A Markdown front, and a cloze card's (whose sides are Markdown), is listed as the learner
    reads it, without the marks that write it; a plain text front as it is."""
    box = web_box
    box.ok("add", "--level", "1", "--cloze", "Die {{c1::Katze}} schläft")
    (box.tmp / "front.md").write_text("**der** `Hund`, ein [Tier](https://example.org)\n\nmore\n")
    box.ok("add", "--level", "1", "--id", "hund", "--front-file", str(box.tmp / "front.md"), "the dog")
    box.ok("add", "--level", "1", "--id", "stars", "2 * 3 * 4", "24")
    box.start_web()
    cookie = box.login()
    status, _, page = box.request("GET", "/cards?level=1", cookie=cookie)
    assert status == 200, page
    rows = [row.split("</span>")[0] for row in page.split('<span class="plain">')[1:]]
    assert rows == ["Die […] schläft", "der Hund, ein Tier", "2 * 3 * 4"], rows
