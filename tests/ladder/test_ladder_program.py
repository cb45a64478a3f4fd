"""Program bots entering a ladder: a folder or a zip with bot.toml, built confined at submission, then checked,
rated and played like any entry; a build that fails or leaves what a bot folder must not hold is refused whole."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena.ladder import submitters
from arena.ladder.archive import ArchiveLimits
from arena.ladder.errors import SubmissionError
from arena.ladder.ladder import Ladder
from arena.ladder.ledger import open_ledger
from arena.ladder.program_install import install_program
from arena.ladder.submit import submit
from arena.ladder.web.app import make_app
from arena.results.store.database import Store
from arena.sandbox.build import BuildLimits
from arena.tournament.executors import SerialExecutor
from support.ladder import make_ladder

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "c-bot"


def _c_bot(tmp_path: Path, build: str | None = None, name: str = "cbot") -> Path:
    """The example C bot's sources (no binary: the build makes it), under ``name``."""
    folder = tmp_path / name
    folder.mkdir()
    shutil.copy(EXAMPLE / "bot.c", folder / "bot.c")
    steps = build or '["gcc", "-O2", "-std=c99", "-o", "c-bot", "bot.c"]'
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1.0"\ncommand = ["./c-bot"]\nbuild = {steps}\n')
    return folder


def _zipped(folder: Path, into: Path) -> Path:
    """``zip -r NAME.zip NAME/``: the folder inside one top folder."""
    archive = into / f"{folder.name}.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(folder.rglob("*")):
            z.write(path, f"{folder.name}/{path.relative_to(folder)}")
    return archive


def _left(ladder: Ladder) -> list[str]:
    return sorted(p.name for p in (ladder.folder / "plugins").iterdir())


def test_a_c_bot_folder_is_built_confined_checked_and_played(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    entry = submit(ladder, _c_bot(tmp_path))
    assert (entry.name, entry.status, entry.version) == ("cbot-v1", "active", "1.0"), entry.reason
    assert entry.report["ok"] and "all checks passed" in entry.report["text"]
    built = ladder.folder / "plugins" / "cbot-v1" / "c-bot"
    assert built.is_file() and built.stat().st_mode & 0o111
    assert not (tmp_path / "cbot" / "c-bot").exists()  # built in the sandbox's copy, not in the submitter's folder
    Ladder.open(ladder.folder, registry).run(SerialExecutor(registry), max_games=14)
    with Store(ladder.folder) as store:
        assert open_ledger(store).games_of()["cbot-v1"] > 0


def test_the_same_program_zipped_is_the_same_code_and_a_changed_one_is_its_next_version(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    folder = _c_bot(tmp_path)
    assert submit(ladder, folder).status == "active"
    with pytest.raises(SubmissionError, match="same code as the entry cbot-v1"):
        submit(ladder, _zipped(folder, tmp_path))
    (folder / "bot.c").write_text((folder / "bot.c").read_text() + "\n/* v2 */\nstatic int v2;\n")
    second = submit(ladder, _zipped(folder, tmp_path))
    assert (second.name, second.status, second.previous) == ("cbot-v2", "active", "cbot-v1"), second.reason
    assert _left(ladder) == ["cbot-v1", "cbot-v2"]


@pytest.mark.parametrize("build, said", [
    ('["gcc", "-o", "c-bot", "missing.c"]', "failed: "),
    ('["sh", "-c", "gcc -o c-bot bot.c && ln -s /etc/passwd leak"]', "left 'leak', a link, in its built folder"),
    ('["sh", "-c", "sleep 600"]', "did not finish within"),
])
def test_a_build_that_fails_or_leaves_a_link_is_refused_and_nothing_is_left(tmp_path, registry, build, said):
    ladder = make_ladder(tmp_path / "L", registry)
    before = _left(ladder)
    with pytest.raises(SubmissionError) as caught:
        install_program(_c_bot(tmp_path, build), ladder.folder / "plugins" / "cbot-v1",
                        build=BuildLimits(wall_s=3))
    assert str(caught.value).startswith("refused: cbot/ ") and said in str(caught.value), caught.value
    assert "\n" not in str(caught.value)
    assert _left(ladder) == before


def test_a_built_folder_over_the_quota_is_refused(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    build = '["sh", "-c", "head -c 3000000 /dev/urandom > weights.bin"]'
    with pytest.raises(SubmissionError, match=r"writes more than its disk quota of 1 MiB \(stopped at .weights.bin.\)"):
        install_program(_c_bot(tmp_path, build), ladder.folder / "plugins" / "cbot-v1",
                        ArchiveLimits(disk_quota=1 << 20, free_margin=1))
    assert _left(ladder) == []


def test_a_zip_with_a_link_or_a_bot_toml_without_a_name_is_refused_before_anything_runs(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    linked = tmp_path / "linked.zip"
    with zipfile.ZipFile(linked, "w") as z:
        z.writestr("bot.toml", 'name = "x"\ncommand = ["./x"]\n')
        info = zipfile.ZipInfo("x")
        info.external_attr = (0o120777 << 16)
        z.writestr(info, "/etc/passwd")
    with pytest.raises(SubmissionError, match="member 'x' is a symbolic link; a zip must hold only regular files"):
        submit(ladder, linked)
    unnamed = tmp_path / "unnamed"
    unnamed.mkdir()
    (unnamed / "bot.toml").write_text('command = ["./x"]\n')
    with pytest.raises(SubmissionError, match="a ladder submission must name its bot"):
        submit(ladder, unnamed)
    assert _left(ladder) == []


def test_a_program_zip_is_taken_through_the_web(tmp_path, registry):
    ladder = make_ladder(tmp_path / "L", registry)
    with Store(ladder.folder) as store:
        token = submitters.add(open_ledger(store), "alice")
    archive = _zipped(_c_bot(tmp_path, name="webbot"), tmp_path)
    said = TestClient(make_app(Ladder.open(ladder.folder, registry))).post(
        "/submit", content=archive.read_bytes(), headers={"Authorization": f"Bearer {token}"})
    assert said.status_code == 200 and said.text.startswith("webbot-v1: active"), said.text
    with Store(ladder.folder) as store:
        assert open_ledger(store).entry("webbot-v1").owner == "alice"
