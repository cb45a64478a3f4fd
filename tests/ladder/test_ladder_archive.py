"""Submissions measured before they are unpacked (arena.ladder.archive), and installs held to the disk quota.

Each hostile wheel is hand-built (support.archives) from a minimal wheel that
installs, with one hostile member or one lie in its central directory, so
that each test shows one limit at work. Every refusal is one line, and
leaves nothing in the ladder's plugin folder.
"""

from __future__ import annotations

import os
import random
import stat
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from arena.ladder.archive import DEFAULT_LIMITS, OWN_FILES, ArchiveLimits, Quota, check_wheel, check_zip
from arena.ladder.errors import LadderError, SubmissionError
from arena.ladder.install import install_submission, read_package
from support.archives import DIST_INFO, NAME, hand_wheel, lie, member
from support.ladder import bot_folder

MiB = 1 << 20


def _refusal(call) -> str:
    """The one line a refused call raises."""
    with pytest.raises(SubmissionError) as caught:
        call()
    text = str(caught.value)
    assert "\n" not in text and text.startswith(("refused", "cannot install")), text
    return text


def _install(path: Path, tmp_path: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> Path:
    target = tmp_path / "L" / "plugins" / f"{NAME}-v1"
    install_submission(path, target, limits)
    return target


def _refused_install(path: Path, tmp_path: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> str:
    """The refusal of installing ``path``, checked to have left nothing behind (no entry, no partial folder)."""
    text = _refusal(lambda: _install(path, tmp_path, limits))
    plugins = tmp_path / "L" / "plugins"
    assert not plugins.exists() or list(plugins.iterdir()) == []
    return text


def _random(size: int) -> bytes:
    return random.Random(size).randbytes(size)


def test_a_pip_built_wheel_passes_and_installs(wheels, tmp_path):
    """A real bot's wheel (pip wheel of a scaffolded bot) is read and installed under the default limits."""
    package = read_package(wheels["v1"])
    target = _install(wheels["v1"], tmp_path)
    assert package.plugin == "lbot" and (target / "lbot" / "__init__.py").is_file()
    assert any(p.name.endswith(".dist-info") for p in target.iterdir())


def test_the_hand_built_wheel_installs_when_nothing_in_it_is_hostile(tmp_path):
    """The base of every hostile wheel below installs, weights-sized data included."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/weights.npy", _random(3 * MiB))])
    assert read_package(wheel).plugin == NAME
    target = _install(wheel, tmp_path)
    assert (target / NAME / "weights.npy").stat().st_size == 3 * MiB
    assert (target / DIST_INFO / "RECORD").is_file()


def test_a_zip_bomb_is_refused_from_its_header(tmp_path):
    """300 MiB of zeros in a 300 KB wheel: refused by its declared size before a byte is inflated."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/zeros.bin", 300 * MiB)])
    assert wheel.stat().st_size < MiB
    expected = f"refused: {wheel.name} unpacks to 300.0 MiB; the ladder takes at most 64 MiB unpacked"
    assert _refusal(lambda: read_package(wheel)) == expected
    assert _refused_install(wheel, tmp_path) == expected


def test_a_member_that_expands_past_the_ratio_is_refused(tmp_path):
    """2 MiB of zeros (about 1000:1) is within the total but over the ratio for a member over 1 MiB."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/zeros.bin", 2 * MiB)])
    text = _refused_install(wheel, tmp_path)
    assert f"member '{NAME}/zeros.bin' expands" in text and "at most 100:1 for a member over 1 MiB" in text


def test_a_small_member_may_compress_well(tmp_path):
    """The ratio is judged only above its size: a small file of zeros is fine."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/pad.bin", 512 << 10)])
    assert (_install(wheel, tmp_path) / NAME / "pad.bin").stat().st_size == 512 << 10


def test_too_many_members_are_refused_from_the_end_record(tmp_path):
    """A wheel listing more members than the limit is refused by the count in its end record."""
    many = [member(f"{NAME}/m{i}.py", b"") for i in range(DEFAULT_LIMITS.max_members)]
    wheel = hand_wheel(tmp_path / "w", many)
    text = _refused_install(wheel, tmp_path)
    assert f"lists {DEFAULT_LIMITS.max_members + 5} members; the ladder takes at most 2000" in text


def test_an_oversized_central_directory_is_refused_before_it_is_parsed(tmp_path):
    """Few members with huge extra fields: the central directory's size is refused from the end record."""
    def padded(z: zipfile.ZipFile) -> None:
        for info in z.filelist:
            info.extra = struct.pack("<HH", 0xCAFE, 60_000) + bytes(60_000)  # one unknown extra field, 60 KB
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/m{i}.py") for i in range(4)], then=padded)
    text = _refused_install(wheel, tmp_path, ArchiveLimits(max_members=100))
    assert "has a central directory of" in text and "at most 100 KiB" in text


def test_too_many_members_are_refused_from_the_central_directory(tmp_path):
    """Past the end record, the members zipfile lists are counted too."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/m{i}.py") for i in range(10)])
    with zipfile.ZipFile(wheel) as z:
        text = _refusal(lambda: check_zip(z, wheel.name, ArchiveLimits(max_members=10)))
    assert text == f"refused: {wheel.name} has 15 members; the ladder takes at most 10"


@pytest.mark.parametrize("mode, kind", [(stat.S_IFLNK | 0o777, "a symbolic link"),
                                        (stat.S_IFIFO | 0o644, "a named pipe"),
                                        (stat.S_IFCHR | 0o644, "a character device"),
                                        (stat.S_IFSOCK | 0o644, "a socket"),
                                        (stat.S_IFDIR | 0o755, "a folder")])
def test_a_link_or_special_member_is_refused(tmp_path, mode, kind):
    """A member whose Unix mode says link, pipe, device, socket (or a folder with a file's name) is refused."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/odd", b"/etc/passwd", mode=mode)])
    assert _refused_install(wheel, tmp_path) == (f"refused: {wheel.name} member '{NAME}/odd' is {kind}; a wheel "
                                                 f"must hold only regular files and folders")


@pytest.mark.parametrize("name, why", [("../evil.py", "climbs out"), (f"{NAME}/../../evil.py", "climbs out"),
                                       ("/etc/evil.py", "is an absolute path"),
                                       (f"{NAME}//evil.py", "empty or '.' part"),
                                       (f"{NAME}/./evil.py", "empty or '.' part")])
def test_a_path_that_leaves_the_folder_is_refused(tmp_path, name, why):
    """'..' parts, absolute paths, empty and '.' parts are refused by name."""
    wheel = hand_wheel(tmp_path / "w", [member(name, b"x = 1\n")])
    text = _refused_install(wheel, tmp_path)
    assert f"member {name!r}" in text and why in text


@pytest.mark.parametrize("name, shown", [(f"{NAME}\\..\\evil.py", "U+005C REVERSE SOLIDUS"),
                                         (f"{NAME}/a\x1b[2Jb.py", "U+001B a control character"),
                                         (f"{NAME}/\u202eyp.txt", "U+202E RIGHT-TO-LEFT OVERRIDE")])
def test_a_backslash_or_control_character_in_a_name_is_refused(tmp_path, name, shown):
    """Backslashes, escape sequences and format characters (a right-to-left override) in a name are refused.
    (A NUL never arrives: zipfile cuts a name at its first NUL, reading as writing.)"""
    wheel = hand_wheel(tmp_path / "w", [member(name, b"x = 1\n")])
    text = _refused_install(wheel, tmp_path)
    assert shown in text and "no backslash, control or format character" in text
    assert not any(ord(c) < 32 or c == "\u202e" for c in text)


def test_an_over_long_path_is_refused(tmp_path):
    """A member path over 200 bytes of UTF-8 is refused (its name shown cut short)."""
    name = f"{NAME}/" + "\u00e9" * 100 + ".py"  # 100 two-byte letters
    wheel = hand_wheel(tmp_path / "w", [member(name, b"")])
    text = _refused_install(wheel, tmp_path)
    assert "is a path of 208 bytes; the ladder takes at most 200" in text and len(text) < 250


def test_a_too_deep_path_is_refused(tmp_path):
    """A member 17 folders deep is refused."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/" + "d/" * 15 + "x.py", b"")])
    assert "is 17 folders deep; the ladder takes at most 16" in _refused_install(wheel, tmp_path)


def test_a_duplicate_name_is_refused(tmp_path):
    """The same name twice (which zipfile writes with only a warning) is refused."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/a.py", b"1"), member(f"{NAME}/a.py", b"2")])
    assert f"has the member '{NAME}/a.py' twice" in _refused_install(wheel, tmp_path)


@pytest.mark.parametrize("other", ["A.py", "\uff41.py"])
def test_names_that_differ_only_by_case_or_width_are_refused(tmp_path, other):
    """'a.py' and 'A.py' (or fullwidth 'ａ.py') are one name once folded, so refused."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/a.py", b"1"), member(f"{NAME}/{other}", b"2")])
    assert f"and '{NAME}/a.py', one name to a case-blind disk" in _refused_install(wheel, tmp_path)


def test_an_encrypted_member_is_refused(tmp_path):
    """A member flagged encrypted is refused (zipfile could not read it without a password)."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/secret.py", b"x = 1\n")],
                       then=lie(f"{NAME}/secret.py", flag_bits=0x1))
    assert f"member '{NAME}/secret.py' is encrypted" in _refused_install(wheel, tmp_path)


def test_an_unknown_compression_method_is_refused(tmp_path):
    """A member compressed other than stored or deflated is refused (not left to fail inside zipfile)."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/odd.py", b"x = 1\n")],
                       then=lie(f"{NAME}/odd.py", compress_type=99))
    assert "is compressed with method 99" in _refused_install(wheel, tmp_path)


def test_a_header_that_understates_a_member_gets_no_more_than_it_says(tmp_path):
    """10 MiB of zeros declared as 100 bytes, with the CRC of those 100: Python's zipfile inflates exactly 100
    bytes, so the declared sizes the checks add up bound what is written."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/big.bin", 10 * MiB)],
                       then=lie(f"{NAME}/big.bin", file_size=100, CRC=zlib.crc32(bytes(100))))
    assert (_install(wheel, tmp_path) / NAME / "big.bin").stat().st_size == 100


def test_a_header_that_understates_a_member_and_keeps_its_crc_is_refused(tmp_path):
    """The same lie with the true CRC: zipfile stops at 100 bytes and fails the CRC; the install is undone."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/big.bin", 10 * MiB)],
                       then=lie(f"{NAME}/big.bin", file_size=100))
    assert "Bad CRC-32" in _refused_install(wheel, tmp_path)


def test_past_the_disk_quota_the_install_stops_and_its_partial_folder_is_removed(tmp_path):
    """Bytes are counted as they are written: past the quota the install stops, and nothing of it stays."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/a.bin", _random(700 << 10)),
                                        member(f"{NAME}/b.bin", _random(700 << 10))])
    text = _refused_install(wheel, tmp_path, ArchiveLimits(disk_quota=MiB))
    assert text == (f"refused: {wheel.name} writes more than its disk quota of 1 MiB (stopped at '{NAME}/b.bin'); "
                    f"the install is undone")


def test_scripts_the_installer_writes_count_against_the_quota(tmp_path):
    """Console scripts, which no member holds, are files written all the same: past the count, refused."""
    wheel = hand_wheel(tmp_path / "w", scripts=40)
    text = _refused_install(wheel, tmp_path, ArchiveLimits(max_members=20))
    assert f"writes more than {20 + OWN_FILES} files (stopped at 'hbot-" in text


def test_the_quota_refuses_before_the_byte_that_crosses_it():
    """Quota.wrote raises on the count that passes the quota, so the caller never writes it."""
    quota = Quota("w.whl", ArchiveLimits(disk_quota=10))
    quota.wrote(10, "a")
    with pytest.raises(SubmissionError, match="more than its disk quota of 10 bytes"):
        quota.wrote(1, "b")


def test_an_install_does_not_start_without_room_on_the_disk(tmp_path):
    """A quota larger than the disk's free space refuses the install before anything is made."""
    wheel = hand_wheel(tmp_path / "w")
    text = _refused_install(wheel, tmp_path, ArchiveLimits(disk_quota=1 << 60))
    assert text.startswith("refused for now: the ladder's disk has ") and "free; an install needs its quota" in text
    assert not (tmp_path / "L").exists()


def test_a_wheel_over_the_upload_cap_is_refused(tmp_path):
    """The wheel as sent is measured first."""
    wheel = hand_wheel(tmp_path / "w", [member(f"{NAME}/w.bin", _random(200 << 10))])
    assert "the ladder takes at most 100 KiB as sent" in _refusal(
        lambda: check_wheel(wheel, ArchiveLimits(max_upload=100 << 10)))


def test_limits_must_be_positive_whole_numbers():
    """A ladder's own limits are checked when made."""
    with pytest.raises(LadderError, match="max_members=0"):
        ArchiveLimits(max_members=0)


def _folder(tmp_path: Path) -> Path:
    return bot_folder(tmp_path, NAME)


def test_a_bot_folder_installs_its_regular_files(tmp_path):
    """A scaffolded bot folder is copied (package and a .dist-info), its __pycache__ left out."""
    folder = _folder(tmp_path)
    (folder / NAME / "__pycache__").mkdir()
    (folder / NAME / "__pycache__" / "x.pyc").write_bytes(b"\0")
    target = _install(folder, tmp_path)
    assert (target / NAME / "__init__.py").is_file() and not (target / NAME / "__pycache__").exists()


def test_a_symlink_in_a_bot_folder_is_refused_not_followed(tmp_path):
    """A link in the package to a file the organiser can read is refused; its target is never copied."""
    secret = tmp_path / "secret.txt"
    secret.write_text("the organiser's secret")
    folder = _folder(tmp_path)
    (folder / NAME / "data.txt").symlink_to(secret)
    text = _refused_install(folder, tmp_path)
    assert f"'{NAME}/data.txt' is a symbolic link" in text and "not followed" in text


def test_a_symlinked_package_folder_is_refused(tmp_path):
    """The package folder itself a link (to anywhere) is refused."""
    folder = _folder(tmp_path)
    real = tmp_path / "elsewhere"
    (folder / NAME).rename(real)
    (folder / NAME).symlink_to(real, target_is_directory=True)
    assert f"'{NAME}' is a symbolic link" in _refused_install(folder, tmp_path)


def test_a_named_pipe_in_a_bot_folder_is_refused(tmp_path):
    """A special file (a FIFO, which would block a copy) is refused."""
    folder = _folder(tmp_path)
    os.mkfifo(folder / NAME / "pipe")
    assert f"'{NAME}/pipe' is a named pipe" in _refused_install(folder, tmp_path)


def test_too_many_files_in_a_bot_folder_are_refused(tmp_path):
    """The walk stops, refusing, past the member limit."""
    folder = _folder(tmp_path)
    for i in range(20):
        (folder / NAME / f"m{i}.py").write_text("")
    assert "has more than 10 files and folders" in _refused_install(folder, tmp_path, ArchiveLimits(max_members=10))


def test_too_much_in_a_bot_folder_is_refused(tmp_path):
    """A package holding more than the unpacked limit is refused before it is copied."""
    folder = _folder(tmp_path)
    (folder / NAME / "big.bin").write_bytes(_random(100 << 10))
    text = _refused_install(folder, tmp_path, ArchiveLimits(max_unpacked=64 << 10))
    assert "its package holds 10" in text and "at most 64 KiB" in text


def test_an_over_long_path_in_a_bot_folder_is_refused(tmp_path):
    """A file path over the limit inside the package is refused."""
    folder = _folder(tmp_path)
    deep = folder / NAME / ("d" * 120) / ("e" * 120)
    deep.mkdir(parents=True)
    (deep / "x.py").write_text("")
    assert "bytes; the ladder takes at most 200" in _refused_install(folder, tmp_path)
