"""Settings for the whole test suite."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

import rummykit.guard as guard_module
from rummykit.actions import Action, Discard, Draw, TakeDiscard
from rummykit.bots import _FACTORIES, register_bot
from rummykit.views import PlayerView


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Front ends follow the locale (``rummykit play`` speaks German under ``LANG=de_DE``): tests run
    under a neutral locale, whatever the developer's is; a test that wants German says so."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture(autouse=True)
def _own_address_key(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rummykit serve`` in a test makes its address key in a folder of the test session, never in
    the user's data directory."""
    folder = tmp_path_factory.getbasetemp() / "address-key"
    folder.mkdir(exist_ok=True)
    monkeypatch.setenv("RUMMYKIT_ADDRESS_KEY_FILE", str(folder / "address.key"))


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh save folder for the terminal game, and a terminal of 80 × 24."""
    monkeypatch.setenv("RUMMYKIT_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    return tmp_path


class _Looper:
    """A test bot that never ends a hand: it always takes the top discard and sheds another card, so
    two of them pass cards back and forth and nobody draws from the stock."""

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if TakeDiscard() in legal:
            return TakeDiscard()
        discards = [a for a in legal if isinstance(a, Discard)]
        return discards[0] if discards else legal[0]


class _Drawer:
    """A test bot that draws from the stock and sheds, and never knocks or goes out: with unlimited
    stock rebuilds two of them never end a hand, although the stock keeps changing."""

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if Draw() in legal:
            return Draw()
        discards = [a for a in legal if isinstance(a, Discard)]
        return discards[0] if discards else legal[0]


@pytest.fixture
def loopers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The bot kinds ``looper`` (:class:`_Looper`) and ``drawer`` (:class:`_Drawer`), and the hand
    guards (:mod:`rummykit.guard`) lowered to 400 actions without a stock draw (it is 10,000),
    3,000 actions in all (it is 1,000,000) and 5 unscored hands in a row (it is 100), so that tests
    of the guards are fast. Loopers outrun the first only where ``max_takes_in_a_row`` is above 400;
    under the default 50 the rules end their hands dead."""
    register_bot("looper", lambda level: _Looper())
    register_bot("drawer", lambda level: _Drawer())
    monkeypatch.setattr(guard_module, "MAX_IDLE_ACTIONS", 400)
    monkeypatch.setattr(guard_module, "MAX_HAND_ACTIONS", 3_000)
    monkeypatch.setattr(guard_module, "MAX_UNSCORED_HANDS", 5)
    yield
    del _FACTORIES["looper"], _FACTORIES["drawer"]


@pytest.fixture
def keen_taker() -> Callable[[Any, random.Random], int]:
    """A token policy for a :class:`~rummykit.envs.game.TokenGame` of random play that begins nine
    turns in ten by taking the discard pile and then mostly sheds a card, so that the takes in a row
    run up to ``max_takes_in_a_row`` (the observation's take bound entry)."""
    from rummykit.envs import encoding as enc

    def choose(game: Any, rng: random.Random) -> int:
        allowed: list[int] = game.composer.allowed()
        if not game.composer.tokens:
            if enc.TAKE in allowed and rng.random() < 0.9:
                return enc.TAKE
            if enc.DISCARD in allowed and rng.random() < 0.9:
                return enc.DISCARD
        return rng.choice(allowed)

    return choose


@pytest.fixture
def rubber_at_a_buyback() -> Callable[[], Any]:
    """A function giving a seeded Viennese rubber of three, played by greedy bots up to its first
    buy-back offer (the first seed from 0 that reaches one)."""

    def make() -> Any:
        import rummykit as rk
        from rummykit.actions import BuyBack
        from rummykit.bots.greedy import GreedyBot

        bot, rng = GreedyBot(), random.Random(2)
        for seed in range(20):
            match = rk.Match.new(rk.Rules.preset("viennese"), 3, seed=seed)
            while not match.is_over and BuyBack() not in match.legal_actions():
                match.apply(bot.choose(match.round.view(match.to_move), match.legal_actions(), rng))
            if not match.is_over:
                return match
        raise AssertionError("no seed reached a buy-back offer")

    return make
