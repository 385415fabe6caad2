"""Practice outside the test (R27) with the real programs: it moves nothing, leaves the test as
it was, is logged as a practice event, and stats counts it apart."""
from cli_box import box  # noqa: F401  (fixture)


def test_practice_moves_nothing_and_is_logged(box):  # noqa: F811
    box.ok("add", "neko", "cat", "--id", "neko", "--tag", "ja", "--level", "3")
    box.ok("add", "hund", "dog", "--id", "hund")
    box.ok("prepare")
    before = box.json("status")["test"]
    out = box.ok("practice", "--plain", "--tag", "ja", input="f\nn\n")
    assert "neko" in out and "no card moved" in out
    assert box.json("show", "neko")["card"]["level"] == "3"
    assert box.json("status")["test"] == before
    practised = [e for e in box.json_lines("log") if e["event"] == "practice"]
    assert [(e["id"], e["from"], e["to"], e["correct"]) for e in practised] == [("neko", "3", "3", False)]
    stats = box.json("stats")
    assert stats["practiceAnswers"] == 1 and stats["practiceWrong"] == 1
    assert sum(day["reviews"] for day in stats["work"]) == 0
    again = box.ok("practice", "--plain", "--wrong-days", "7", input="f\ny\n")
    assert "neko" in again and "hund" not in again


def test_practice_options_are_checked(box):  # noqa: F811
    assert box.ctl("practice", "--limit", "0").returncode == 64
    assert box.ctl("practice", "--wrong-days", "x").returncode == 64
    assert box.ctl("practice", "--tag", "a b").returncode == 64
    assert "No card to practise." in box.ok("practice", "--plain")
