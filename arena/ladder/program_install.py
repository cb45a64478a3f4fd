"""A program bot's submission (docs/protocol.md): a folder or a .zip holding ``bot.toml``, staged, built, installed.

Nothing of it runs in the harness. ``bot.toml`` is read as data (at most
:data:`arena.plugins.program_bots.MAX_BOT_TOML` bytes). The files are staged
under the entry's disk quota: a folder walked without following links, a zip
measured from its central directory before a member is read
(:mod:`arena.ladder.archive`), then written as regular files and folders
only. If ``bot.toml`` names a ``build``, it runs in the build sandbox
(:mod:`arena.sandbox.build`) on a copy of the staged files, and what it leaves
comes back as one tar file, read here as untrusted data: only regular files
and folders (a link, a device, an absolute or climbing path is refused), every
name through the same census as a zip's, every byte and file under the quota.
The entry's folder is the built one (without a build, the staged one), renamed
into place whole; a refused submission leaves nothing behind.

A zip holds ``bot.toml`` at its root or in its one top-level folder (as
``zip -r my-bot.zip my-bot/`` makes it).
"""

from __future__ import annotations

import os
import shutil
import stat
import tarfile
import zipfile
from pathlib import Path

from arena.bots.errors import PluginError
from arena.ladder.archive import (DEFAULT_LIMITS, ArchiveLimits, Census, Quota, check_free_space, check_wheel,
                                  copy_file, refused, shown, walk, write_counted)
from arena.ladder.errors import SubmissionError
from arena.ladder.package import Package
from arena.plugins.program_bots import MAX_BOT_TOML, checked_bot_toml, read_bot_toml
from arena.sandbox.build import DEFAULT_BUILD, BuildLimits, run_build

BOT_TOML = "bot.toml"
TAR_OVERHEAD = 3 * 512
"""Tar bytes a member may take besides its data (its header, a pax header and its own header)."""


def is_program(path: Path) -> bool:
    """Whether ``path`` is taken as a program submission: a folder with ``bot.toml``, or a .zip (a wheel is a
    .whl); looked at without reading the zip."""
    return (path / BOT_TOML).is_file() if path.is_dir() else path.suffix == ".zip" and path.is_file()


def zip_root(names: list[str]) -> str | None:
    """Where a zip of these member names holds ``bot.toml``: '' (its root), ``"TOP/"`` (its one top folder),
    or None (nowhere)."""
    if BOT_TOML in names:
        return ""
    tops = {n.split("/", 1)[0] for n in names}
    top = next(iter(tops)) if len(tops) == 1 else None
    return f"{top}/" if top is not None and f"{top}/{BOT_TOML}" in names else None


def program_root(path: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> str | None:
    """Where a program submission's ``bot.toml`` is: '' (a folder, or a zip's root) or ``"TOP/"`` (a zip's
    one top folder); None when ``path`` is no program submission (a wheel, a Python bot's folder)."""
    if path.is_dir():
        return "" if (path / BOT_TOML).is_file() else None
    if path.suffix != ".zip" or not path.is_file():
        return None
    check_wheel(path, limits, "zip")
    with zipfile.ZipFile(path) as z:
        root = zip_root(z.namelist())
    if root is not None:
        return root
    raise SubmissionError(f"refused: {path.name} holds no {BOT_TOML} at its root or in its one top folder "
                          f"(a program bot's zip holds its folder, with {BOT_TOML})")


def read_program(path: Path, limits: ArchiveLimits = DEFAULT_LIMITS) -> Package:
    """The name and version a program submission's ``bot.toml`` gives (read as data); SubmissionError if it has
    none, or if it is not a valid bot.toml (docs/protocol.md)."""
    root = program_root(path, limits)
    if root is None:
        raise SubmissionError(f"{path}: expected a folder or a .zip with {BOT_TOML}")
    if path.is_dir():
        table = _table(path.name, path)
    else:
        with zipfile.ZipFile(path) as z, z.open(root + BOT_TOML) as f:
            data = f.read(MAX_BOT_TOML + 1)  # more than that is refused, unread
        try:
            table = checked_bot_toml(path.name, f"{path.name}/{root}{BOT_TOML}", data)
        except PluginError as exc:
            raise SubmissionError(f"refused: {exc}") from None
    name = table.get("name")
    if not name:
        raise SubmissionError(f"{path.name}/{BOT_TOML}: a ladder submission must name its bot (name = \"my-bot\")")
    return Package(str(name), str(table.get("version", "")), str(name))


def install_program(path: Path, target: Path, limits: ArchiveLimits = DEFAULT_LIMITS,
                    build: BuildLimits = DEFAULT_BUILD) -> None:
    """Stage the program submission at ``path``, run its build confined if it has one, and install the result
    as the new folder ``target``, all under ``limits`` (SubmissionError: refused, nothing left behind)."""
    check_free_space(target, limits)
    root = program_root(path, limits)
    if root is None:
        raise SubmissionError(f"{path}: expected a folder or a .zip with {BOT_TOML}")
    label = f"{path.name}/" if path.is_dir() else path.name
    work = target.with_name(f".{target.name}.part-{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    staged = work / "staged"
    try:
        staged.mkdir()
        quota = Quota(label, limits)
        if path.is_dir():
            _stage_folder(path, staged, quota)
        else:
            _stage_zip(path, root, staged, quota)
        steps = _table(label, staged).get("build")
        final = _built(label, staged, work, steps, limits, build) if steps else staged
        final.rename(target)
    except OSError as exc:
        raise SubmissionError(f"cannot install {path} into {target} ({exc.strerror or exc})") from None
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _table(label: str, folder: Path) -> dict:
    try:
        return read_bot_toml(label, str(folder))
    except PluginError as exc:
        raise SubmissionError(f"refused: {exc}") from None


def _stage_folder(folder: Path, staged: Path, quota: Quota) -> None:
    """Every regular file of the folder, under the quota (a link or a special file refused, never followed)."""
    census = Census(quota.label, quota.limits)
    for name, info in walk(folder, "", quota.label, quota.limits):
        name = name.lstrip("/")
        if not name:
            continue
        census.name(name)
        if stat.S_ISDIR(info.st_mode):
            (staged / name).mkdir(exist_ok=True)
        else:
            copy_file(folder / name, staged / name, quota, name)
            _mode(staged / name, info.st_mode)


def _stage_zip(path: Path, root: str, staged: Path, quota: Quota) -> None:
    """The members under ``root``, each a regular file or folder (checked by :func:`check_wheel` already)."""
    with zipfile.ZipFile(path) as z:
        for m in z.infolist():
            name = m.filename[len(root):]
            if not m.filename.startswith(root) or not name.strip("/"):
                continue
            if m.is_dir():
                (staged / name).mkdir(parents=True, exist_ok=True)
                continue
            quota.file(name)
            with z.open(m) as src:
                write_counted(src, staged / name, quota, name)
            _mode(staged / name, m.external_attr >> 16)


def _built(label: str, staged: Path, work: Path, steps: list[str], limits: ArchiveLimits,
           build: BuildLimits) -> Path:
    """The folder the build leaves, unpacked from its tar under a fresh quota; SubmissionError if it fails."""
    archive = work / "built.tar"
    result = run_build(str(staged), steps, str(archive), limits.disk_quota + (limits.max_members + 2) * TAR_OVERHEAD,
                       build)
    shutil.rmtree(staged)  # (and run_build removed its tar of it): from here only the built tar and its unpacking
    if not result.ok:
        raise SubmissionError(f"refused: {label} {result.detail}")
    built = work / "built"
    built.mkdir()
    _unpack(archive, built, Quota(label, limits))
    archive.unlink()
    return built


def _unpack(archive: Path, target: Path, quota: Quota) -> None:
    """The build's tar, as untrusted data: regular files and folders only, names censused, bytes under quota."""
    census = Census(quota.label, quota.limits)
    try:
        with tarfile.open(archive, mode="r:") as tar:
            for m in tar:
                name = m.name[2:] if m.name.startswith("./") else m.name
                if name in (".", ""):
                    continue
                census.name(name + ("/" if m.isdir() else ""))
                if m.isdir():
                    quota.file(name)
                    (target / name).mkdir(parents=True, exist_ok=True)
                elif m.isreg():
                    _unpack_file(tar, m, target / name, quota, name)
                else:
                    kind = "a link" if m.issym() or m.islnk() else "a special file"
                    raise refused(quota.label, f"left {shown(name)}, {kind}, in its built folder; a program bot's "
                                               f"folder must hold only regular files and folders")
    except (tarfile.TarError, EOFError) as exc:
        raise refused(quota.label, f"its built folder could not be read back ({exc})") from None


def _unpack_file(tar: tarfile.TarFile, m: tarfile.TarInfo, path: Path, quota: Quota, name: str) -> None:
    quota.file(name)
    source = tar.extractfile(m)
    if source is None:
        raise refused(quota.label, f"left {shown(name)}, which cannot be read, in its built folder")
    with source:
        write_counted(source, path, quota, name)
    _mode(path, m.mode)


def _mode(path: Path, mode: int) -> None:
    """Executable for everyone if it was for its owner (a program's command), else readable; never more."""
    os.chmod(path, 0o755 if mode & 0o100 else 0o644)
