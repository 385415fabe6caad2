"""`leitnerctl completion bash|zsh|fish`: the completion printed from the command table, loaded
into the real shells as each loads it (bash's completion function, zsh's compinit in a
pseudo-terminal, fish's `complete -C`), offers the same candidates in all three: commands,
options, the values an option or an argument takes, files, directories, and the boxes' names.
Nothing of it starts a daemon."""
import os
import pathlib
import subprocess

import pytest

import shell_completion

COMMANDS = {"status", "review", "practice", "prepare", "add", "import", "export", "list", "search", "find", "show",
            "edit", "rename", "move", "suspend", "unsuspend", "delete", "reverse", "undo", "calendar", "log", "doctor",
            "stats", "tag", "untag", "tags", "next", "grade", "web", "stop", "boxes", "completion", "help"}
LEVELS = {"1", "2", "3", "4", "5", "6", "7", "finished", "new", "suspended"}
GLOBALS_AFTER_A_COMMAND = {"--socket", "--config", "--box", "--json", "--no-autostart", "--help"}

# A command line as typed before Tab, and what every shell must offer: exactly these.
CASES = [
    ("leitnerctl ", COMMANDS),
    ("leitnerctl mo", {"move"}),
    ("leitnerctl help st", {"status", "stats", "stop"}),
    ("leitnerctl --socket /x mo", {"move"}),
    ("leitnerctl --box german st", {"status", "stats", "stop"}),
    ("leitnerctl --n", {"--no-autostart"}),
    ("leitnerctl --v", {"--version"}),
    ("leitnerctl list --sort ", {"id", "level", "added"}),
    ("leitnerctl list ", LEVELS),
    ("leitnerctl list --tag ja ", LEVELS),
    ("leitnerctl move card ", LEVELS),
    ("leitnerctl move ", set()),
    ("leitnerctl add --level ", LEVELS),
    ("leitnerctl add --level 3 --tag x ", set()),
    ("leitnerctl grade card c", {"correct"}),
    ("leitnerctl import --format ", {"tsv", "csv", "anki"}),
    ("leitnerctl review --images ", {"auto", "kitty", "iterm", "sixel", "blocks", "none"}),
    ("leitnerctl edit --as ", {"txt", "md"}),
    ("leitnerctl doctor --keep ", {"mine", "theirs"}),
    ("leitnerctl completion ", {"bash", "zsh", "fish"}),
    ("leitnerctl add --l", {"--level"}),
    ("leitnerctl add --r", {"--reverse"}),
    ("leitnerctl delete --k", {"--keep-reverses"}),
    ("leitnerctl reverse --", {"--id", "--level"} | GLOBALS_AFTER_A_COMMAND),
    ("leitnerctl --box ", {"german", "kana"}),
    ("leitnerctl status --box k", {"kana"}),
]

SHELLS = ["bash", "zsh", "fish"]


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> pathlib.Path:
    """A home with two boxes beside the default one, german (a store) and kana (a configuration),
    and a directory of files to complete."""
    home = tmp_path_factory.mktemp("home")
    (home / "data/leitner/boxes/german").mkdir(parents=True)
    (home / "config/leitner").mkdir(parents=True)
    (home / "config/leitner/kana.conf").write_text("")
    (home / "config/leitner/leitner.conf").write_text("")
    (home / "files/decks").mkdir(parents=True)
    (home / "files/cards.tsv").write_text("a\tb\n")
    return home


@pytest.fixture(scope="module")
def env(home, bin_dir) -> dict:
    return {"PATH": f"{bin_dir.resolve()}:/usr/bin:/bin", "HOME": str(home), "TERM": "xterm",
            "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_RUNTIME_DIR": str(home)}


def script(bin_dir: pathlib.Path, shell: str, env: dict) -> str:
    result = subprocess.run([bin_dir / "leitnerctl", "completion", shell], capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def loaded(home, bin_dir, env) -> dict:
    """Each shell's script where that shell reads it: a file to source, `_leitnerctl` in a
    directory of $fpath, a fish file."""
    scripts = home / "completion"
    (scripts / "zsh").mkdir(parents=True)
    (scripts / "leitnerctl.bash").write_text(script(bin_dir, "bash", env))
    (scripts / "zsh/_leitnerctl").write_text(script(bin_dir, "zsh", env))
    (scripts / "leitnerctl.fish").write_text(script(bin_dir, "fish", env))
    return {"bash": scripts / "leitnerctl.bash", "zsh": scripts / "zsh", "fish": scripts / "leitnerctl.fish"}


def offered(shell: str, loaded: dict, line: str, env: dict) -> set[str]:
    assert shell_completion.installed(shell), f"install the Debian package '{shell}' (.ci/run does)"
    return set(getattr(shell_completion, shell)(loaded[shell], line, env))


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize("line,expected", CASES, ids=[c[0] for c in CASES])
def test_each_shell_offers_what_the_command_table_says(shell, line, expected, loaded, env):
    assert offered(shell, loaded, line, env) == expected


@pytest.mark.parametrize("shell", SHELLS)
def test_files_for_a_file_and_directories_only_for_a_directory(shell, loaded, env, home):
    files = home / "files"
    names = lambda line: {pathlib.Path(w.rstrip("/")).name for w in offered(shell, loaded, line, env)}
    assert {"cards.tsv", "decks"} <= names(f"leitnerctl import {files}/")
    assert {"cards.tsv"} <= names(f"leitnerctl add --front-file {files}/c")
    offered_dirs = names(f"leitnerctl export --dir {files}/")
    assert "decks" in offered_dirs and "cards.tsv" not in offered_dirs


def test_nothing_of_it_starts_a_daemon(loaded, env, home):
    for shell in SHELLS:
        offered(shell, loaded, "leitnerctl show ", env)
        offered(shell, loaded, "leitnerctl ", env)
    assert not list(home.rglob("*.sock")) and not (home / "data/leitner/new").exists()


def test_a_shell_it_does_not_know_is_a_usage_error(bin_dir, env):
    result = subprocess.run([bin_dir / "leitnerctl", "completion", "ksh"], capture_output=True, text=True, env=env, timeout=30)
    assert result.returncode == 64 and result.stdout == ""
    assert result.stderr.startswith("leitnerctl: invalid shell 'ksh': expected bash, zsh or fish\n")
