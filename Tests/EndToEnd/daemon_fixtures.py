"""pytest fixtures for the daemon tests (imported by each test_daemon*.py)."""
import shutil

import pytest

from daemon_support import Daemon, short_root


@pytest.fixture
def root():
    path = short_root()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def make_daemon(bin_dir, root):
    """Makes daemons on `root` (not started); each is stopped, or killed, at the end."""
    made = []

    def make(**kwargs):
        daemon = Daemon(bin_dir, root, **kwargs)
        made.append(daemon)
        return daemon

    yield make
    for daemon in made:
        try:
            daemon.stop(timeout=10)
        except Exception:
            pass
        daemon.kill()


@pytest.fixture
def daemon(make_daemon):
    """A started daemon on an empty store with the embedded defaults."""
    return make_daemon().start()
