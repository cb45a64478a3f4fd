"""The local pool's stream reader: workers never wait on a full pipe, and a batch names its streamed games."""

from __future__ import annotations

import multiprocess as mp
import orjson

from arena.game.seeds import Secret
from arena.plugins.registry import load
from arena.tournament.event import Tournament
from arena.tournament.executors import LocalExecutor
from arena.tournament.spec import spec_from_dict
from arena.tournament.stream_drain import Drain
from arena.tournament.worker import (LocalSink, Streamed, StreamedSink, Worker, pack_batch, pack_games, run_packed,
                                     running_on, unpack_results)

GAMES = 400
PAD = "x" * 4000  # a record of about 4 KB: 400 of them are 25 times a 64 KB pipe


def _put_games(stream, first: int, count: int) -> None:
    for index in range(first, first + count):
        stream.put(pack_games([(index, {"pad": PAD, "index": index})]))


def test_a_worker_fills_more_than_a_pipe_and_ends_while_nobody_takes():
    """A process puts 1.6 MB of games and leaves, though no one calls take: the drain read them all,
    in the order they were put."""
    ctx = mp.get_context("spawn")
    stream = ctx.SimpleQueue()
    drain = Drain(stream)
    try:
        writer = ctx.Process(target=_put_games, args=(stream, 0, GAMES))
        writer.start()
        writer.join(120)  # a hang detector, not a timing
        assert writer.exitcode == 0, "the writer was left waiting on a full pipe"
        assert drain.wait_for(range(GAMES), timeout=120)
        games = drain.take()
        assert [index for index, _ in games] == list(range(GAMES))
        assert all(record == {"pad": PAD, "index": index} for index, record in games)
        assert drain.take() == []  # each game is taken once
    finally:
        drain.stop()
        stream.close()


def test_wait_for_answers_each_index_once_and_false_after_stop():
    ctx = mp.get_context("spawn")
    stream = ctx.SimpleQueue()
    drain = Drain(stream)
    try:
        _put_games(stream, 10, 3)
        assert drain.wait_for([10, 11, 12], timeout=120)
        assert not drain.wait_for([10], timeout=0.01)  # answered already: not here again
        left = drain.stop()
        assert [index for index, _ in left] == [10, 11, 12]  # read, never taken: stop hands them over
        assert not drain.wait_for([99], timeout=120)  # the reader ended: no waiting for ever
    finally:
        stream.close()


def _payload() -> bytes:
    """A batch of six games (random, low, high at one table, each seat rotation)."""
    spec = spec_from_dict({"name": "streamed", "seed": 3, "rules": "getaway", "players": ["random", "low", "high"],
                           "table_sizes": [3], "deals": 2})
    t = Tournament(spec, folder="unused", registry=load())
    return pack_batch(spec, t.games, t.roster, Secret.from_hex("ab" * 16, "test"))


def test_a_batch_on_a_streamed_sink_names_its_games_by_index():
    """Every game goes down the stream once; the batch's result carries none of them again."""
    payload = _payload()
    sent: list = []
    worker = Worker()
    worker.sink = StreamedSink(sent.append)
    with running_on(worker):
        result = run_packed(payload)
    worker.close()
    assert isinstance(result, Streamed)
    streamed = [pair for packed in sent for pair in orjson.loads(packed)]
    assert list(result.indices) == [index for index, _ in streamed]
    assert len(streamed) == len(orjson.loads(payload)["games"]) > 1
    assert orjson.loads(result.games) == []

    plain = Worker()  # the same batch with its games in the result: the same records
    plain.sink = LocalSink(lambda pairs: None)
    with running_on(plain):
        local = run_packed(payload)
    plain.close()
    assert _untimed(streamed) == _untimed(orjson.loads(orjson.dumps(local)))


def _untimed(pairs: list) -> list:
    """The games in index order without their time figures (which differ from run to run)."""
    return sorted([index, {k: v for k, v in record.items() if k != "timings"}] for index, record in pairs)


def test_a_game_the_stream_refused_comes_back_in_the_batch():
    payload = _payload()

    seen: list[bytes] = []

    def refuse_the_second(packed: bytes) -> None:
        seen.append(packed)
        if len(seen) == 2:
            raise BrokenPipeError("the stream is gone")

    worker = Worker()
    worker.sink = StreamedSink(refuse_the_second)
    with running_on(worker):
        result = run_packed(payload)
    worker.close()
    back = orjson.loads(result.games)
    assert len(back) == 1 and back[0][0] not in result.indices
    assert len(result.indices) + 1 == len(orjson.loads(payload)["games"])


def test_a_pool_with_no_one_to_deliver_to_brings_every_game_back_in_the_batch():
    """No ``deliver_to``: the pool streams nothing, and a batch's result is its games (not their indices)."""
    payload = _payload()
    with LocalExecutor(1, pin=False) as executor:
        back = unpack_results(executor.submit(run_packed, payload).result())
        assert executor._drain is None
    assert [index for index, _ in back] == [game["index"] for game in orjson.loads(payload)["games"]]


def test_a_pool_delivers_each_game_once_and_its_batch_brings_none_again():
    """With ``deliver_to``: every game comes through ``poll``, once; the batch's own result is empty."""
    payload = _payload()
    delivered: list = []
    with LocalExecutor(1, pin=False) as executor:
        executor.deliver_to(delivered.extend)
        result = executor.submit(run_packed, payload).result()  # settled once its games were read
        executor.poll()
    assert result == []
    assert sorted(index for index, _ in delivered) == sorted(game["index"] for game in orjson.loads(payload)["games"])
