"""leitnerctl starts leitnerd when nothing answers, and two at once start only one."""
import os
import signal
import subprocess
import time

import pytest

from cli_box import CliBox, answers, daemon_is_built, daemon_pids


def test_two_clients_at_once_start_one_daemon(bin_dir, tmp_path):
    if not daemon_is_built(bin_dir):
        pytest.skip("leitnerd is not built yet (placeholder)")
    b = CliBox(bin_dir, tmp_path)
    env = dict(b.env)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")  # the autostarted daemon's default store
    command = [str(bin_dir / "leitnerctl"), "--socket", str(b.socket), "status"]
    try:
        clients = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for _ in range(2)]
        results = [c.communicate(timeout=30) for c in clients]
        for client, (out, err) in zip(clients, results):
            assert client.returncode == 0, err
            assert out.startswith("Today ")
        assert answers(b.socket)
        pids = daemon_pids(b.socket)
        assert len(pids) == 1, pids
        # A third client finds it running and starts nothing.
        subprocess.run(command, env=env, check=True, capture_output=True, timeout=30)
        assert daemon_pids(b.socket) == pids
        assert (tmp_path / "data" / "leitner" / "1").is_dir()
    finally:
        for pid in daemon_pids(b.socket):
            os.kill(pid, signal.SIGTERM)


def test_autostart_failure_is_reported(bin_dir, tmp_path):
    if not daemon_is_built(bin_dir):
        pytest.skip("leitnerd is not built yet (placeholder)")
    b = CliBox(bin_dir, tmp_path)
    config = tmp_path / "bad.conf"
    config.write_text("[Nonsense]\nKey=1\n")
    result = subprocess.run([str(bin_dir / "leitnerctl"), "--socket", str(b.socket), "--config", str(config), "status"],
                            env=b.env, capture_output=True, text=True, timeout=30)
    assert result.returncode in (1, 69)
    assert "leitnerd" in result.stderr or "bad.conf" in result.stderr
    # The daemon that could not start is gone (it may still be ending as leitnerctl reports it).
    deadline = time.monotonic() + 10
    while daemon_pids(b.socket) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert daemon_pids(b.socket) == []


def test_an_autostarted_daemon_holds_no_pipe_of_its_client(bin_dir, tmp_path):
    """#25: `leitnerctl status 3>&1 >/dev/null | cat` with no daemon running ends when leitnerctl
    does, not when the daemon it started exits after ten idle minutes: the daemon inherits no
    descriptor of its client's but the three it is given."""
    if not daemon_is_built(bin_dir):
        pytest.skip("leitnerd is not built yet (placeholder)")
    b = CliBox(bin_dir, tmp_path)
    env = dict(b.env)
    env["XDG_DATA_HOME"] = str(tmp_path / "data")
    ctl = f"'{bin_dir / 'leitnerctl'}' --socket '{b.socket}' status"
    try:
        started = time.monotonic()
        result = subprocess.run(["bash", "-c", f"{{ {ctl} 3>&1 >/dev/null; }} | cat"], env=env,
                                capture_output=True, text=True, timeout=60)
        elapsed = time.monotonic() - started
        assert result.returncode == 0, result.stderr
        assert answers(b.socket)  # the daemon is still running, idle
        assert elapsed < 20, f"the pipe stayed open {elapsed:.1f} s"
    finally:
        for pid in daemon_pids(b.socket):
            os.kill(pid, signal.SIGTERM)
