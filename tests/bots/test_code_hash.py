"""Code hashes: blind to comments and docstrings, a built-in player's over the modules it uses."""

from __future__ import annotations

import sys
import textwrap

import pytest

from arena.bots.code_hash import normalised, player_hash_of, uses

SOURCE = textwrap.dedent('''
    """A bot."""
    import random

    class Bot:
        """It plays."""
        level = 3
        """The level."""

        def act(self, view):  # the move
            # think
            return min(view)
''').encode()


def test_comments_docstrings_and_layout_do_not_count():
    edited = SOURCE.replace(b"# the move", b"# the lowest card, always")
    edited = edited.replace(b'"""It plays."""', b"'''Plays.\n\n'''")
    edited = edited.replace(b"import random\n", b"import random\n\n\n# spare lines\n")
    assert normalised(edited) == normalised(SOURCE)


@pytest.mark.parametrize("change", [(b"min(view)", b"max(view)"), (b"level = 3", b"level = 4"),
                                    (b"import random", b"import random as r")])
def test_a_code_change_counts(change):
    assert normalised(SOURCE.replace(*change)) != normalised(SOURCE)


def test_a_file_that_does_not_parse_is_hashed_as_its_bytes():
    assert normalised(b"def (:\n") == b"def (:\n"


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package ``pkgx`` of three modules: a imports b; c stands alone."""
    root = tmp_path / "pkgx"
    root.mkdir()
    (root / "__init__.py").write_text("from pkgx.a import A\nfrom pkgx.c import C\n")
    (root / "a.py").write_text("from pkgx.b import helper\nfrom . import b\n\nclass A:\n    x = helper()\n")
    (root / "b.py").write_text("def helper():\n    return 1\n")
    (root / "c.py").write_text("class C:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield root
    for name in [m for m in sys.modules if m.split(".")[0] == "pkgx"]:
        del sys.modules[name]


def test_a_player_uses_its_module_and_what_it_imports(package):
    import pkgx.a
    import pkgx.c
    assert sorted(uses("pkgx.a")) == ["pkgx.a", "pkgx.b"]  # not the package's __init__, not c
    before_a, before_c = player_hash_of(pkgx.a.A), player_hash_of(pkgx.c.C)
    (package / "c.py").write_text('"""Now documented."""\n\nclass C:\n    pass  # nothing\n')
    assert player_hash_of(pkgx.c.C) == before_c
    (package / "c.py").write_text("class C:\n    y = 2\n")
    assert player_hash_of(pkgx.c.C) != before_c
    assert player_hash_of(pkgx.a.A) == before_a  # an edit elsewhere in the package does not count
    (package / "b.py").write_text("def helper():\n    return 2\n")
    assert player_hash_of(pkgx.a.A) != before_a  # an imported module's edit does
