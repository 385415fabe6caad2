"""What a newcomer meets in the first hour (#25): a card mended by hand joins the test whatever
the first call after the repair is; doctor reports what a mistyped `mv` leaves in the store's
root; the log's columns stay apart; status, calendar and stats say plainly what they count."""
import pytest

from cli_box import box  # noqa: F401  (a fixture)

# Each of these is the first request after the repair; the calls that come after it must find
# the mended card in the test (R21, R13, R8).
FIRST_CALLS = [
    ("doctor",), ("show", "katze"), ("list",), ("next",), ("prepare",), ("calendar",), ("log",),
    ("search", "cat"), ("stats",), ("status",),
]


@pytest.mark.parametrize("first", FIRST_CALLS, ids=lambda call: call[0])
def test_a_mended_card_joins_the_test_whatever_the_first_call(box, first):
    box.ok("add", "--id", "eins", "one", "eins")
    box.ok("add", "--id", "zwei", "two", "zwei")
    box.ok("grade", "zwei", "correct")
    card = box.store / "1" / "katze"
    card.mkdir()
    (card / "front.txt").write_text("cat\n")
    assert box.json("status")["test"]["remaining"] == 1  # katze is damaged: out of the test
    (card / "back.txt").write_text("Katze\n")
    box.ctl(*first)
    assert box.json("status")["test"]["remaining"] == 2
    assert "No problems found" in box.ok("doctor")
    assert box.json("status")["test"]["remaining"] == 2
