"""A deal book in an event: ``deals = "book.jsonl"`` plays the book's deals instead of seeded ones.

The book is read once when the spec is (every line checked, its SHA-256 kept
in the spec, so a resume refuses a book that changed). Deals are handed out per
table size in schedule order: the ``i``-th deal of ``n`` seats in the schedule
(a rotation group: every rotation, and both halves of a paired deal, share it)
takes the ``(i mod m)``-th of the book's ``m`` deals for ``n`` seats. Deals per
table become the fewest that play every book deal of each size at least once,
``max over sizes of ceil(m / tables of that size)``, so an event with the
same tables as the one a book was exported from plays exactly its deals, in
the same places. See docs/tournaments.md, "Deal books".
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from arena.game.book import BookDeal, check_deal, parse_line
from arena.game.errors import ArenaError
from arena.tournament.errors import ConfigError, TournamentError


@dataclass(frozen=True, slots=True)
class Book:
    """A deal book as read: its path, content hash and deals (in line order, with their line numbers)."""

    path: str
    sha256: str
    deals: tuple[tuple[int, BookDeal], ...]

    def sized(self, players: int) -> list[tuple[int, BookDeal]]:
        """The book's deals for ``players`` seats, in book order (with line numbers)."""
        return [(n, d) for n, d in self.deals if d.players == players]

    def sizes(self) -> list[int]:
        return sorted({d.players for _, d in self.deals})


def read_book(path: str | Path, where: str) -> Book:
    """Read and check every line of a book; a problem is a :class:`ConfigError` naming the line."""
    path = Path(path)
    name = f"{where}: key 'deals': deal book {path}"
    digest, deals = hashlib.sha256(), []
    try:
        with path.open("rb") as f:
            for number, raw in enumerate(f, 1):
                digest.update(raw)
                text = raw.decode("utf-8").strip()
                if text:
                    deals.append((number, parse_line(text)))
    except FileNotFoundError:
        raise ConfigError(f"{name}: no such file (deals is a whole number of deals per table, or the path of "
                          f"a deal book)") from None
    except IsADirectoryError:
        raise ConfigError(f"{name}: is a folder, expected a file of deals, one JSON object a line") from None
    except OSError as exc:
        raise ConfigError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{name} line {number}: not UTF-8 text") from None
    except ArenaError as exc:
        raise ConfigError(f"{name} line {number}: {exc}") from None
    if not deals:
        raise ConfigError(f"{name}: holds no deal (expected one JSON object a line)")
    return Book(str(path), digest.hexdigest(), tuple(deals))


def book_key(data: dict, where: str) -> Book | None:
    """The book a spec's data names (``deals`` as a path, or the stored ``book`` key), read and checked
    against a stored ``book_sha256``; None for seeded deals."""
    value = data.get("deals")
    path = value if isinstance(value, str) else data.get("book")
    if path is None:
        return None
    if not isinstance(path, str) or not path.strip():
        raise ConfigError(f"{where}: key 'deals': expected a number of deals or a deal book's path (got {path!r})")
    book = read_book(Path(path).expanduser().resolve(), where)
    stored = data.get("book_sha256")
    if stored is not None and stored != book.sha256:
        raise TournamentError(f"{where}: the deal book {book.path} has changed since the games were played "
                              f"(SHA-256 {book.sha256[:12]}..., the games' {str(stored)[:12]}...); "
                              f"restore the original file")
    return book


def fit_book(spec, where: str):
    """The spec (built with ``deals`` 1) with the book's deals per table, checked: every table size has
    book deals, every deal starts under every rule set, no budget."""
    book: Book = spec.deal_book
    if spec.budget is not None:
        raise ConfigError(f"{where}: key 'budget': a deal book fixes the deals; give no budget (got {spec.budget})")
    missing = [n for n in spec.table_sizes if not book.sized(n)]
    if missing:
        raise ConfigError(f"{where}: key 'deals': the deal book {book.path} has no deal for {missing[0]} players "
                          f"(it has deals for {', '.join(map(str, book.sizes()))} players)")
    for rules in spec.rules_objects():
        for n in spec.table_sizes:
            for number, deal in book.sized(n):
                try:
                    check_deal(deal, rules)
                except ArenaError as exc:
                    raise ConfigError(f"{where}: key 'deals': deal book {book.path} line {number}: under rules "
                                      f"{rules.name or 'custom'}: {exc}") from None
    groups: dict[int, set] = {}
    for g in spec.schedule_format().iter_games():
        groups.setdefault(g.table_size, set()).add(g.deal_seed)
    per_table = max(math.ceil(len(book.sized(n)) / len(groups[n])) for n in groups)
    return replace(spec, deals=per_table)


def with_book(games: list, book: Book) -> list:
    """The schedule's games, each with its book deal (:attr:`GameSpec.book`), handed out as the module says."""
    return list(booked(games, sorted(games, key=lambda g: g.index), book))


def booked(order: Iterable, games: Iterable, book: Book) -> Iterator:
    """The games of ``order`` (any order, made as they are taken), each with its book deal; ``games`` is
    the same schedule in index order, read once first (:func:`book_deals`)."""
    taken = book_deals(games, book)
    return (replace(g, book=taken[(g.table_size, g.deal_seed)]) for g in order)


def book_deals(games: Iterable, book: Book) -> dict[tuple[int, int], dict]:
    """Each deal of the schedule (``(table size, deal seed)``) -> its book deal, from ``games`` in index
    order (a format's :meth:`iter_games`): one entry a deal, so no more than the book has lines, give
    or take a table's rounding."""
    taken: dict[tuple[int, int], dict] = {}
    counts: dict[int, int] = {}
    by_size = {n: book.sized(n) for n in book.sizes()}
    for g in games:
        key = (g.table_size, g.deal_seed)
        if key not in taken:
            sized = by_size[g.table_size]
            i = counts.get(g.table_size, 0)
            counts[g.table_size] = i + 1
            taken[key] = sized[i % len(sized)][1].to_dict()
    return taken
