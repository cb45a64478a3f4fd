"""Tests for arena.sandbox.limits: each layer measured in a real child process.

Every attack runs in a fresh ``python -c`` that imports what it needs, calls
confine() and then tries the forbidden thing; the test asserts what failed
and how. A test skips only when detect() says its layer is missing here.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from arena.sandbox import limits as L
from arena.sandbox.errors import LimitsError
from arena.sandbox.limits import Capabilities, Limits
from arena.sandbox.processes import group_members
from support.processes import wait_for

ROOT = str(Path(__file__).resolve().parents[2])
LINUX = sys.platform.startswith("linux")
CAPS = L.detect()
ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0
ISOLATION = ("namespaces", "landlock", "seccomp", "drop_caps")


def needs(*layers: str):
    """Skip unless every named layer works on this machine."""
    missing = [n for n in layers if not CAPS.available(n)]
    reason = "; ".join(f"{n}: {CAPS.get(n).detail}" for n in missing)
    return pytest.mark.skipif(bool(missing), reason=f"layer unavailable here: {reason}")


def landlock_abi() -> int:
    from arena.sandbox import landlock

    return landlock.abi_version() if CAPS.available("landlock") else 0


BOT = """
import errno, json, os, signal, socket, subprocess, sys, threading
sys.path.insert(0, {root!r})
from arena.sandbox.limits import Capabilities, Limits, confine
cfg = json.loads(sys.stdin.read())
report = confine(Limits.from_dict(cfg["limits"]), writable_dir=cfg["writable"],
                 readable=cfg.get("readable"), caps=Capabilities.from_dict(cfg["caps"]))

def attack(arg):
{body}

try:
    outcome = {{"ok": True, "value": attack(cfg["arg"])}}
except BaseException as e:
    outcome = {{"ok": False, "error": type(e).__name__,
               "errno": errno.errorcode.get(getattr(e, "errno", None) or 0)}}
print(json.dumps({{"report": report.to_dict(), **outcome}}), flush=True)
"""


def run_bot(tmp_path: Path, body: str, *, limits: Limits = Limits(), arg=None,
            timeout: float = 60, writable: Path | None = None,
            readable: list[str] | None = None) -> dict:
    """Run body as attack(arg) in a confined child; its JSON outcome."""
    writable = writable or tmp_path / "writable"
    writable.mkdir(exist_ok=True)
    script = BOT.format(root=ROOT, body=textwrap.indent(textwrap.dedent(body), "    "))
    cfg = {"limits": limits.to_dict(), "writable": str(writable),
           "caps": CAPS.to_dict(), "arg": arg, "readable": readable}
    proc = subprocess.run([sys.executable, "-c", script], check=False, input=json.dumps(cfg).encode(),
                          capture_output=True, timeout=timeout)
    lines = proc.stdout.decode().strip().splitlines()
    assert lines, f"bot printed nothing (exit {proc.returncode}): {proc.stderr.decode()}"
    out = json.loads(lines[-1])
    out["returncode"] = proc.returncode
    failed = [s for s in out["report"]["steps"] if s["status"] == "failed"]
    assert not failed, failed
    return out


def only(*layers: str) -> Limits:
    """Limits with every isolation layer but the named ones disabled."""
    return Limits(disable=frozenset(set(ISOLATION) - set(layers)))


def applied(out: dict) -> set[str]:
    return {s["name"] for s in out["report"]["steps"] if s["status"] == "applied"}


@pytest.fixture
def server():
    """A loopback TCP listener the bots try to reach (bounded, test-local)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(4)
    sock.setblocking(False)  # a bot's connect, had it worked, is queued before the bot exits
    yield sock
    sock.close()


def nobody_connected(sock: socket.socket) -> bool:
    try:
        sock.accept()[0].close()
    except BlockingIOError:
        return True
    return False


@pytest.fixture
def sleeper():
    """An innocent process the bots try to kill."""
    proc = subprocess.Popen(["sleep", "60"])
    yield proc
    proc.kill()
    proc.wait()


# Limits, the value object ----------------------------------------------------

def test_limits_defaults_and_round_trip():
    """Defaults are the documented ones; to_dict/from_dict round-trip."""
    limits = Limits()
    assert (limits.memory_mb, limits.cpu_seconds, limits.open_files, limits.file_size_mb) \
        == (1024, 600, 64, 1)
    custom = Limits(memory_mb=None, processes=8, run_as=65534, disable={"seccomp"})
    assert Limits.from_dict(json.loads(json.dumps(custom.to_dict()))) == custom
    assert custom.disable == frozenset({"seccomp"})


@pytest.mark.parametrize("kwargs", [{"memory_mb": 0}, {"open_files": -1},
                                    {"cpu_seconds": 1.5}, {"processes": True}])
def test_limits_reject_bad_values(kwargs):
    """Non-positive or non-integer values raise LimitsError naming the limit."""
    with pytest.raises(LimitsError, match=next(iter(kwargs))):
        Limits(**kwargs)


def test_limits_reject_unknown_names():
    """Unknown keys and layer names are errors, not silently ignored."""
    with pytest.raises(LimitsError, match="memory"):
        Limits.from_dict({"memroy_mb": 5})
    with pytest.raises(LimitsError, match="secomp"):
        Limits(disable={"secomp"})
    with pytest.raises(LimitsError, match="list of layer names"):
        Limits.from_dict({"disable": "seccomp"})
    assert issubclass(LimitsError, ValueError)


# detect ----------------------------------------------------------------------

def test_detect_reports_every_layer():
    """On Linux every layer is listed with a detail; rows and lines render it."""
    if not LINUX:
        assert CAPS.warning
        return
    assert [x.name for x in CAPS.layers] == [
        "forkserver", "cgroups", "rlimit_as", "rlimit_cpu", "rlimit_nofile", "rlimit_fsize", "rlimit_core",
        "rlimit_nproc", "run_as", "dumpable", "subreaper", "namespaces", "drop_caps",
        "no_new_privs", "bwrap", "landlock", "seccomp"]
    assert all(x.detail for x in CAPS.layers)
    assert CAPS.rows()[2][:2] == ("rlimit_as", "yes")
    assert len(CAPS.lines()) >= len(CAPS.layers)
    assert L.detect() is CAPS


def test_detect_round_trips_and_leaves_harness_alone():
    """Capabilities survive to_dict/from_dict; probing did not change us."""
    from arena.sandbox import linux

    assert Capabilities.from_dict(json.loads(json.dumps(CAPS.to_dict()))) == CAPS
    if LINUX:
        assert linux.prctl(linux.PR_GET_DUMPABLE) == 1
        assert linux.prctl(linux.PR_GET_NO_NEW_PRIVS) == 0


@needs("landlock")
def test_detect_landlock_detail_names_abi():
    """The Landlock row says which ABI the kernel speaks."""
    assert CAPS.get("landlock").detail.startswith(f"Landlock ABI {landlock_abi()}")


def test_unknown_layer_is_unavailable():
    """Asking for a layer never probed answers no, with a reason."""
    assert not CAPS.available("warp_drive")
    assert CAPS.get("warp_drive").detail


# confine, the whole stack --------------------------------------------------

@needs("namespaces", "landlock", "seccomp", "rlimit_as")
def test_confine_applies_every_available_layer(tmp_path):
    """The report lists each layer in order; every available one is applied."""
    out = run_bot(tmp_path, "return os.getpid()")
    names = [s["name"] for s in out["report"]["steps"]]
    assert names == list(L.BOT_LAYERS)
    expected = {n for n in L.BOT_LAYERS if CAPS.available(n)} - {"run_as"}
    assert applied(out) == expected


@needs("seccomp")
def test_fork_fails(tmp_path):
    """os.fork is refused."""
    out = run_bot(tmp_path, "return os.fork()")
    assert (out["ok"], out["errno"]) == (False, "EPERM")


@needs("seccomp")
def test_exec_and_subprocess_fail(tmp_path):
    """Neither exec nor subprocess can start a program."""
    out = run_bot(tmp_path, "os.execv('/bin/true', ['true'])")
    assert (out["ok"], out["errno"]) == (False, "EPERM")
    out = run_bot(tmp_path, "return subprocess.run(['true']).returncode")
    assert (out["ok"], out["errno"]) == (False, "EPERM")


@needs("seccomp")
def test_threads_still_work(tmp_path):
    """Python threads are allowed (clone with CLONE_THREAD)."""
    out = run_bot(tmp_path, """
        box = []
        t = threading.Thread(target=box.append, args=(42,))
        t.start(); t.join()
        return box""")
    assert out["value"] == [42]


@needs("namespaces", "seccomp")
def test_socket_to_loopback_fails(tmp_path, server):
    """No TCP connection reaches a listener on 127.0.0.1."""
    out = run_bot(tmp_path, "socket.create_connection(('127.0.0.1', arg), timeout=2)",
                  arg=server.getsockname()[1])
    assert out["ok"] is False
    assert nobody_connected(server)


@needs("landlock")
def test_write_outside_fails_and_inside_works(tmp_path):
    """Writes land only in the writable folder."""
    outside = tmp_path / "outside.txt"
    out = run_bot(tmp_path, "open(arg, 'w').write('x')", arg=str(outside))
    assert (out["ok"], out["errno"]) == (False, "EACCES")
    assert not outside.exists()
    inside = tmp_path / "writable" / "inside.txt"
    out = run_bot(tmp_path, """
        os.makedirs(os.path.dirname(arg) + '/sub', exist_ok=True)
        return open(arg, 'w').write('kept')""", arg=str(inside))
    assert out["ok"] and inside.read_text() == "kept"


@needs("landlock")
def test_reading_files_and_late_imports_work(tmp_path):
    """Ordinary files stay readable, and modules can still be imported."""
    readme = tmp_path / "readme.txt"
    readme.write_text("hello bot")
    out = run_bot(tmp_path, """
        import email.mime.text, decimal
        return open(arg).read()""", arg=str(readme))
    assert out["value"] == "hello bot"


@needs("landlock")
def test_readable_narrows_reads_to_those_paths(tmp_path):
    """With readable given, other files are shut; Python's own imports still work."""
    shown = tmp_path / "shown"
    shown.mkdir()
    (shown / "a.txt").write_text("visible")
    out = run_bot(tmp_path, "return open(arg).read()", readable=[str(shown)],
                  arg=str(shown / "a.txt"))
    assert out["value"] == "visible"
    (tmp_path / "hidden.txt").write_text("secret")
    out = run_bot(tmp_path, "import decimal; return open(arg).read()",
                  readable=[str(shown)], arg=str(tmp_path / "hidden.txt"))
    assert (out["ok"], out["errno"]) == (False, "EACCES")


@needs("rlimit_as")
def test_allocating_10_gib_fails(tmp_path):
    """RLIMIT_AS turns a 10 GiB allocation into MemoryError."""
    out = run_bot(tmp_path, "return len(bytearray(10 << 30))")
    assert (out["ok"], out["error"]) == (False, "MemoryError")


@needs("rlimit_fsize")
def test_file_size_limit(tmp_path):
    """A file may not grow past file_size_mb, even in the writable folder."""
    out = run_bot(tmp_path, "open(arg, 'wb').write(b'x' * (2 << 20))",
                  arg=str(tmp_path / "writable" / "big"))
    assert (out["ok"], out["errno"]) == (False, "EFBIG")


@needs("rlimit_nofile")
def test_open_files_limit(tmp_path):
    """More descriptors than open_files cannot be opened."""
    out = run_bot(tmp_path, "return [open(os.devnull) for _ in range(200)] and None",
                  limits=Limits(open_files=32))
    assert (out["ok"], out["errno"]) == (False, "EMFILE")


@needs("rlimit_cpu")
def test_cpu_backstop_kills(tmp_path):
    """A bot spinning past cpu_seconds is killed by the kernel."""
    writable = tmp_path / "writable"
    writable.mkdir()
    script = BOT.format(root=ROOT, body="    while True: pass")
    cfg = {"limits": Limits(cpu_seconds=1).to_dict(), "writable": str(writable),
           "caps": CAPS.to_dict(), "arg": None}
    proc = subprocess.run([sys.executable, "-c", script], check=False, input=json.dumps(cfg).encode(),
                          capture_output=True, timeout=30)
    assert proc.returncode in (-signal.SIGXCPU, -signal.SIGKILL)


@needs("namespaces")
def test_parent_memory_and_environ_unreadable(tmp_path):
    """/proc/<parent>/mem and environ of the (root) harness cannot be read."""
    for name in ("mem", "environ"):
        out = run_bot(tmp_path, "return len(open(f'/proc/{os.getppid()}/' + arg, 'rb').read(64))",
                      arg=name)
        assert (out["ok"], out["errno"]) == (False, "EACCES"), name


@needs("seccomp")
def test_kill_parent_and_others_fails(tmp_path, sleeper):
    """Signals reach nobody but the bot itself; signal 0 probes fail too."""
    out = run_bot(tmp_path, "os.kill(os.getppid(), 0)")
    assert (out["ok"], out["errno"]) == (False, "EPERM")
    out = run_bot(tmp_path, "os.kill(arg, signal.SIGKILL)", arg=sleeper.pid)
    assert (out["ok"], out["errno"]) == (False, "EPERM")
    out = run_bot(tmp_path, "os.killpg(0, signal.SIGKILL)")
    assert out["ok"] is False
    assert sleeper.poll() is None
    out = run_bot(tmp_path, "os.kill(os.getpid(), 0); return 'self ok'")
    assert out["value"] == "self ok"


def test_confine_refuses_when_threads_run(tmp_path):
    """confine must come before any thread: otherwise it fails, applying nothing."""
    script = (f"import sys, threading, time, json; sys.path.insert(0, {ROOT!r})\n"
              "from arena.sandbox.limits import confine, Capabilities\n"
              "threading.Thread(target=time.sleep, args=(5,), daemon=True).start()\n"
              "r = confine(caps=Capabilities.from_dict(json.loads(sys.argv[1])))\n"
              "print(json.dumps([r.ok, r.failed]))")
    proc = subprocess.run([sys.executable, "-c", script, json.dumps(CAPS.to_dict())],
                          check=False, capture_output=True, timeout=30)
    if LINUX:
        assert json.loads(proc.stdout) == [False, ["confine"]]


def test_disabled_layers_are_reported_skipped(tmp_path):
    """A layer named in Limits.disable is skipped with that reason."""
    out = run_bot(tmp_path, "return 1", limits=Limits(disable={"seccomp", "landlock"}))
    steps = {s["name"]: s for s in out["report"]["steps"]}
    assert steps["seccomp"]["status"] == "skipped"
    assert "disable" in steps["landlock"]["detail"]


# Each layer on its own ------------------------------------------------------

@needs("seccomp")
def test_seccomp_alone_blocks_processes_sockets_and_signals(tmp_path, sleeper):
    """With seccomp as the only isolation layer, it alone holds the line."""
    limits = only("seccomp")
    for body in ("return os.fork()", "os.execv('/bin/true', ['true'])",
                 "return socket.socket()", "os.kill(arg, signal.SIGKILL)",
                 "return os.pidfd_open(arg)"):
        out = run_bot(tmp_path, body, limits=limits, arg=sleeper.pid)
        assert applied(out) & set(ISOLATION) == {"seccomp"}
        assert (out["ok"], out["errno"]) == (False, "EPERM"), body
    assert sleeper.poll() is None


@needs("seccomp")
def test_seccomp_keeps_hands_off_other_processes(tmp_path, sleeper):
    """A same-uid bot cannot change another process's limits, priority or CPUs."""
    limits = only("seccomp")
    for body in ("return resource.prlimit(arg, resource.RLIMIT_NOFILE, (3, 3))",
                 "return os.sched_setaffinity(arg, {0})",
                 "return os.setpriority(os.PRIO_PROCESS, arg, 19)",
                 "return os.setpriority(os.PRIO_USER, 0, 19)"):
        out = run_bot(tmp_path, "import resource\n" + body, limits=limits, arg=sleeper.pid)
        assert (out["ok"], out["errno"]) == (False, "EPERM"), body
    with open(f"/proc/{sleeper.pid}/limits") as f:
        assert "Max open files            3 " not in f.read()
    out = run_bot(tmp_path, """
        import resource
        resource.setrlimit(resource.RLIMIT_NOFILE, (16, 16))
        os.sched_setaffinity(0, os.sched_getaffinity(0))
        return resource.getrlimit(resource.RLIMIT_NOFILE)""", limits=limits)
    assert out["value"] == [16, 16]


@needs("seccomp")
def test_seccomp_blocks_ptrace(tmp_path, sleeper):
    """ptrace is refused even where the kernel would allow it."""
    out = run_bot(tmp_path, """
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.ptrace(16, arg, 0, 0) == -1:  # PTRACE_ATTACH
            raise OSError(ctypes.get_errno(), 'ptrace')
        return 'attached'""", limits=only("seccomp"), arg=sleeper.pid)
    assert (out["ok"], out["errno"]) == (False, "EPERM")


@needs("seccomp")
def test_seccomp_denies_writes_when_landlock_is_off(tmp_path):
    """Without Landlock, seccomp refuses every write-open (documented trade-off)."""
    out = run_bot(tmp_path, "open(arg, 'w')", limits=only("seccomp"),
                  arg=str(tmp_path / "elsewhere.txt"))
    assert (out["ok"], out["errno"]) == (False, "EPERM")
    out = run_bot(tmp_path, "return open(arg).read()", limits=only("seccomp"),
                  arg=__file__)
    assert out["ok"]


@needs("landlock")
def test_landlock_alone_confines_files(tmp_path):
    """Landlock alone: reads anywhere, writes only in the writable folder."""
    out = run_bot(tmp_path, "open(arg, 'a')", limits=only("landlock"), arg=__file__)
    assert (out["ok"], out["errno"]) == (False, "EACCES")
    out = run_bot(tmp_path, "return os.unlink(arg)", limits=only("landlock"),
                  arg=str(Path(__file__).resolve().parents[1] / "conftest.py"))
    assert (out["ok"], out["errno"]) == (False, "EACCES")
    out = run_bot(tmp_path, "return open(arg, 'w').write('ok')", limits=only("landlock"),
                  arg=str(tmp_path / "writable" / "f"))
    assert out["value"] == 2


@needs("landlock")
def test_landlock_alone_blocks_tcp_and_foreign_signals(tmp_path, server, sleeper):
    """ABI 4+ refuses TCP connects; ABI 6+ refuses signals to outsiders."""
    abi = landlock_abi()
    if abi < 4:
        pytest.skip(f"Landlock ABI {abi} has no network rights")
    out = run_bot(tmp_path, "socket.create_connection(('127.0.0.1', arg), timeout=2)",
                  limits=only("landlock"), arg=server.getsockname()[1])
    assert (out["ok"], out["errno"]) == (False, "EACCES")
    assert nobody_connected(server)
    if abi >= 6:
        out = run_bot(tmp_path, "os.kill(arg, signal.SIGKILL)", limits=only("landlock"),
                      arg=sleeper.pid)
        assert (out["ok"], out["errno"]) == (False, "EPERM")
        assert sleeper.poll() is None


@needs("namespaces")
def test_network_namespace_alone_has_no_route(tmp_path, server):
    """In the new network namespace not even loopback is reachable."""
    out = run_bot(tmp_path, "socket.create_connection(('127.0.0.1', arg), timeout=2)",
                  limits=only("namespaces"), arg=server.getsockname()[1])
    assert out["ok"] is False
    assert out["errno"] in ("ENETUNREACH", "ECONNREFUSED")
    assert nobody_connected(server)


@needs("namespaces")
def test_user_namespace_alone_guards_parent_memory(tmp_path):
    """Even as root, a bot in its own user namespace cannot read our memory."""
    out = run_bot(tmp_path, "return len(open(f'/proc/{os.getppid()}/mem', 'rb').read(1))",
                  limits=only("namespaces"))
    assert (out["ok"], out["errno"]) == (False, "EACCES")


@pytest.mark.skipif(not ROOT_USER, reason="RLIMIT_NPROC's uid 0 exemption needs root")
@needs("namespaces", "rlimit_nproc")
def test_nproc_is_not_enforced_for_root(tmp_path):
    """Documents the kernel fact: uid 0 is exempt, even in a user namespace."""
    out = run_bot(tmp_path, """
        pid = os.fork()
        if pid == 0:
            os._exit(0)
        os.waitpid(pid, 0)
        return 'forked'""", limits=Limits(processes=1, disable={"seccomp"}))
    assert out["value"] == "forked"


@pytest.mark.skipif(not ROOT_USER, reason="run_as needs a root harness")
@needs("namespaces", "rlimit_nproc", "run_as")
def test_run_as_makes_nproc_count(tmp_path):
    """With run_as, RLIMIT_NPROC holds, and the writable folder is still writable."""
    # the folder's parents must be searchable by the run_as uid: /tmp is, pytest's not
    shared = Path(tempfile.mkdtemp(prefix="arena-run-as-"))
    try:
        _check_run_as(tmp_path, shared)
    finally:
        shutil.rmtree(shared)


def _check_run_as(tmp_path: Path, writable: Path) -> None:
    out = run_bot(tmp_path, """
        open(arg, 'w').write('mine')
        try:
            os.fork()
        except OSError as e:
            return errno.errorcode[e.errno]
        os._exit(0)""", limits=Limits(processes=1, run_as=65534, disable={"seccomp"}),
        arg=str(writable / "f"), writable=writable)
    assert out["value"] == "EAGAIN"
    assert "run_as" in applied(out)
    assert (writable / "f").read_text() == "mine"


# The harness side -----------------------------------------------------------

HARNESS = """
import json, os, subprocess, sys, time
sys.path.insert(0, {root!r})
from arena.sandbox import linux
from arena.sandbox.limits import harden_harness, kill_group, reap_orphans
from arena.sandbox.processes import children, group_members
{body}
"""


def run_harness(body: str, *args: str, timeout: float = 60) -> dict:
    """Run body in an intermediate "harness" process; the JSON it prints last."""
    script = HARNESS.format(root=ROOT, body=textwrap.dedent(body))
    proc = subprocess.run([sys.executable, "-c", script, *args], check=False, capture_output=True,
                          timeout=timeout)
    lines = proc.stdout.decode().strip().splitlines()
    assert lines, proc.stderr.decode()
    return json.loads(lines[-1])


@needs("dumpable", "subreaper")
def test_harden_harness_applies_both():
    """harden_harness sets dumpable 0 and the subreaper flag on the harness."""
    out = run_harness("""
        report = harden_harness()
        print(json.dumps([report.applied, linux.prctl(linux.PR_GET_DUMPABLE)]))""")
    assert out == [["dumpable", "subreaper"], 0]


@pytest.mark.skipif(not ROOT_USER, reason="needs root to act as two same-uid users")
@needs("dumpable")
@pytest.mark.parametrize("harden", [True, False])
def test_dumpable_guards_against_same_uid_readers(harden):
    """A same-uid, capability-free child reads /proc/<harness>/mem only if dumpable."""
    out = run_harness("""
        linux.switch_user(65534, 65534)   # both now an ordinary, equal user
        if sys.argv[1] == "1":
            harden_harness()
        else:
            linux.set_dumpable(True)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                with open(f"/proc/{os.getppid()}/environ", "rb") as f:
                    os.write(w, b"read" if f.read(1) else b"empty")
            except OSError as e:
                os.write(w, str(e.errno).encode())
            os._exit(0)
        os.waitpid(pid, 0)
        print(json.dumps(os.read(r, 100).decode()))""", "1" if harden else "0")
    assert out == ("13" if harden else "read")


@needs("namespaces", "landlock", "seccomp", "dumpable")
def test_confined_bot_cannot_read_hardened_harness(tmp_path):
    """The whole stack under a hardened harness: mem, environ, kill all refused."""
    writable = tmp_path / "writable"
    writable.mkdir()
    body = """
        out = []
        for name in ("mem", "environ"):
            try:
                open(f"/proc/{os.getppid()}/{name}", "rb").read(1)
                out.append("read")
            except OSError as e:
                out.append(errno.errorcode[e.errno])
        try:
            os.kill(os.getppid(), signal.SIGKILL)
            out.append("killed")
        except OSError as e:
            out.append(errno.errorcode[e.errno])
        return out"""
    bot = BOT.format(root=ROOT, body=textwrap.indent(textwrap.dedent(body), "    "))
    cfg = json.dumps({"limits": Limits().to_dict(), "writable": str(writable),
                      "caps": CAPS.to_dict(), "arg": None})
    out = run_harness("""
        harden_harness()
        p = subprocess.run([sys.executable, "-c", sys.argv[1]], input=sys.argv[2].encode(),
                           capture_output=True, timeout=30)
        print(p.stdout.decode().strip().splitlines()[-1])""", bot, cfg)
    assert out["value"] == ["EACCES", "EACCES", "EPERM"]


def test_kill_group_kills_and_reaps_the_whole_group():
    """kill_group SIGKILLs every member of the bot's group; the leader is reaped."""
    proc = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"],
                            start_new_session=True)
    assert wait_for(lambda: len(group_members(proc.pid)) == 3)  # the shell and its two sleepers
    assert L.kill_group(proc) == -signal.SIGKILL
    assert proc.returncode == -signal.SIGKILL
    # the sleepers were re-parented to init (no subreaper here): dead, maybe unreaped
    assert all(state == "Z" for _, state, _ in group_members(proc.pid))


def test_kill_group_on_a_gone_group_is_harmless():
    """Killing an already reaped bot answers None and raises nothing."""
    proc = subprocess.Popen(["true"], start_new_session=True)
    proc.wait()
    assert L.kill_group(proc.pid, timeout=0.1) is None


@needs("subreaper")
def test_subreaper_reaps_orphans_and_group_leftovers():
    """Orphans re-parented to the harness are found, killed and reaped."""
    out = run_harness("""
        harden_harness()
        # an orphan: its parent exits at once, leaving a sleeper behind (re-parented to us
        # before the parent's exit is reported)
        subprocess.run(["sh", "-c", "sleep 60 & exit 0"], start_new_session=True)
        orphans = children()
        reaped = reap_orphans(keep=())
        # a group whose leader dies with members still running
        p = subprocess.Popen(["sh", "-c", "sleep 60 & sleep 60 & wait"],
                             start_new_session=True)
        deadline = time.monotonic() + 30
        while len(group_members(p.pid)) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
        status = kill_group(p.pid)
        print(json.dumps([len(orphans), sorted(reaped) == sorted(orphans), status,
                          children()]))""")
    assert out == [1, True, -9, []]
