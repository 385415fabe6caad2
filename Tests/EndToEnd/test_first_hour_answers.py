"""One answer to each question a learner asks (#35): "how far am I?" and "when is the next test,
and how many cards?" read the same at the review's end, in `status`, in `boxes` and on the web's
Today and Review pages, on one box with new cards coming in a few a day (R23). The definitions
are docs/rules.md's, "How far you are" and "The next test"."""
import datetime
import html
import re

from cli_box import on_terminal
from test_first_hour_cli import import_kana
from web_box import paced_web_box  # noqa: F401  (a fixture)


def page_text(box, cookie, path) -> str:
    """The words of a page of leitner-web, its tags taken out."""
    status, _, body = box.request("GET", path, cookie=cookie)
    assert status == 200, (path, status, body)
    return re.sub(r" ([.,;:])", r"\1", " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split()))


def boxes_table(box) -> str:
    status, out = on_terminal(box, "boxes", columns=140, env=dict(box.env, NO_COLOR="1"))
    assert status == 0, out
    return " ".join(out.split())


def test_the_progress_and_the_next_test_read_the_same_everywhere(paced_web_box, tmp_path):
    box = paced_web_box
    box.env["NO_COLOR"] = "1"
    import_kana(box, tmp_path, 30)
    box.start_web()
    cookie = box.login()
    today = datetime.date.fromisoformat(box.json("status")["today"])
    # Before today's test opens, its cards are the twenty it admits from new/.
    assert box.json("status")["next"] == {"date": str(today), "levels": ["2", "1"], "cards": 20, "arrivals": 20}
    assert "today: 20 new cards" in boxes_table(box)

    # Wrong, right, right, quit: two cards done of twenty, one to repeat — the wrong answer
    # leaves the count where it was.
    review = box.ok("review", input="\nn\n\ny\n\ny\nq\n")
    progress = "2 of 20 done · 1 to repeat"
    assert f"Progress kept: {progress}; review again to go on." in review
    assert "[0 of 20 done · 1 to repeat · card: level 1]" in review
    assert f"· open · {progress}" in box.ok("status")
    assert f"(default) 30 {progress} today: 18 cards" in boxes_table(box)
    listed = box.json_lines("boxes")[0]
    assert (listed["done"], listed["testCards"], listed["remaining"]) == (2, 20, 18)
    assert f"Today's test: {progress}." in page_text(box, cookie, "/")
    assert f"2 of 20 done · 1 to repeat" in page_text(box, cookie, "/review")

    # The rest, every one right: the test completes, and the next test is tomorrow's, with the
    # ten kana new/ still holds (every card of today went up to level 2; tomorrow tests 3 and 1).
    review = box.ok("review", input="\ny\n" * 18)
    tomorrow = today + datetime.timedelta(days=1)
    next_test = f"tomorrow, {tomorrow:%a} {tomorrow}: 10 new cards"
    assert "Today's test is complete: 20 of 20 done, 1 answered wrong on the way." in review
    assert f"Next test: {next_test}." in review
    status = box.ok("status")
    assert "· completed · 20 of 20 done" in status
    assert f"Next test: {next_test}" in status
    assert f"20 of 20 done {next_test}" in boxes_table(box)
    assert box.json_lines("boxes")[0]["next"] == {"date": str(tomorrow), "levels": ["3", "1"], "cards": 10,
                                                  "arrivals": 10}
    today_page = page_text(box, cookie, "/")
    assert "Today's test is complete: 20 of 20 done, 1 answered wrong on the way." in today_page
    assert f"Next test: {next_test}." in today_page
    # The week's row: no card due tomorrow yet, the 10 new cards that arrive then, its levels.
    # The row is this week, Monday to Sunday: on a Sunday tomorrow is next week's, and the
    # row ends with today, done.
    if tomorrow.isocalendar()[:2] == today.isocalendar()[:2]:
        assert f"{tomorrow:%a} {tomorrow.day} 0 cards +10 new levels 3, 1" in today_page
    else:
        assert today_page.split("This week", 1)[1].split("Cards by level", 1)[0].rstrip().endswith(
            f"{today:%a} {today.day} done levels 2, 1"), today_page
    assert "Today's test is complete: 20 of 20 done, 1 answered wrong on the way." in page_text(box, cookie, "/review")


def test_practice_counts_its_own_cards_and_offers_no_undo(paced_web_box, tmp_path):
    """practice --tag ja (two cards) shows its own two, not the test's counters; a card it never
    showed twice is not 'repeated'; and `u` is not offered where it undoes nothing (R27)."""
    box = paced_web_box
    box.ok("add", "--id", "neko", "--tag", "ja", "--level", "1", "猫", "cat")
    box.ok("add", "--id", "inu", "--tag", "ja", "--level", "1", "犬", "dog")
    for n in range(8):
        box.ok("add", "--id", f"wort{n}", "--level", "1", f"Wort {n}", f"word {n}")
    box.ok("review", input="\ny\n\nn\nq\n")  # the test under way: 1 done, 1 to repeat
    practice = box.ok("practice", "--tag", "ja", input="\nn\n\ny\n")
    assert "[0 of 2 done · practice · card: level " in practice
    assert "[1 of 2 done · practice · card: level " in practice
    assert "to repeat" not in practice and "u/" not in practice and "repeated" not in practice
    assert "Cards: 2 · right: 1 · wrong: 1 · time: " in practice
    with_status = box.ok("status")
    assert "1 of 10 done · 1 to repeat" in with_status  # the test as it was


def test_a_box_without_cards_says_how_to_fill_it_and_then_what_comes_in(paced_web_box, tmp_path):
    """A newcomer's empty box said 'Nothing is due today' on the web and showed zeros in
    `status`: both say how to put cards in; once a deck is imported, both say the test opens with
    its first twenty (R23), where `status` said 'empty · 0 of 0 done'."""
    box = paced_web_box
    box.start_web()
    cookie = box.login()
    today = page_text(box, cookie, "/")
    assert "No cards yet: add a card, or import a deck on the computer with leitnerctl import FILE" in today, today
    assert "Nothing is due" not in today
    _, _, body = box.request("GET", "/", cookie=cookie)
    assert '<a href="/cards/new">add a card</a>' in body
    assert "The box has no cards yet: add some with 'leitnerctl add FRONT BACK'" in box.ok("status")
    import_kana(box, tmp_path, 30)
    assert "Today's test opens with 20 new cards." in page_text(box, cookie, "/")
    assert "No cards yet" not in page_text(box, cookie, "/")
    status = on_terminal(box, "status", env=dict(box.env, NO_COLOR="1"))[1]
    assert "· opens with 20 new cards" in status.splitlines()[0] and "no cards yet" not in status


def test_the_review_page_of_a_box_without_cards_says_how_to_fill_it(paced_web_box):
    """The Review tab of an empty box said 'Nothing is due today', as Today did."""
    box = paced_web_box
    box.start_web()
    review = page_text(box, box.login(), "/review")
    assert "No cards yet: add a card, or import a deck" in review and "Nothing is due" not in review, review
    box.ok("add", "der Hund", "dog")  # the day is open (the review page opened it): it comes in at once (R23)
    assert "No cards yet" not in page_text(box, box.login(), "/review")
