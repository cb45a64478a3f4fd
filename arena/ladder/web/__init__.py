"""``arena ladder serve``: the ladder's web face (Starlette, served by uvicorn), safe to open to strangers.

- ``/``: the leaderboard (the columns of ``arena ratings``) and the most recent
  games, refreshed from ``/api/table`` every two seconds as games arrive;
- ``/bot/NAME``: one entry: its versions, status and check-bot report, its
  rating history, head to head, faults, logs and recent games;
- ``/games`` (``?player=NAME``: that entry's) and ``/game/N``: the most recent
  games, or game N, in the report's game browser and replay viewer;
- ``/report``: the ladder's whole HTML report now (slow on a large ladder);
- ``/submit``: the form; ``POST /submit`` takes a wheel as the request's body
  from a submitter (their own token in ``Authorization: Bearer``), ``POST
  /retire/NAME`` retires one of their entries.

The threat model (docs/ladder-service.md, "The web face"): a bot author or a
visitor may put any text anywhere they can (names, versions, prints,
tracebacks, query strings, uploads). Every page is an autoescaped template
(:mod:`.app`), no HTML is built by string formatting, and every answer carries
a strict Content-Security-Policy with a nonce per request (:mod:`.guard`); no
page shows a path of the host or a traceback; a body is read only from a known
submitter and only up to the cap (:mod:`.upload`), and a wheel is measured
before it is unpacked (:mod:`arena.ladder.archive`).

The server reads the store and admits submissions (check-bot in the sandbox,
in a worker thread); the games are played by ``arena ladder run``.
"""

from arena.ladder.web.app import TITLE, make_app, serve

__all__ = ["TITLE", "make_app", "serve"]
