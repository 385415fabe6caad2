"""Words for people: no message a user sees cites a rule number, and the documentation a user
gets points to docs/rules.md (the rules in plain words), never to a file outside the repository."""
import os
import pathlib
import re

from cli_box import box  # noqa: F401 (fixture)

ROOT = pathlib.Path(__file__).resolve().parents[2]
RULE = re.compile(r"\bR\d{1,2}\b")
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def rule_numbers_in_string_literals(text: str) -> list[str]:
    """The string literals of a Swift source that cite a rule: one-line literals outside `//`
    comments, and every line of a multi-line literal."""
    found = []
    in_multiline = False
    for number, line in enumerate(text.splitlines(), 1):
        if in_multiline:
            if '"""' in line:
                in_multiline = False
                line = line.split('"""', 1)[0]
            if RULE.search(line):
                found.append(f"{number}: {line.strip()}")
            continue
        code = line.split("//", 1)[0] if line.lstrip().startswith("//") else line
        if line.lstrip().startswith("//"):
            continue
        if code.count('"""') == 1:
            in_multiline = True
            continue
        found += [f"{number}: {literal}" for literal in LITERAL.findall(code) if RULE.search(literal)]
    return found


def test_the_check_finds_a_rule_number():
    sample = 'let a = "fine"\n// a comment on R9\nthrow .x(reason: "damaged (R21)")\nlet t = """\n  see R5\n  """\n'
    assert rule_numbers_in_string_literals(sample) == ['3: "damaged (R21)"', "5: see R5"]


def test_no_message_cites_a_rule_number():
    offenders = {}
    for path in sorted((ROOT / "Sources").rglob("*.swift")):
        found = rule_numbers_in_string_literals(path.read_text())
        if found:
            offenders[str(path.relative_to(ROOT))] = found
    assert offenders == {}


def test_doctor_explains_problems_without_rule_numbers(box):
    box.ok("add", "--id", "hola", "hola", "hello")
    (box.store / "2" / "not an id").mkdir()
    (box.store / "3" / "half").mkdir()
    (box.store / "3" / "half" / "front.txt").write_text("only a front")
    os.symlink("/etc", box.store / "4" / "outside")
    result = box.ctl("doctor")
    assert result.returncode == 1
    assert "not an id" in result.stdout and "half" in result.stdout and "outside" in result.stdout
    assert not RULE.search(result.stdout + result.stderr), result.stdout


def test_user_documentation_points_to_the_rules_in_plain_words():
    for page in ["README.md", "man/leitnerctl.1", "man/leitnerd.8", "man/leitner.conf.5"]:
        text = (ROOT / page).read_text()
        assert "rules.md" in text, page
        assert "SPEC" not in text, page
    for doc in (ROOT / "docs").glob("*.md"):
        assert "SPEC" not in doc.read_text(), doc.name


def test_the_rules_say_it_for_a_learner():
    text = (ROOT / "docs/rules.md").read_text()
    learner = text.split("## In short, for a learner\n", 1)[1].split("\n## ", 1)[0]
    # The 64-day cycle as a picture: one column per test, one row per level.
    rows = [line for line in learner.splitlines() if line.startswith("level ") and "●" in line]
    assert [row.split()[1] for row in rows] == ["1", "2", "3", "4", "5", "6", "7"]
    assert [row.split()[2].count("●") for row in rows] == [64, 32, 16, 8, 4, 2, 1]
    assert "**A missed day costs nothing.**" in learner
    assert "**Moving a card by hand**" in learner
    # And as a table, entry by entry.
    assert "| 56–63 | 2,1 | 3,1 | 6,2,1 | 5,1 | 4,2,1 | 3,1 | 2,1 | 1 |" in text


def test_leitnerd_page_documents_sighup_and_stop():
    page = (ROOT / "man/leitnerd.8").read_text()
    signals = page.split(".SH SIGNALS\n", 1)[1].split("\n.SH ", 1)[0]
    assert ".B SIGHUP\nRead the configuration again." in signals
    assert "leitnerctl stop" in page


def test_readme_install_reloads_systemd_before_enabling():
    readme = (ROOT / "README.md").read_text()
    install = readme.split("## Installing and running as a service\n", 1)[1]
    steps = [line.strip() for line in install.splitlines() if line.startswith("    ")]
    assert steps[:3] == ["make install                # static release binaries, systemd units, man pages, completion",
                         "systemctl --user daemon-reload",
                         "systemctl --user enable --now leitnerd.socket leitner-prepare.timer"]
