"""The local process pool behind the arena and self-play: a run stopped by Ctrl-C (or an error) ends
at once and does not wait for the games its workers hold (with a slow bot that was a whole game
more: 21 s at 3 s a move)."""

from __future__ import annotations

import time

import pytest

from rummykit.cluster import Runner


def _slow(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_stopped_run_does_not_wait_for_the_games_its_workers_hold() -> None:
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), Runner("local", workers=2) as runner:
        for _ in runner.map(_slow, [0.1, 30.0, 30.0, 30.0, 30.0]):
            raise KeyboardInterrupt  # Ctrl-C after the first result, while the workers hold 30 s tasks
    assert time.monotonic() - start < 10


def test_a_stopped_run_ends_its_workers_whatever_sigterm_handler_the_parent_had() -> None:
    """The pool stops its workers with SIGTERM; a worker forked while the parent caught SIGTERM (Ray's
    driver installs a handler, and so does a command that turns SIGTERM into Ctrl-C) caught it too and
    played out its queued tasks. A worker starts with SIGTERM's default action."""
    import signal

    previous = signal.signal(signal.SIGTERM, lambda signum, frame: None)
    try:
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt), Runner("local", workers=2) as runner:
            for _ in runner.map(_slow, [0.1, 30.0, 30.0, 30.0, 30.0]):
                raise KeyboardInterrupt
        assert time.monotonic() - start < 10
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_finished_run_still_waits_for_nothing_and_returns_every_result() -> None:
    with Runner("local", workers=2) as runner:
        assert sorted(done.result for done in runner.map(_slow, [0.01, 0.02, 0.03])) == [0.01, 0.02, 0.03]
