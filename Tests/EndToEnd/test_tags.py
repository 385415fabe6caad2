"""Tags (R25) and a subset of the test (R26) with the real programs: tag, untag and tags; the
filters of list, search and export in the daemon; a tags file edited by hand; a bad tag line
reported by doctor; tags through an export and an import; review --tag leaving the rest queued."""
from cli_box import box  # noqa: F401  (fixture)
from daemon_support import log_file


def ids(box, *args):  # noqa: F811
    return [card["id"] for card in box.json_lines("list", *args)]


def test_tag_untag_tags_and_the_filters(box):  # noqa: F811
    box.ok("add", "neko", "cat", "--id", "neko", "--tag", "ja:kana", "--tag", "animals")
    box.ok("add", "hund", "dog", "--id", "hund")
    box.ok("add", "hola", "hello", "--id", "hola")
    assert box.ok("tag", "hund", "de", "animals") == "'hund' is tagged 'de', 'animals'.\n"
    assert (box.store / "1" / "hund" / "tags").read_text() == "de\nanimals\n"
    assert box.ok("tags") == "animals\t2\nde\t1\nja:kana\t1\n"
    assert box.json_lines("tags") == [{"tag": "animals", "cards": 2}, {"tag": "de", "cards": 1},
                                      {"tag": "ja:kana", "cards": 1}]
    assert ids(box, "--tag", "ja") == ["neko"]
    assert ids(box, "--tag", "ja", "--tag", "de") == ["hund", "neko"]
    assert ids(box, "--not-tag", "animals") == ["hola"]
    assert box.json("show", "neko")["card"]["tags"] == ["ja:kana", "animals"]
    assert "tags" not in box.json("show", "hola")["card"]
    found = box.ctl("search", "--ids", "o", "--tag", "animals")
    assert found.stdout.splitlines() == ["hund", "neko"]
    assert box.ok("untag", "hund", "de", "animals") == "'hund' has no tags.\n"
    assert ids(box, "--tag", "de") == []


def test_bad_tags_are_usage_errors_and_change_nothing(box):  # noqa: F811
    box.ok("add", "neko", "cat", "--id", "neko")
    bad = box.ctl("tag", "neko", "ok", "two words")
    assert bad.returncode == 64 and "invalid tag 'two words': contains a space" in bad.stderr
    assert not (box.store / "1" / "neko" / "tags").exists()
    assert box.ctl("list", "--tag", "ja:").returncode == 64
    assert box.ctl("add", "x", "y", "--tag", ":x").returncode == 64
    assert ids(box) == ["neko"]


def test_add_with_tags_is_one_change_for_the_card_and_its_reverse(box):  # noqa: F811
    """`add --tag` sends the tags with the Add: the card and its reverse are written with them,
    one `add` line each and no `edit` after, and a bad tag adds nothing."""
    box.ok("add", "neko", "cat", "--id", "neko", "--reverse", "--tag", "ja:kana", "--tag", "animals")
    assert (box.store / "1" / "neko" / "tags").read_text() == "ja:kana\nanimals\n"
    assert (box.store / "1" / "neko.rev" / "tags").read_text() == "ja:kana\nanimals\n"
    box.ok("add", "hund", "dog", "--id", "hund", "--tag", "de")
    assert box.json("show", "hund")["card"]["tags"] == ["de"]
    events = [line.split("\t")[1:3] for line in log_file(box.store).read_text().splitlines()]
    assert events == [["add", "neko"], ["add", "neko.rev"], ["add", "hund"]]


def test_a_hand_edited_tags_file_is_taken_in_and_its_bad_line_reported(box):  # noqa: F811
    box.ok("add", "neko", "cat", "--id", "neko")
    assert box.ok("tags") == ""
    tags = box.store / "1" / "neko" / "tags"
    tags.write_text("ja\n::kana\nanimals\n")
    assert ids(box, "--tag", "animals") == ["neko"]
    doctor = box.ctl("doctor")
    assert doctor.returncode == 1
    assert f"'{tags}:2': not a tag, ignored: '::kana'" in doctor.stdout
    assert box.json("show", "neko")["card"]["tags"] == ["ja", "animals"]


def test_export_and_import_keep_the_tags(box, tmp_path):  # noqa: F811
    box.ok("add", "neko", "cat", "--id", "neko", "--tag", "ja")
    box.ok("add", "hund", "dog", "--id", "hund")
    exported = box.ok("export", "--tag", "ja")
    assert exported.splitlines() == ["id\tfront\tback\tfrontext\tbackext\ttags", "neko\tneko\tcat\ttxt\ttxt\tja"]
    whole = tmp_path / "whole.tsv"
    whole.write_text(box.ok("export"))
    box.ok("delete", "--yes", "neko")
    box.ok("delete", "--yes", "hund")
    box.ok("import", "--quiet", str(whole), "--tag", "imported")
    assert box.json("show", "neko")["card"]["tags"] == ["ja", "imported"]
    assert box.json("show", "hund")["card"]["tags"] == ["imported"]
    anki = tmp_path / "anki.txt"
    anki.write_text("#separator:tab\n#html:false\n#tags column:3\nperro\tdog\tes::animals verbs\n")
    box.ok("import", "--quiet", str(anki))
    assert box.json("show", "perro")["card"]["tags"] == ["es:animals", "verbs"]


def test_review_of_a_tag_leaves_the_rest_queued(box):  # noqa: F811
    box.ok("add", "neko", "cat", "--id", "neko", "--tag", "ja")
    box.ok("add", "hund", "dog", "--id", "hund")
    box.ok("prepare")
    out = box.ok("review", "--plain", "--tag", "ja", input="f\ny\n")
    assert "neko" in out and "hund" not in out
    assert "1 card of the test outside it remains" in out
    test = box.json("status")["test"]
    assert test["state"] == "open" and test["remaining"] == 1
    assert box.json("next")["card"]["id"] == "hund"
    level = box.ctl("review", "--plain", "--level", "8")
    assert level.returncode == 64
