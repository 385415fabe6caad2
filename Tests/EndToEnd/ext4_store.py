"""A store on a file system of its own, an ext4 image on a loop device, for what only a real
file system under the daemon can show: a disk error that turns it read-only, a frozen file system
that holds a write in the kernel. Mounting needs root, as CI runs."""
import os
import shutil
import subprocess
import time

import pytest

from daemon_fixtures import root  # noqa: F401  (fixture)


class Ext4Store:
    """An ext4 file system in a file, mounted on a loop device at `path`."""

    def __init__(self, root):
        self.image = root / "store.img"
        self.path = root / "store"
        self.path.mkdir()
        subprocess.run(["truncate", "-s", "16M", str(self.image)], check=True)
        subprocess.run(["mkfs.ext4", "-q", "-F", str(self.image)], check=True)
        self.mount()

    def mount(self):
        subprocess.run(["mount", "-o", "loop,errors=remount-ro", str(self.image), str(self.path)], check=True)
        self.device = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(self.path)], check=True,
                                     capture_output=True, text=True).stdout.strip()

    def turn_read_only(self):
        """What a disk error does: the file system refuses every write from now on (EROFS)."""
        name = os.path.basename(self.device)
        with open(f"/sys/fs/ext4/{name}/trigger_fs_error", "w") as f:
            f.write("leitner test\n")

    def freeze(self):
        """What a hung disk does: every write waits in the kernel until `thaw()`."""
        subprocess.run(["fsfreeze", "-f", str(self.path)], check=True)

    def thaw(self):
        subprocess.run(["fsfreeze", "-u", str(self.path)], capture_output=True)

    def unmount(self):
        """Unmounts, once nothing holds the file system: a daemon killed with SIGKILL leaves its
        voice's espeak-ng running, writing a card's sound into the store's cache, and `umount`
        says busy until it ends (a second or more on a loaded machine)."""
        deadline = time.monotonic() + 60
        while True:
            result = subprocess.run(["umount", str(self.path)], capture_output=True, text=True)
            if result.returncode == 0:
                return
            if "busy" not in result.stderr or time.monotonic() > deadline:
                raise AssertionError(f"umount {self.path}: {result.stderr}")
            time.sleep(0.05)


@pytest.fixture
def ext4_store(root):  # noqa: F811
    if os.geteuid() != 0:
        pytest.skip("mounting a file system needs root")
    if shutil.which("mkfs.ext4") is None:
        pytest.skip("needs mkfs.ext4 (e2fsprogs)")
    store = Ext4Store(root)
    try:
        yield store
    finally:
        store.thaw()
        subprocess.run(["umount", "-l", str(store.path)])


