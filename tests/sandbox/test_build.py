"""A program bot's build step in its own sandbox: it builds, and what a hostile build tries is held.

bubblewrap is required, not skipped for: .ci/run installs it, and a skip would pass CI silently.
"""

from __future__ import annotations

import os
import socket
import tarfile
import threading

import pytest

from arena.sandbox.build import BuildLimits, run_build, unavailable

C_BOT = "int main(void) { return 0; }\n"
QUICK = BuildLimits(wall_s=20, tasks=64, memory_mb=512, folder_mb=4, tmp_mb=4)


@pytest.fixture
def source(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "bot.c").write_text(C_BOT)
    (folder / "bot.toml").write_text('name = "b"\ncommand = ["./b"]\n')
    return folder


def _build(tmp_path, source, argv, limits=QUICK, max_output=1 << 20):
    out = tmp_path / f"out-{len(list(tmp_path.iterdir()))}.tar"
    return run_build(str(source), argv, str(out), max_output, limits), out


def _sh(script):
    return ["sh", "-c", script]


def _alive(token: str) -> list[int]:
    """Processes whose command line holds ``token``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if token.encode() in f.read():
                    found.append(int(pid))
        except OSError:
            pass
    return found


def test_bubblewrap_is_here():
    assert unavailable() is None, unavailable()


def test_a_c_bot_is_built_and_comes_back_as_a_tar_of_its_folder(tmp_path, source):
    result, out = _build(tmp_path, source, ["gcc", "-O2", "-o", "b", "bot.c"])
    assert result.ok, result.detail
    assert result.detail.startswith("built in ") and "seccomp" in result.confinement
    with tarfile.open(out) as tar:
        members = {m.name: m for m in tar}
    assert {"./bot.c", "./bot.toml", "./b"} <= set(members)
    assert members["./b"].isreg() and members["./b"].mode & 0o100
    assert (source / "b").exists() is False  # the submission's own folder is read-only to the build


def test_a_failing_build_says_why_in_one_line_with_its_output_kept(tmp_path, source):
    result, out = _build(tmp_path, source, _sh("echo 'bot.c:1: error: no'; exit 2"))
    assert not result.ok
    assert result.detail == "the build \"sh -c echo 'bot.c:1: error: no'; exit 2\" failed: bot.c:1: error: no"
    assert "bot.c:1: error: no" in result.log
    assert out.stat().st_size == 0


def test_a_build_past_its_wall_limit_is_stopped_and_leaves_no_process(tmp_path, source):
    token = f"arena-build-test-{os.getpid()}-wall"
    result, _ = _build(tmp_path, source, _sh(f"sh -c 'sleep 600; :' {token}"),
                       BuildLimits(wall_s=1.5, folder_mb=4, tmp_mb=4))
    assert (result.ok, result.detail) == (False, "the build did not finish within 1.5 s (stopped)")
    assert result.seconds < 30
    assert _alive(token) == []


def test_what_a_build_starts_in_the_background_dies_with_it(tmp_path, source):
    token = f"arena-build-test-{os.getpid()}-background"
    script = f"sh -c 'sleep 600; :' {token} & echo started"
    result, _ = _build(tmp_path, source, _sh(script))
    assert result.ok, result.detail
    assert "started" in result.log
    assert _alive(token) == []


def test_a_build_cannot_fill_the_disk(tmp_path, source):
    result, _ = _build(tmp_path, source, _sh("head -c 64000000 /dev/zero > big"))
    assert not result.ok and "No space left on device" in result.detail
    result, _ = _build(tmp_path, source, _sh("head -c 64000000 /dev/zero > /tmp/big"))
    assert not result.ok and "No space left on device" in result.detail


def test_a_build_larger_than_the_output_cap_is_refused(tmp_path, source):
    result, _ = _build(tmp_path, source, _sh("head -c 3000000 /dev/urandom > big"),
                       BuildLimits(folder_mb=8, tmp_mb=4), max_output=1 << 20)
    assert (result.ok, result.detail) == (False, "the built folder is over 1024 KiB as an archive (stopped)")


def test_a_build_has_no_network_not_even_the_hosts_loopback(tmp_path, source):
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    reached = []
    server.settimeout(10)
    waiter = threading.Thread(target=lambda: reached.append(_accept(server)), daemon=True)
    waiter.start()
    script = (f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3)\" "
              f"&& echo CONNECTED; python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), timeout=3)\" "
              f"&& echo OUTSIDE; exit 0")
    result, _ = _build(tmp_path, source, _sh(script))
    server.close()
    waiter.join(15)
    assert result.ok, result.detail
    assert "CONNECTED" not in result.log and "OUTSIDE" not in result.log
    assert "Connection refused" in result.log and "Network is unreachable" in result.log
    assert reached == [None]


def _accept(server):
    try:
        conn, _ = server.accept()
    except OSError:
        return None
    conn.close()
    return "connected"


def test_a_build_sees_no_private_file_and_writes_nothing_outside_its_folders(tmp_path, source):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read")
    script = (f"cat {secret}; ls /root /home {source}; cat /etc/shadow; touch /usr/x; id -u; "
              f"echo $HOME; hostname; exit 0")
    result, _ = _build(tmp_path, source, _sh(script))
    assert result.ok, result.detail
    log = result.log
    assert "do not read" not in log
    for missing in (str(secret), "/root", "/home", str(source), "/etc/shadow"):
        assert f"{missing}: No such file or directory" in log or f"'{missing}': No such file or directory" in log
    assert "cannot touch '/usr/x': Read-only file system" in log
    assert "65534" in log.splitlines() and "build" in log.splitlines()
    assert not (source / "x").exists()


def test_a_build_cannot_write_the_machine_s_sysctls(tmp_path, source):
    """As uid 0 outside its namespaces (a root harness), a build would own /proc/sys without a capability
    (core_pattern: a program run as root on the host); it runs as nobody there."""
    files = ("/proc/sys/kernel/core_pattern", "/proc/sys/vm/drop_caches", "/proc/sys/fs/suid_dumpable")
    script = "".join(f"[ -w {f} ] && echo WRITABLE {f}; " for f in files) + "ls /proc/sys/kernel/core_pattern; exit 0"
    result, _ = _build(tmp_path, source, _sh(script))
    assert result.ok and "/proc/sys/kernel/core_pattern" in result.log, result.log
    assert "WRITABLE" not in result.log, result.log


def test_a_build_cannot_make_namespaces_trace_or_fork_without_bound(tmp_path, source):
    script = "unshare -U true || echo NO-USERNS; unshare -n true || echo NO-NETNS; exit 0"
    result, _ = _build(tmp_path, source, _sh(script))
    assert result.ok and "NO-USERNS" in result.log and "NO-NETNS" in result.log, result.log
    bomb = "i=0; while [ $i -lt 200 ]; do sleep 30 & i=$((i+1)); done; wait"
    result, _ = _build(tmp_path, source, _sh(bomb), BuildLimits(wall_s=20, tasks=32, folder_mb=4, tmp_mb=4))
    assert not result.ok and "fork" in result.detail.lower(), result.detail


def test_limits_are_checked():
    with pytest.raises(ValueError, match="build limits must be positive numbers"):
        BuildLimits(wall_s=0)
