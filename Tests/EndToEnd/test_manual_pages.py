"""The manual pages and the bash completion (`leitnerctl completion bash`) against the programs' own help:
every command and option that `leitnerctl help` and `leitnerctl help CMD` print is in
leitnerctl(1) and offered by the completion, and nothing else is; leitnerd(8) lists exactly the
options of `leitnerd --help`; both pages give the exit codes. So they cannot drift again."""
import pathlib
import re
import subprocess

import pytest

from test_install import complete

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(*command: str) -> str:
    result = subprocess.run(command, capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    return result.stdout


def section(text: str, title: str) -> str:
    """The lines of a help text's `title:` block, up to the next blank line."""
    block = text.split(f"\n{title}:\n", 1)[1]
    return block.split("\n\n", 1)[0]


def option_names(lines: str) -> list[str]:
    """`  -y, --yes  do not ask` → ['-y', '--yes']."""
    names = []
    for line in lines.splitlines():
        spec = re.split(r"\s{2,}", line.strip())[0]
        names += [word.split()[0] for word in spec.split(", ")]
    return names


@pytest.fixture(scope="module")
def ctl_help(bin_dir):
    """The command table as leitnerctl prints it: commands, global options, each command's options."""
    ctl = str(bin_dir / "leitnerctl")
    top = run(ctl, "help")
    commands = [line.split()[0] for line in section(top, "Commands").splitlines()]
    per_command = {}
    for command in commands:
        text = run(ctl, "help", command)
        per_command[command] = option_names(section(text, "Options")) if "\nOptions:\n" in text else []
    exits = [line.split()[0] for line in section(top, "Exit status").splitlines()]
    return commands, option_names(section(top, "Options")), per_command, exits


def man_text(path: pathlib.Path) -> str:
    """A page's source with roff's escapes for '-' and for fonts undone."""
    return re.sub(r"\\f[BIRP]", "", path.read_text().replace("\\-", "-"))


def man_sections(text: str) -> dict[str, str]:
    parts = re.split(r"^\.SH (.+)$", text, flags=re.M)
    return {title.strip('"'): body for title, body in zip(parts[1::2], parts[2::2])}


def paragraphs(body: str) -> dict[str, str]:
    """Each `.TP` paragraph by the first word of its tag line (a command, an option), in order."""
    found = {}
    for chunk in body.split(".TP\n")[1:]:
        tag = re.sub(r"^\.[BIR]+ ", "", chunk.splitlines()[0]).strip('"')
        found[tag.split()[0].strip('"')] = chunk
    return found


def tagged_paragraph_heads(body: str) -> list[str]:
    return list(paragraphs(body))


def options_in(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z](?![\w-]))", text))


def test_leitnerctl_page_lists_every_command_in_order(ctl_help):
    commands, *_ = ctl_help
    sections = man_sections(man_text(ROOT / "man/leitnerctl.1"))
    assert tagged_paragraph_heads(sections["COMMANDS"]) == commands


def test_leitnerctl_page_has_every_option_and_no_other(ctl_help):
    commands, globals_, per_command, _ = ctl_help
    sections = man_sections(man_text(ROOT / "man/leitnerctl.1"))
    global_paragraphs = paragraphs(sections["OPTIONS"])
    for option in globals_:
        assert any(option in options_in(tag.splitlines()[0]) for tag in global_paragraphs.values()), option
    command_paragraphs = paragraphs(sections["COMMANDS"])
    for command, options in per_command.items():
        for option in options:
            assert option in options_in(command_paragraphs[command]), (command, option)
    known = set(globals_) | {o for options in per_command.values() for o in options}
    mentioned = options_in(sections["OPTIONS"] + sections["COMMANDS"] + sections["SYNOPSIS"])
    assert mentioned <= known, mentioned - known


def test_leitnerctl_page_gives_every_exit_status(ctl_help):
    *_, exits = ctl_help
    assert exits == ["0", "1", "64", "69"]
    body = man_sections(man_text(ROOT / "man/leitnerctl.1"))["EXIT STATUS"]
    assert tagged_paragraph_heads(body) == exits


def test_completion_offers_exactly_the_commands_and_options(ctl_help, bin_dir, tmp_path):
    commands, globals_, per_command, _ = ctl_help
    completion = tmp_path / "leitnerctl.bash"
    completion.write_text(run(str(bin_dir / "leitnerctl"), "completion", "bash"))
    assert complete(completion, "leitnerctl", "") == commands
    long_globals = sorted(o for o in globals_ if o.startswith("--"))
    assert sorted(complete(completion, "leitnerctl", "--")) == long_globals
    # After a command: its own options and the globals, which the parser takes there too, but
    # --version, which it takes only before a command.
    after = {o for o in long_globals if o != "--version"}
    for command, options in per_command.items():
        expected = sorted({o for o in options if o.startswith("--")} | after)
        assert sorted(complete(completion, "leitnerctl", command, "--")) == expected, command


def test_leitnerd_page_lists_exactly_the_options_of_its_help(bin_dir):
    text = run(str(bin_dir / "leitnerd"), "--help")
    options = {o.split("=")[0] for o in re.findall(r"^  (--[a-z-]+(?:=)?)", text, flags=re.M)}
    sections = man_sections(man_text(ROOT / "man/leitnerd.8"))
    heads = {h.split("=")[0] for h in tagged_paragraph_heads(sections["OPTIONS"])}
    assert heads == options
    assert options_in(sections["SYNOPSIS"]) <= options
    assert tagged_paragraph_heads(sections["EXIT STATUS"]) == ["0", "1", "64"]
    unknown = subprocess.run([str(bin_dir / "leitnerd"), "--no-such-option"], capture_output=True, timeout=10)
    assert unknown.returncode == 64
