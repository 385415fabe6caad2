"""Shared fixtures for the end-to-end tests: the built programs, a temporary store and socket."""
import os
import pathlib

import pytest


@pytest.fixture(scope="session")
def bin_dir() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("LEITNER_BIN", ".build/debug"))
    assert (path / "leitnerd").exists(), f"no leitnerd in {path}: run 'swift build' first"
    return path
