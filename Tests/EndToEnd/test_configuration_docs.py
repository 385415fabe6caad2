"""The configuration's manual page is valid roff, and it, docs/configuration.md and the shipped
config/leitner.conf name the same keys."""
import os
import pathlib
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
MAN_PAGE = ROOT / "man" / "leitner.conf.5"
SHIPPED = ROOT / "config" / "leitner.conf"
DOC = ROOT / "docs" / "configuration.md"


def shipped_keys():
    """(section, key) of every commented-out key of the shipped file."""
    section, keys = None, []
    for line in SHIPPED.read_text().splitlines():
        if line.startswith("["):
            section = line.strip("[]")
        elif m := re.match(r"#([A-Z][A-Za-z]*)=", line):
            keys.append((section, m.group(1)))
    return keys


def test_shipped_file_lists_every_key():
    keys = shipped_keys()
    assert len(keys) == 33  # WatchLimit (#40), [Web]'s four (leitner-web; ServerName=, #36), NewPerDay, LeechAfter, SuspendLeeches (R23, R24), IgnoreAccents (R32), SearchSteps (#40), AnkiConnect and AnkiConnectOrigins (#38), AutoSpeak, [Voice] Program and Language (R33) joined the 18
    assert ("Schedule", "DayStartsAt") in keys and ("Client", "Player") in keys
    assert ("Sync", "Device") in keys and ("Sync", "SettleAfter") in keys
    assert ("Web", "Listen") in keys


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed (.ci/run installs groff-base)")
def test_man_page_has_no_roff_warnings():
    text = MAN_PAGE.read_text()
    assert text.startswith(".TH LEITNER.CONF 5 ")
    result = subprocess.run(["groff", "-ww", "-z", "-man", str(MAN_PAGE)], capture_output=True, text=True,
                            env={**os.environ, "LC_ALL": "C.UTF-8"})
    assert result.returncode == 0
    assert result.stderr == ""


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed (.ci/run installs groff-base)")
def test_roff_check_catches_mistakes(tmp_path):
    """The check above can fail: an undefined macro is reported."""
    bad = tmp_path / "bad.5"
    bad.write_text(".TH BAD 5\n.SH NAME\nbad \\- bad\n.XX\n")
    result = subprocess.run(["groff", "-ww", "-z", "-man", str(bad)], capture_output=True, text=True)
    assert "not defined" in result.stderr


def test_man_page_and_doc_describe_every_key():
    page = MAN_PAGE.read_text()
    doc = DOC.read_text()
    for section, key in shipped_keys():
        assert f'.SH "[{section}] SECTION"' in page
        assert re.search(rf"^\.B[IR]? {key}=", page, re.M), f"{key}= missing from the man page"
        assert f"| {section} | `{key}` |" in doc, f"{key}= missing from docs/configuration.md"
