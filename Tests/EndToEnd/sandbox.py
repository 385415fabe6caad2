"""Runs a command under leitnerd.service's sandbox without systemd as PID 1 (the daemon
must work under every hardening setting). Each setting is rebuilt with the kernel interface
systemd itself uses:

  PrivateNetwork/PrivateIPC/ProtectHostname  new net, IPC and UTS namespaces
  ProtectSystem=strict, ProtectKernelTunables every mount read-only but the writable paths
  PrivateTmp                                 fresh tmpfs on /tmp and /var/tmp
  ProtectHome                                /home, /root, /run/user hidden
  PrivateDevices                             a /dev with null, zero, full, random, urandom only
  User (DynamicUser), CapabilityBoundingSet= setuid/setgid to an unprivileged id, empty bounding set
  NoNewPrivileges, UMask                     prctl(PR_SET_NO_NEW_PRIVS), umask
  SystemCallFilter, SystemCallArchitectures  seccomp allow-list resolved by systemd-analyze
  RestrictAddressFamilies=AF_UNIX            seccomp: socket() of any other family fails
  MemoryDenyWriteExecute                     seccomp: no W+X mmap, no mprotect(PROT_EXEC)

Usage: sandbox.py --unit UNIT [--writable DIR]... [--bind FILE:TARGET]... [--user UID:GID] -- COMMAND...
(--bind puts a file over a system one, e.g. a group file that has `leitner`, in the sandbox only.)
Must run as root. The syscall sets come from the unit's own SystemCallFilter= lines. Nothing is
imported after the mounts: the interpreter itself may live under a home directory hidden here.
"""
import argparse
import ctypes
import ctypes.util
import errno
import os
import pathlib
import re
import subprocess
import sys

from units import unit_settings

libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_void_p]

CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWNET = 0x00020000, 0x04000000, 0x08000000, 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS = 24, 38
DEVICES = ["null", "zero", "full", "random", "urandom"]


def check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")


def mount(source, target, fstype, flags, data=None) -> None:
    enc = lambda s: s.encode() if isinstance(s, str) else s
    check(libc.mount(enc(source), enc(target), enc(fstype), flags, enc(data)), f"mount {target}")


def mount_points() -> list[tuple[str, set[str]]]:
    """Mount points and their per-mount options, from /proc/self/mountinfo."""
    points = []
    for line in pathlib.Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        points.append((point, set(fields[5].split(","))))
    return points


def under(path: str, roots) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def build_mounts(writable: list[str], binds: list[tuple[str, str]], readable: list[str]) -> None:
    """`readable` directories (the program's) stay visible, read-only, even under a hidden /tmp
    or home directory; `writable` ones stay writable."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    # Hold the writable directories, the bound files and the real /dev open: the tmpfs mounts
    # below may hide them.
    held = {path: os.open(path, os.O_PATH | os.O_DIRECTORY) for path in readable + writable}
    held_files = [(os.open(source, os.O_PATH), target) for source, target in binds]
    real_dev = os.open("/dev", os.O_PATH | os.O_DIRECTORY)
    for tmp in ("/tmp", "/var/tmp"):
        if os.path.isdir(tmp):
            mount("tmpfs", tmp, "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777")
    for home in ("/home", "/root", "/run/user"):
        if os.path.isdir(home):
            mount("tmpfs", home, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0000")
    mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755")
    for name in DEVICES:
        pathlib.Path("/dev", name).touch()
        mount(f"/proc/self/fd/{real_dev}/{name}", f"/dev/{name}", None, MS_BIND)
    os.mkdir("/dev/shm", 0o1777)
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=1777")
    for path, fd in held.items():
        os.makedirs(path, exist_ok=True)
        mount(f"/proc/self/fd/{fd}", path, None, MS_BIND)
        os.close(fd)
    os.close(real_dev)
    for fd, target in held_files:
        mount(f"/proc/self/fd/{fd}", target, None, MS_BIND)
        os.close(fd)
    mount("/proc/sys", "/proc/sys", None, MS_BIND)
    # ProtectSystem=strict: everything read-only except the writable paths, the private
    # /tmp and /dev, and /proc (ProtectProc= is not rebuilt here).
    keep_writable = writable + ["/tmp", "/var/tmp", "/dev", "/dev/shm"]
    for point, options in mount_points():
        if point in keep_writable or (under(point, ["/proc"]) and point != "/proc/sys"):
            continue
        flags = MS_REMOUNT | MS_BIND | MS_RDONLY
        flags |= (MS_NOSUID if "nosuid" in options else 0) | (MS_NODEV if "nodev" in options else 0)
        flags |= MS_NOEXEC if "noexec" in options else 0
        try:
            mount(None, point, None, flags)
        except OSError as error:
            if error.errno not in (errno.ENOENT, errno.EACCES):  # over-mounted points
                raise


def syscall_groups() -> dict[str, list[str]]:
    out = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager"],
                         capture_output=True, text=True, check=True).stdout
    groups, current = {}, None
    for line in out.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif current is not None and line.strip() and not line.strip().startswith("#"):
            current.append(line.strip())
    return groups


def expand(names, groups) -> set[str]:
    result = set()
    for name in names:
        result |= expand(groups[name], groups) if name.startswith("@") else {name}
    return result


def allowed_syscalls(filters: list[str]) -> set[str]:
    """systemd's reading of SystemCallFilter= lines: the first (an allow-list) sets, `~` lines remove."""
    groups, allowed = syscall_groups(), set()
    for line in filters:
        deny = line.startswith("~")
        names = expand(line.lstrip("~").split(), groups)
        allowed = allowed - names if deny else allowed | names
    return allowed


class ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int),
                ("datum_a", ctypes.c_uint64), ("datum_b", ctypes.c_uint64)]


SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_NE, SCMP_CMP_MASKED_EQ = 1, 7


def scmp_errno(code: int) -> int:
    return 0x00050000 | code


class Seccomp:
    """One libseccomp filter; several are stacked, the strictest answer wins (as systemd does)."""

    lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so.2", use_errno=True)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int,
                                           ctypes.c_uint, ctypes.POINTER(ArgCmp)]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]

    def __init__(self, default_action: int):
        self.ctx = self.lib.seccomp_init(default_action)

    def rule(self, action: int, name: str, *cmps: tuple[int, int, int, int]) -> None:
        number = self.lib.seccomp_syscall_resolve_name(name.encode())
        if number < 0:
            return  # a name this libseccomp does not know: systemd skips those too
        array = (ArgCmp * max(len(cmps), 1))(*[ArgCmp(*c) for c in cmps])
        result = self.lib.seccomp_rule_add_array(self.ctx, action, number, len(cmps), array)
        if result < 0:
            raise OSError(-result, f"seccomp rule for {name}: {os.strerror(-result)}")

    def load(self) -> None:
        result = self.lib.seccomp_load(self.ctx)
        if result < 0:
            raise OSError(-result, f"seccomp_load: {os.strerror(-result)}")


def load_filters(settings: dict[str, list[str]]) -> None:
    assert settings["Service.RestrictAddressFamilies"] == ["AF_UNIX"]
    families = Seccomp(SCMP_ACT_ALLOW)
    families.rule(scmp_errno(errno.EAFNOSUPPORT), "socket", (0, SCMP_CMP_NE, 1, 0))  # AF_UNIX = 1
    families.load()
    if settings.get("Service.MemoryDenyWriteExecute") == ["yes"]:
        prot_exec, prot_write, shm_exec = 4, 2, 0o100000
        wx = Seccomp(SCMP_ACT_ALLOW)
        deny = scmp_errno(errno.EPERM)
        wx.rule(deny, "mmap", (2, SCMP_CMP_MASKED_EQ, prot_exec | prot_write, prot_exec | prot_write))
        for name in ("mprotect", "pkey_mprotect"):
            wx.rule(deny, name, (2, SCMP_CMP_MASKED_EQ, prot_exec, prot_exec))
        wx.rule(deny, "shmat", (2, SCMP_CMP_MASKED_EQ, shm_exec, shm_exec))
        wx.load()
    # The allow-list goes last, as in systemd: it may forbid loading further filters.
    allow = Seccomp(scmp_errno(errno.EPERM))
    for name in sorted(allowed_syscalls(settings["Service.SystemCallFilter"])):
        allow.rule(SCMP_ACT_ALLOW, name)
    allow.load()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unit", required=True)
    parser.add_argument("--writable", action="append", default=[])
    parser.add_argument("--bind", action="append", default=[])
    parser.add_argument("--user", default="65534:65534")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    settings = unit_settings(pathlib.Path(args.unit))
    uid, gid = (int(x) for x in args.user.split(":"))
    writable = [os.path.realpath(p) for p in args.writable]
    program = os.path.realpath(args.command[0])

    check(libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS), "unshare")
    binds = [tuple(spec.split(":", 1)) for spec in args.bind]
    build_mounts(writable, binds, [os.path.dirname(program)])
    for cap in range(64):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    os.umask(int(settings["Service.UMask"][0], 8))
    load_filters(settings)
    os.execv(program, [program] + args.command[1:])


if __name__ == "__main__":
    sys.path.insert(0, str(pathlib.Path(__file__).parent))
    main()
