"""Bots: players that read a :class:`~rummykit.views.PlayerView` and return an action.

``make_bot("random")``, ``make_bot("greedy")``, ``make_bot("search", level="medium")`` (the
information-set search of :mod:`rummykit.bots.ismcts`), ``make_bot("search-v1:medium")`` (the
earlier race search of :mod:`rummykit.bots.search`, kept unchanged as a baseline); see
:func:`bot_kinds`.

>>> import random, rummykit as rk
>>> from rummykit.bots import make_bot
>>> rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=1)
>>> bot = make_bot("random")
>>> bot.choose(rnd.view(rnd.to_move), rnd.legal_actions(), random.Random(0)) in rnd.legal_actions()
True
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable, Iterable
from importlib.util import find_spec
from typing import Any, Final

from rummykit.bots.base import Bot, MatchView, RandomBot, check_seat, match_action, seat_notice
from rummykit.bots.gin_search import CombinedSearchBot, GinSearchBot
from rummykit.bots.greedy import GreedyBot
from rummykit.bots.ismcts import IsmctsBot
from rummykit.bots.openspiel_simple import OpenSpielMissingError, OpenSpielSimpleBot
from rummykit.bots.search import LEVELS, Budget, SearchBot
from rummykit.errors import RummyError, quoted
from rummykit.rules import Rules

BOT_LEVELS: Final = ("easy", "medium", "hard")
LEVEL_LINES: Final = {
    "easy": "easy: a quick search (30 samples a decision, 12 in melding games), about 3 ms a move",
    "medium": "medium: the default (100 samples, 40 in melding games), about 8-15 ms a move",
    "hard": "hard: the strongest (400 samples, 120 in melding games), about 35-80 ms a move",
}
"""One line per level of the ``search`` bot for the terminal and the web (CPU time per move measured
on a 2-core machine with the native kernels; the pure-Python twin takes 2-14 times as long, hard up
to about 0.5 s in Viennese: docs/strength.md)."""


BOT_KIND_LINES: Final = {
    "random": "plays any legal move at random: for trying the rules",
    "greedy": "plays what helps most this turn and never looks ahead",
    "search": "plays each choice out many times on guessed hands and keeps the best: the strongest",
}
"""One line per built-in bot kind a person chooses from (the lobby; German in
:mod:`rummykit.i18n.levels`)."""


BOT_KIND_NAMES: Final = {"random": "Random", "greedy": "Greedy", "search": "Search"}
"""What people call each built-in bot kind a person chooses from (the lobby's menu, the waiting room;
German in :mod:`rummykit.i18n.levels`); the kind's id is what the API and the terminal take."""


POLICY_KIND: Final = "policy"
"""The kind that plays a trained network's file (``rl`` extra): ``policy:FILE`` names the file."""


class UnknownBotError(RummyError, ValueError):
    """A bot kind or level that does not exist."""


_BUILTIN: set[str] = set()
"""Filled with the built-in kinds once they are registered (:data:`BUILTIN_KINDS`)."""
_FACTORIES: dict[str, Callable[..., Bot]] = {
    "random": lambda level: RandomBot(),
    "greedy": lambda level: GreedyBot(),
    # Information-set search; gin hands go to GinSearchBot, which plays gin's own phases.
    "search": lambda level: CombinedSearchBot(level),
    "search-v1": lambda level: SearchBot(level),
}


LEVELED_KINDS: Final = frozenset({"search", "search-v1"})
"""The built-in kinds whose level changes how they play (``random`` and ``greedy`` take a level and
play the same at every one)."""


def bot_label(spec: str) -> str:
    """How a ``kind:level`` bot is named to players: with its level only where the level changes its
    play (``search:hard``, but ``greedy``, not ``greedy:medium``)."""
    kind, _, level = spec.partition(":")
    shown = kind in LEVELED_KINDS or kind not in BUILTIN_KINDS  # only its author knows otherwise
    return spec if level and shown else kind


def register_bot(kind: str, factory: Callable[..., Bot], *, replace: bool = False) -> None:
    """Make ``make_bot(kind, level, **options)`` build bots with ``factory(level, **options)``.

    Kinds are matched without regard to case or surrounding spaces, as :func:`make_bot` reads them.
    A built-in kind (``greedy``, ``search`` …) is replaced only with ``replace=True``: the new
    factory would stand in for it in every game of the process, the arena's baselines included.

    Raises:
        ValueError: an empty kind, one with ``:`` or ``,`` (they separate a kind from its level, and
            bots in a list), or a built-in kind without ``replace=True``.
        TypeError: ``factory`` is not callable, or cannot be called with a level (a bot class whose
            constructor takes no arguments, ``lambda: MyBot()``): said now rather than in the middle
            of a run.
    """
    name = kind.strip().lower()
    if not name or ":" in name or "," in name:
        raise ValueError(f"a bot kind is a word without ':' or ',', not {quoted(kind)}")
    if name in _BUILTIN and not replace:
        raise ValueError(
            f"{quoted(name)} is a built-in bot; give yours another name (or pass replace=True to "
            "stand in for it in every game of this process)"
        )
    _check_factory(name, factory)
    _FACTORIES[name] = factory


def _check_factory(kind: str, factory: object) -> None:
    """Raise :class:`TypeError` unless ``factory`` can be called as ``factory(level)`` (a factory
    whose parameters cannot be read is trusted)."""
    if not callable(factory):
        raise TypeError(f"the factory of the bot {quoted(kind)} is not callable: {factory!r}")
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(None)
    except TypeError:
        raise TypeError(
            f"the factory of the bot {quoted(kind)} is called as factory(level, **options) (level None, "
            f"'easy', 'medium' or 'hard'), but it takes {signature}; give it a level parameter, e.g. "
            "lambda level=None, **options: MyBot()"
        ) from None


PLUGIN_GROUP: Final = "rummykit.bots"
"""The entry-point group through which an installed package offers bot kinds: a package that declares
``[project.entry-points."rummykit.bots"] mybot = "mypackage:make_mybot"`` (a factory called as
``make_mybot(level, **options)``) is played by ``rummykit arena --bots mybot,greedy`` and
``rummykit play --bots mybot`` like a built-in kind. The web server seats only its own kinds."""


def _plugins() -> dict[str, Any]:
    """The bot kinds installed packages offer (:data:`PLUGIN_GROUP`), by their names as kinds."""
    from importlib.metadata import entry_points

    found: dict[str, Any] = {}
    for ep in entry_points(group=PLUGIN_GROUP):
        name = ep.name.strip().lower()
        if name and ":" not in name and "," not in name:
            found.setdefault(name, ep)
    return found


def plugin_bots() -> dict[str, str]:
    """The bot kinds installed packages offer (:data:`PLUGIN_GROUP`), each with its entry point
    (``{"mybot": "mybots:make_mybot"}``), those not played included (:func:`shadowed_plugins`)."""
    return {name: ep.value for name, ep in _plugins().items()}


def shadowed_plugins() -> dict[str, str]:
    """The installed packages' bot kinds (:data:`PLUGIN_GROUP`) that are not played because a kind of
    the same name is built in (``greedy``, ``search`` …), each with its entry point
    (``{"greedy": "mybots:make_greedy"}``). ``make_bot("greedy")`` keeps playing rummykit's own bot:
    a package must not stand in for the arena's baselines by being installed."""
    return {name: value for name, value in plugin_bots().items() if name in _BUILTIN}


def shadow_notices(specs: Iterable[str]) -> list[str]:
    """A line for each kind named in ``specs`` (``kind`` or ``kind:level``) that an installed package
    also offers but that is played by rummykit's own bot (:func:`shadowed_plugins`)."""
    shadowed = shadowed_plugins()
    kinds = dict.fromkeys(spec.partition(":")[0].strip().lower() for spec in specs)
    return [
        f"the bot {quoted(kind)} of the installed package {quoted(shadowed[kind])} is not played: "
        f"{quoted(kind)} is rummykit's own bot; the package must offer it under another name"
        for kind in kinds
        if kind in shadowed
    ]


def bot_kinds() -> tuple[str, ...]:
    """The registered bot kinds, and those installed packages offer (:data:`PLUGIN_GROUP`)."""
    return tuple(dict.fromkeys([*_FACTORIES, *_plugins()]))


def canonical_spec(spec: str) -> str:
    """``spec`` (``kind`` or ``kind:level``) as :func:`make_bot` reads it: trimmed and in lower case
    (``" Search : HARD"`` is ``"search:hard"``), so that one bot typed two ways is one name in the
    arena's figures and a league's tables; a policy's file (``policy:runs/A.npz``) keeps its case."""
    kind, colon, level = spec.partition(":")
    kind = kind.strip().lower()
    level = level.strip()
    if not (kind == POLICY_KIND and level.lower() not in BOT_LEVELS):
        level = level.lower()
    return f"{kind}{colon}{level}"


def make_bot(kind: str, level: str | None = None, **options: Any) -> Bot:
    """A bot of ``kind`` (``random``, ``greedy``, ``search``, ``search-v1``; ``openspiel-simple`` with
    OpenSpiel installed) at ``level`` (``easy``/``medium``/``hard``).

    ``kind:level`` is accepted too (``"search:hard"``). ``options`` go to the kind's factory (the
    ``policy`` kind of the ``rl`` extra takes ``path=``, which the spec may give in place of a level:
    ``"policy:runs/a.npz"``, so that one arena run can seat two policy files).

    Raises:
        UnknownBotError: no such kind or level, or an option the kind does not take.
    """
    if ":" in kind and level is None:
        kind, level = kind.split(":", 1)
    kind = kind.strip().lower()
    if level is not None and kind == POLICY_KIND and level.strip().lower() not in BOT_LEVELS:
        if "path" in options:
            raise UnknownBotError(f"the policy bot's file is named twice: {quoted(level.strip())} and path=")
        options = {**options, "path": level.strip()}  # the file, as named (case kept)
        level = None
    if level is not None:
        level = level.strip().lower()
    if level is not None and level not in BOT_LEVELS:
        raise UnknownBotError(f"unknown bot level {quoted(level)}; levels: {', '.join(BOT_LEVELS)}")
    factory = _FACTORIES.get(kind) or _plugin_factory(kind)
    if factory is None:
        raise UnknownBotError(f"unknown bot {quoted(kind)}; bots: {', '.join(bot_kinds())}")
    if options:
        try:
            signature = inspect.signature(factory)
        except (TypeError, ValueError):  # a factory whose parameters cannot be read: it judges them
            signature = None
        try:
            if signature is not None:
                signature.bind(level, **options)
        except TypeError:
            names = ", ".join(map(quoted, options))
            word = "option" if len(options) == 1 else "options"
            raise UnknownBotError(f"the bot {quoted(kind)} does not take the {word} {names}") from None
    return factory(level, **options)


def seat_notices(rules: Rules, specs: Iterable[str]) -> list[str]:
    """What the bots of ``specs`` (``kind:level``) say before a game under ``rules`` that they can
    play though not made for (a policy trained under other rules), once each
    (:func:`~rummykit.bots.base.seat_notice`), after a line for each named kind an installed package
    offers in vain (:func:`shadow_notices`).

    Raises:
        UnknownBotError: a spec names no bot (or the bot cannot be made, with its own error).
    """
    specs = list(dict.fromkeys(specs))
    lines = (seat_notice(make_bot(spec), rules) for spec in specs)
    return [*shadow_notices(specs), *dict.fromkeys(line for line in lines if line)]


def _plugin_factory(kind: str) -> Callable[..., Bot] | None:
    """The factory an installed package offers for ``kind``, loaded and registered now (worker
    processes load it the same way); ``None`` where no package offers it.

    Raises:
        UnknownBotError: the package's entry point does not load or is not callable.
    """
    ep = _plugins().get(kind)
    if ep is None:
        return None
    try:
        factory = ep.load()
    except Exception as exc:  # a plug-in's import error is the plug-in's, told in one line
        raise UnknownBotError(f"bot {quoted(kind)} of {quoted(ep.value)} does not load: {exc}") from None
    try:
        register_bot(kind, factory)
    except TypeError as exc:  # not callable, or without a level parameter
        raise UnknownBotError(f"bot {quoted(kind)} of {quoted(ep.value)}: {exc}") from None
    return factory  # type: ignore[no-any-return]


RL_MODULES: Final = ("numpy", "gymnasium", "pettingzoo")
"""What the ``rl`` extra installs, which the policy bot reads its network and observations with."""


def _policy_bot(level: str | None, path: str | os.PathLike[str] | None = None) -> Bot:
    missing = [m for m in RL_MODULES if find_spec(m) is None]
    if missing:
        raise UnknownBotError(
            f"the policy bot needs the rl extra ({', '.join(missing)} missing): pip install 'rummykit[rl]'"
        )
    from rummykit.bots.policy import load_policy_bot

    return load_policy_bot(level, path=path)


def _openspiel_simple(level: str | None) -> Bot:
    """OpenSpiel's simple gin bot (``pyspiel`` is imported only now)."""
    try:
        return OpenSpielSimpleBot()
    except OpenSpielMissingError as exc:
        raise UnknownBotError(str(exc)) from None


register_bot(POLICY_KIND, _policy_bot)  # without the rl extra it says what to install
register_bot("openspiel-simple", _openspiel_simple)
_BUILTIN.update(_FACTORIES)
BUILTIN_KINDS: Final = frozenset(_BUILTIN)
"""The kinds rummykit brings; an installed package's bot of the same name is not played, and the
command line says so before a game that names it (:func:`shadow_notices`); of them only
:data:`LEVELED_KINDS` play by their level."""


__all__ = [
    "BOT_KIND_LINES",
    "BOT_KIND_NAMES",
    "BOT_LEVELS",
    "LEVELED_KINDS",
    "LEVELS",
    "LEVEL_LINES",
    "PLUGIN_GROUP",
    "Bot",
    "Budget",
    "CombinedSearchBot",
    "GinSearchBot",
    "GreedyBot",
    "IsmctsBot",
    "MatchView",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "bot_kinds",
    "bot_label",
    "canonical_spec",
    "check_seat",
    "make_bot",
    "match_action",
    "plugin_bots",
    "register_bot",
    "seat_notice",
    "seat_notices",
    "shadow_notices",
    "shadowed_plugins",
]
