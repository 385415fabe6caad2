#!/usr/bin/env python3
"""The daemon's own cost per round trip: p50/p99 of GetInfo (never touches the box),
Status and a durable Grade with one client on a small store, next to a socketpair ping-pong
between two Python processes (the client's and the kernel's share of any round trip).
Usage: bench/floor.py BIN_DIR [CALLS]"""
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time


def percentiles(times):
    times.sort()
    return times[len(times) // 2] / 1000, times[int(len(times) * 0.99)] / 1000


def ping_pong(calls):
    a, b = socket.socketpair()
    if os.fork() == 0:
        a.close()
        while data := b.recv(1 << 16):
            b.sendall(data)
        os._exit(0)
    b.close()
    message = b'{"method":"io.leitner.Box.Status","parameters":{}}\0'
    times = []
    for _ in range(calls):
        start = time.perf_counter_ns()
        a.sendall(message)
        a.recv(1 << 16)
        times.append(time.perf_counter_ns() - start)
    a.close()
    os.wait()
    return percentiles(times)


def calls(sock, method, parameter_list):
    times, buffer = [], b""
    for parameters in parameter_list:
        start = time.perf_counter_ns()
        sock.sendall(json.dumps({"method": method, "parameters": parameters}).encode() + b"\0")
        while b"\0" not in buffer:
            buffer += sock.recv(1 << 20)
        message, _, buffer = buffer.partition(b"\0")
        times.append(time.perf_counter_ns() - start)
        if "error" in json.loads(message):
            raise RuntimeError(message)
    return percentiles(times)


def main():
    bin_dir, count = pathlib.Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    root = pathlib.Path(tempfile.mkdtemp(prefix="lf-"))
    store, path = root / "store", str(root / "d.sock")
    for i in range(count):
        card = store / "1" / f"c{i:06d}"
        card.mkdir(parents=True)
        (card / "front.txt").write_text(f"front {i}")
        (card / "back.txt").write_text(f"back {i}")
    daemon = subprocess.Popen([str(bin_dir / "leitnerd"), "--store", str(store), "--socket", path],
                              env=dict(os.environ, XDG_CONFIG_HOME=str(root / "cfg"), XDG_STATE_HOME=str(root / "state")), stderr=subprocess.DEVNULL)
    try:
        while not os.path.exists(path):
            time.sleep(0.01)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        print("socketpair ping-pong  p50 %6.1f µs  p99 %6.1f µs" % ping_pong(count))
        print("GetInfo               p50 %6.1f µs  p99 %6.1f µs" % calls(sock, "org.varlink.service.GetInfo", [{}] * count))
        print("Status                p50 %6.1f µs  p99 %6.1f µs" % calls(sock, "io.leitner.Box.Status", [{}] * count))
        calls(sock, "io.leitner.Box.Prepare", [{}])
        grades = [{"id": f"c{i:06d}", "correct": True} for i in range(count)]
        print("Grade (durable)       p50 %6.1f µs  p99 %6.1f µs" % calls(sock, "io.leitner.Box.Grade", grades))
    finally:
        daemon.terminate()
        daemon.wait(30)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
