"""The first hour at the command line, tried as a new user would (#35): each thing that misled
or said nothing gets a test here. The box runs with pacing on (NewPerDay=20, R23) where the
newcomer's box would, on a clock the test sets; the outputs are read without colour."""
import pathlib
import re
import subprocess

from cli_box import on_terminal
from test_places import paced  # noqa: F401  (a fixture: pacing on, the clock at Mon 2026-01-05 10:00 UTC)

REPO = pathlib.Path(__file__).resolve().parents[2]


def terminal(box, *args):
    """leitnerctl ARGS on a terminal, without colour: (exit status, output with plain line ends)."""
    status, output = on_terminal(box, *args, env=dict(box.env, NO_COLOR="1"))
    return status, output.replace("\r\n", "\n")


def import_kana(box, tmp_path, count=40):
    """The first `count` kana of the trial's deck, as `make try` imports them."""
    lines = (REPO / "samples/kana.tsv").read_text().splitlines()
    head = [line for line in lines if line.startswith("#") or line.startswith("id\t")]
    deck = tmp_path / "kana.tsv"
    deck.write_text("".join(line + "\n" for line in head + lines[len(head):len(head) + count]))
    box.ok("import", str(deck))


def test_the_documents_name_no_last_rule_but_the_last(tmp_path):
    """README said the rules were R1–R22 when they went to R29: a range of rules names the
    last one that docs/rules.md has, or none."""
    numbers = [int(n) for n in re.findall(r"^\*\*R(\d+) —", (REPO / "docs/rules.md").read_text(), re.M)]
    last = max(numbers)
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        for match in re.finditer(r"R1\s*(?:–|-|…|\.\.\.)\s*R(\d+)", path.read_text()):
            assert int(match.group(1)) == last, f"{path.name} names R1–R{match.group(1)}; the rules go to R{last}"


def test_stats_keeps_a_gap_after_the_practice_row_name(paced, tmp_path):
    import_kana(paced, tmp_path, 4)
    out = paced.ok("stats")
    assert "practicenone" not in out
    assert re.search(r"^  practice +none", out, re.M), out


def test_list_by_a_tag_no_card_has_says_so_and_fails(paced, tmp_path):
    import_kana(paced, tmp_path, 10)
    paced.ok("tag", "hira-a", "ja")
    piped = paced.ctl("list", "--tag", "nosuch")
    assert piped.returncode == 1, piped
    assert piped.stdout == ""
    assert "no card is tagged 'nosuch'" in piped.stderr
    status, out = terminal(paced, "list", "--tag", "nosuch")
    assert status == 1
    assert "No cards in the box." not in out and "no card is tagged 'nosuch'" in out
    # A tag that chooses cards lists them, as before.
    assert paced.ok("list", "--tag", "ja").split("\t")[1] == "hira-a"


def test_review_and_practice_by_a_tag_no_card_has_say_so_and_fail(paced, tmp_path):
    """`review --tag nosuch` ended with "This part of today's test: 0 of 0 done" and exit status
    0, `practice --tag nosuch` with "No card to practise.": a mistyped tag read as a done test."""
    import_kana(paced, tmp_path, 10)
    paced.ok("tag", "hira-a", "ja")
    for command in ("review", "practice"):
        piped = paced.ctl(command, "--tag", "nosuch")
        assert (piped.returncode, piped.stdout) == (1, ""), piped
        assert piped.stderr == "leitnerctl: no card is tagged 'nosuch' ('leitnerctl tags' lists the box's tags)\n"
        status, out = terminal(paced, command, "--tag", "nosuch")
        assert status == 1 and "no card is tagged 'nosuch'" in out and "0 of 0 done" not in out, out
    # A tag the box has, on no card of today's test: the part's summary, as before.
    paced.ok("move", "hira-a", "finished")
    part = paced.ctl("review", "--tag", "ja")
    assert part.returncode == 0 and "This part of today's test" in part.stdout and part.stderr == "", part


def test_an_import_that_is_not_utf8_says_what_it_is_and_how_to_convert_it(paced, tmp_path):
    """A spreadsheet's "Unicode text" (UTF-16) and a Windows-1252 file were refused with "it is
    not UTF-8 text" alone: the refusal names UTF-16, or the line that breaks, and iconv."""
    sheet, old = tmp_path / "sheet.txt", tmp_path / "old.tsv"
    sheet.write_bytes("front\tback\nperro\tdog\n".encode("utf-16"))
    old.write_bytes("uno\tone\ncafé\tcoffee\n".encode("cp1252"))
    for path, words in [(sheet, "it is UTF-16 text (a spreadsheet's \"Unicode text\"), not UTF-8: "
                                "save it as UTF-8, or convert it with 'iconv -f UTF-16 -t UTF-8'"),
                        (old, "line 2 is not UTF-8 text (Windows-1252, say): "
                              "save it as UTF-8, or convert it with 'iconv -f WINDOWS-1252 -t UTF-8'")]:
        refused = paced.ctl("import", str(path))
        assert (refused.returncode, refused.stderr) == (1, f"leitnerctl: cannot import '{path}': {words}\n")
    assert paced.ok("list") == ""
    # Converted as it says, it goes in.
    converted = tmp_path / "converted.tsv"
    converted.write_bytes(subprocess.run(["iconv", "-f", "WINDOWS-1252", "-t", "UTF-8", str(old)], check=True,
                                         capture_output=True).stdout)
    assert "2 added" in paced.ok("import", str(converted))


def test_search_that_finds_nothing_says_so_on_a_terminal(paced, tmp_path):
    import_kana(paced, tmp_path, 10)
    status, out = terminal(paced, "search", "zzz")
    assert status == 1
    assert "No card's id, front or back holds 'zzz'." in out
    # Into a pipe: nothing, as grep, and exit status 1.
    piped = paced.ctl("search", "zzz")
    assert (piped.returncode, piped.stdout) == (1, "")


def test_help_add_says_where_a_card_goes_without_a_level(paced):
    help_text = " ".join(paced.ok("help", "add").split())
    assert "(default 1)" not in help_text
    assert "--level LEVEL 1 to 7, finished, new or suspended (default new: it waits its turn to come into level 1)" in help_text
    assert "(default 1)" not in paced.ok("help", "import")


def test_show_lists_the_cards_tags(paced):
    paced.ok("add", "--id", "hund", "--tag", "de", "--tag", "de:tiere", "--level", "1", "Hund", "dog")
    lines = paced.ok("show", "hund").splitlines()
    assert "tags: de, de:tiere" in lines, lines


def test_calendar_leaves_out_the_days_before_the_box_and_tells_arrived_from_coming(paced, tmp_path):
    import_kana(paced, tmp_path, 30)
    before = paced.ok("calendar").splitlines()
    assert not any(" none " in line for line in before), before
    assert before[0].startswith("Mon 2026-01-05"), before
    assert before[0].endswith("· +20 new from new/ when the test opens"), before[0]
    paced.ok("prepare")  # the test opens: the twenty arrive
    today = paced.ok("calendar", "today", "today").strip()
    assert today.endswith("· 20 came from new/"), today
    assert "+20" not in today
    assert "The box did not exist yet on those days." in paced.ok("calendar", "-9", "-8")


def test_log_on_a_terminal_shows_the_latest_and_says_how_to_see_all(paced, tmp_path):
    import_kana(paced, tmp_path, 30)
    status, out = terminal(paced, "log")
    lines = out.strip().splitlines()
    assert status == 0
    assert len(lines) == 21, lines
    assert lines[-1] == "(the last 20 entries: 'leitnerctl log --all' shows every one, --since DATE those from a day on)"
    assert "hira-ho" in lines[-2]  # the latest last
    status, out = terminal(paced, "log", "--all")
    assert len(out.strip().splitlines()) == 30
    # Into a pipe, every entry, for scripts.
    assert len(paced.ok("log").splitlines()) == 30


def test_add_without_a_level_says_when_the_card_comes(paced, tmp_path):
    """add --reverse put a card at the back of new/'s queue without a word of when it would
    come (R23): the reply says how many wait before it and on which day it comes into level 1."""
    import_kana(paced, tmp_path, 30)  # twenty come in today, when the test opens, ten tomorrow
    out = paced.ok("add", "--reverse", "--id", "hund", "Hund", "dog").splitlines()
    assert out == ["Added 'hund' to new.", "Added 'hund.rev', its reverse, to new.",
                   "They wait in new/ behind 30 cards and come into level 1 tomorrow (Tue 2026-01-06)."], out
    paced.ok("prepare")  # today's twenty came in: the rest is tomorrow's twenty, then three
    for n in range(8):
        paced.ok("add", f"Wort {n}", f"word {n}")
    out = paced.ok("add", "Katze", "cat").splitlines()
    assert out == ["Added 'katze' to new.", "It waits in new/ behind 20 cards and comes into level 1 on Wed 2026-01-07."], out
    paced.ok("--json", "add", "Maus", "mouse")  # --json: the reply only
    assert paced.ctl("--json", "add", "Vogel", "bird").stdout.lstrip().startswith("{")



def test_status_counts_the_cards_that_arrive_when_the_test_opens(paced, tmp_path):
    """Right after an import, status called the test the review then opened with twenty cards
    (R23) 'empty · 0 of 0 done', as if nothing were due; the next morning it said '0 of 20 done'
    where the review showed 40. It counts them in, as the web's Today page does."""
    import_kana(paced, tmp_path, 50)
    assert terminal(paced, "status")[1].splitlines()[0] == \
        "Today 2026-01-05 · test #1 · levels 2, 1 · opens with 20 new cards"
    paced.ok("prepare")
    paced.clock.write_text("@2026-01-06 10:00:00\n")  # nothing graded: yesterday's test stays open (R5)
    assert terminal(paced, "status")[1].splitlines()[0] == \
        "Today 2026-01-06 · test #1 · levels 2, 1 · open · 0 of 40 done, 20 of them new"
    assert "0 of 40 done, 20 of them new" in terminal(paced, "boxes")[1]
    assert paced.json("prepare")["test"]["remaining"] == 40


def test_status_of_a_box_without_cards_says_how_to_put_some_in(paced, tmp_path):
    """A newcomer's first `leitnerctl` showed a table of zeros and nothing to do next."""
    hint = "The box has no cards yet: add some with 'leitnerctl add FRONT BACK' or 'leitnerctl import FILE'."
    assert hint in terminal(paced, "status")[1]
    paced.ok("add", "der Hund", "dog")
    assert "no cards yet" not in terminal(paced, "status")[1]
