"""Shared fixtures for the end-to-end tests: the built programs, a temporary store and socket."""
import os
import pathlib

import pytest

from browsers import artifacts, desktop, phone  # noqa: F401 (the web tests' fixtures, browsers.py)


@pytest.fixture(scope="session")
def bin_dir() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("LEITNER_BIN", ".build/debug"))
    assert (path / "leitnerd").exists(), f"no leitnerd in {path}: run 'swift build' first"
    return path


# In CI (`CI=true`, as .ci/run is run) every end-to-end test runs: a skip there is a failure,
# since .ci/run installs every tool the tests use and runs as root (#25). Only the skips whose
# reason names a property of the machine rather than a missing install are let through; the
# README ("Testing") lists them.
MACHINE_SKIPS = (
    "perf cannot count the fdatasync tracepoint here",  # the kernel or the VM hides tracepoints
)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") != "true" or not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = str(report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr)
    if any(allowed in reason for allowed in MACHINE_SKIPS):
        return
    report.outcome = "failed"
    report.longrepr = f"skipped in CI, where every test must run (README, 'Testing'): {reason}"


# `@pytest.mark.soak`: a long scenario that only `make sync-soak` (LEITNER_SYNC_SOAK=1) runs. It
# is left out of the other runs before they start, so that it is neither run nor skipped.
def pytest_configure(config):
    config.addinivalue_line("markers", "soak: run only by make sync-soak (LEITNER_SYNC_SOAK=1)")


def pytest_collection_modifyitems(config, items):
    if os.environ.get("LEITNER_SYNC_SOAK") == "1":
        return
    kept = [item for item in items if item.get_closest_marker("soak") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.get_closest_marker("soak")])
        items[:] = kept
