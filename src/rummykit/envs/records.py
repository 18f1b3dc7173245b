"""Game records as the environments' transitions: training data from played games.

:func:`transitions` plays a :class:`~rummykit.record.Record` through the engine of the environments
(:class:`~rummykit.envs.game.TokenGame`, what ``rummy_v0`` and ``rummykit/Rummy-v0`` step) and yields
one :class:`Transition` per token: the seat that spells it, the observation and mask the environment
gives that seat before it, the token, and the rewards and ends after it. Fed the same tokens from the
same deal, ``rummy_v0`` with the same ``scope``, ``reward`` and ``derived_features`` hands out the
same vectors and rewards, bit for bit.

>>> import rummykit as rk
>>> from rummykit.envs.records import transitions
>>> rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
>>> _ = rnd.apply("draw")
>>> [(t.seat, t.token, t.action_index) for t in transitions(rk.Record.from_round(rnd))]
[(1, 0, 1)]

How a record's actions become tokens:

* Each action is spelled as the environment offers it at that decision (:meth:`TokenGame.spell
  <rummykit.envs.game.TokenGame.spell>`): the melds of an opening in canonical order, ``DONE`` where
  a longer candidate goes on (``meld 7C 8C 9C`` beside ``meld 7C 8C 9C 10C``), a lay-off's run end
  left out where the environment offers it without one.
* The environment lays the melds of an opening (or of a ``meld`` of several melds) in canonical order,
  a person or a bot in the order written, so the same meld can have another number on the
  environment's table than in the record: the actions that name a table meld (``layoff 5H on 3``,
  ``swap JK on 2``) are renumbered to the environment's number of that meld.
* Some actions the engine takes in one are several decisions in the environment, whose tokens all
  carry the record action's :attr:`~Transition.action_index`: gin's ``knock C``, the shortcut people
  may type (knock, discard, the best melds and pass in one action), is ``KNOCK``, ``DISCARD C``, one
  ``MELD`` for each meld the shortcut laid, in its order, and ``PASS``; a ``meld`` of several melds by
  a player who has opened (the environment offers one meld at a time) is one ``MELD`` per meld, in
  canonical order; a joker exchange that lays more than one meld or lay-off (``swap 10H on 2 then
  meld JK JD QD | 7C 7D 7H``, which the terminal takes from a person) is the exchange with the meld
  holding the freed joker, then one decision per further meld and lay-off (:func:`split_swap`).

Scopes, as the environments' ``scope``:

* ``"hand"``: every hand is an episode of its own, as an environment of ``scope="hand"`` plays it: no
  match figures in the observations, the hand's rewards at its end. Buy-back decisions between the
  hands of a match record are no hand's actions and give no transition.
* ``"match"``: a match record is one episode, as an environment of ``scope="match"`` plays it (match
  figures, the buy-back decisions, rewards on every change of the match's ledger counted from the
  figures the match started with). A round record has no match and is refused.

Who decided: where the record says who played each seat (:attr:`Record.seats
<rummykit.record.Record.seats>`), every transition says it too (:attr:`Transition.player`,
:attr:`~Transition.stand_in`, :attr:`~Transition.hinted`), and :attr:`Transition.by_person` keeps a
person's own decisions alone (a bot's seat, a stand-in's action, one right after a hint, or a record
that does not say, are not).

A record the environments cannot represent raises :class:`RecordConversionError` naming the record
action (its :attr:`~RecordConversionError.number` and text) when the conversion reaches it, after the
transitions of the actions before it: an action the engine takes but the environment does not offer
(an opening of several melds beyond the :data:`~rummykit.envs.encoding.MAX_COMPOUND_OPENINGS` it
lists at a decision), or, at the call, rules the environments do not play
(number 0: a deck that could hold more table melds than the encoding names; no rule set the engine
accepts has one). An
action the engine refuses raises the :class:`~rummykit.record.ReplayError` that :meth:`Record.replay
<rummykit.record.Record.replay>` raises.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn, TypeAlias

import numpy as np
import numpy.typing as npt

from rummykit.actions import Action, Discard, Knock, KnockDeclare, LayOff, MeldAction, Open, Pass, Swap
from rummykit.cards import JOKER
from rummykit.envs import encoding as enc
from rummykit.envs.game import SCOPES, NotOfferedError, RewardKind, Scope, TokenGame, check_reward
from rummykit.errors import NotationError, RulesError, RummyError
from rummykit.match import Match
from rummykit.record import MAX_ACTION_SHOWN, Record
from rummykit.record_seats import SeatKind
from rummykit.round import Round
from rummykit.views import TableMeld


@dataclass(frozen=True, slots=True, eq=False)
class Transition:
    """One token of a record as the environment steps it (``eq=False``: compare the arrays with
    ``numpy.array_equal``)."""

    hand: int
    """The hand it belongs to, from 1 (a buy-back decision belongs to the hand it follows)."""
    action_index: int
    """The record action it spells, from 1 (an index of ``record.actions`` plus one)."""
    seat: int
    """The seat to move, which spells the token (agent ``player_{seat}``)."""
    observation: npt.NDArray[np.float32]
    """The seat's observation before the token (a fresh array)."""
    action_mask: npt.NDArray[np.int8]
    """The seat's mask before the token (a fresh array); ``action_mask[token]`` is 1."""
    token: int
    """The token spelled (:mod:`rummykit.envs.encoding`)."""
    reward: float
    """The seat's reward for the token (``rewards[seat]``)."""
    rewards: tuple[float, ...]
    """Every seat's reward for the token, as the environment pays it (``rummy_v0``'s ``rewards``):
    nonzero only on the token that ends a hand or a match, or takes a buy-back decision in a match."""
    terminated: bool
    """The episode ends with this token by the rules (the hand, or in ``scope="match"`` the match)."""
    truncated: bool
    """The environment would cut the episode here: it passed the guard against endless play
    (:mod:`rummykit.guard`; random play can reach it, people and greedy bots hardly). The record goes
    on regardless, and every later token of the episode says it too."""
    action: Action | None
    """The engine action this token completes as the environment applies it (its candidate: melds
    in canonical order, meld numbers of its table), ``None`` while the spelling goes on."""
    player: SeatKind | None = None
    """Who played the seat by the record's :attr:`~rummykit.record.Record.seats`: ``"person"`` or
    ``"bot"``; ``None`` where the record does not say."""
    stand_in: bool | None = None
    """A bot played this action for the person whose seat it is (the web server's stand-in, the
    terminal's ``auto``); ``False`` at a bot's seat, ``None`` where the record does not say."""
    hinted: bool | None = None
    """The person played this action right after a hint for that decision; ``False`` at a bot's seat,
    ``None`` where the record does not say."""

    @property
    def by_person(self) -> bool:
        """The record says a person took this decision unaided: a person's seat, not played by a
        stand-in bot, not right after a hint (``False`` where the record does not say all three)."""
        return self.player == "person" and self.stand_in is False and self.hinted is False


class RecordConversionError(NotationError):
    """A record the environments cannot represent: an action of it that no candidate of the
    environment plays, or rules they do not play.

    ``number`` counts the record's actions from 1 (0: the record as a whole); ``action`` is the
    action's text (empty for number 0)."""

    def __init__(self, message: str, number: int, action: str) -> None:
        super().__init__(message)
        self.number = number
        self.action = action


def transitions(
    record: Record,
    *,
    scope: Scope = "hand",
    reward: RewardKind = "score",
    derived_features: bool = False,
) -> Iterator[Transition]:
    """Every token the environment steps to play ``record``, in order, with what it gives the seat
    that spells it (see the module docstring): ``scope``, ``reward`` and ``derived_features`` as the
    environments take them.

    The arguments and the rules are checked at the call, the record's actions as the conversion
    reaches them.

    Raises:
        ValueError: ``scope`` or ``reward`` is not one the environments take, or ``scope="match"`` for
            a round record.
        RecordConversionError: the environments do not play the record's rules; later, an action
            no candidate of the environment plays.
        ReplayError: later, an action the engine refuses (as :meth:`Record.replay` does).
    """
    if scope not in SCOPES:
        raise ValueError(f"scope must be one of {SCOPES}, not {scope!r}")
    check_reward(reward)
    if scope == "match" and record.kind != "match":
        raise ValueError("a round record holds one hand and no match: convert it with scope='hand'")
    try:
        game = TokenGame(record.rules, record.players, scope, reward, derived_features)
    except RulesError as exc:
        raise RecordConversionError(
            f"the environments do not play this record's rules ({record.rules.name}): {exc}", 0, ""
        ) from None
    return _Conversion(record, game).run()


def as_arrays(items: Iterable[Transition]) -> dict[str, npt.NDArray[Any]]:
    """The transitions as one array per field, stacked in order (for ``numpy.savez`` and data
    loaders): ``observation`` (float32, one row each), ``action_mask`` (int8), ``token``, ``seat``,
    ``hand``, ``action_index`` (int64), ``reward`` (float32), ``rewards`` (float32, one row each),
    ``terminated`` and ``truncated`` (bool), ``player`` (int8: 1 a person's seat, 0 a bot's), ``stand_in``
    and ``hinted`` (int8: 1 yes, 0 no; -1 for each where the record does not say) and ``by_person``
    (bool, :attr:`Transition.by_person`). ``action`` is left out (it is no number)."""
    rows = list(items)
    if not rows:
        raise ValueError("no transitions to stack")

    def column(name: str, dtype: type) -> npt.NDArray[Any]:
        return np.array([getattr(t, name) for t in rows], dtype=dtype)

    return {
        "observation": np.stack([t.observation for t in rows]),
        "action_mask": np.stack([t.action_mask for t in rows]),
        "token": column("token", np.int64),
        "seat": column("seat", np.int64),
        "hand": column("hand", np.int64),
        "action_index": column("action_index", np.int64),
        "reward": column("reward", np.float32),
        "rewards": np.array([t.rewards for t in rows], dtype=np.float32),
        "terminated": column("terminated", np.bool_),
        "truncated": column("truncated", np.bool_),
        "player": np.array([_person(t.player) for t in rows], dtype=np.int8),
        "stand_in": np.array([_known(t.stand_in) for t in rows], dtype=np.int8),
        "hinted": np.array([_known(t.hinted) for t in rows], dtype=np.int8),
        "by_person": np.array([t.by_person for t in rows], dtype=np.bool_),
    }


def _person(player: SeatKind | None) -> int:
    return -1 if player is None else int(player == "person")


def _known(flag: bool | None) -> int:
    """1, 0, or -1 where the record does not say."""
    return -1 if flag is None else int(flag)


Marks: TypeAlias = tuple[SeatKind | None, bool | None, bool | None]
"""What a record's ``seats`` say of an action: its seat's kind, stand-in, hinted (:class:`Transition`)."""


def _marked_seats(record: Record) -> dict[int, int]:
    """Each action number the record's ``seats`` mark (``stand_in``, ``hinted``): the seat marking it."""
    marked: dict[int, int] = {}
    for number, seat in enumerate(record.seats or ()):
        marked.update(dict.fromkeys((*(seat.stand_in or ()), *(seat.hinted or ())), number))
    return marked


def _round(game: Round | Match) -> Round:
    return game.round if isinstance(game, Match) else game


def _text(action: Action) -> str:
    text = str(action)
    return text if len(text) <= MAX_ACTION_SHOWN else text[:MAX_ACTION_SHOWN] + "…"


def _unoffered(step: Action) -> str:
    """Why the environment cannot play ``step``, which the engine takes."""
    if isinstance(step, Open):
        return (
            "an opening the environment does not offer (it offers the openings the engine lists and "
            f"at most {enc.MAX_COMPOUND_OPENINGS} other openings of several melds at a decision)"
        )
    return f"no action the environment offers plays {_text(step)}"


def gin_knock_decisions(knock: Knock, rnd: Round) -> list[Action]:
    """The environment's decisions for gin's ``knock C`` shortcut, read from ``rnd`` right after the
    shortcut was applied to it: knock, discard ``C``, each meld the shortcut laid (in its order),
    pass."""
    gin = rnd.live_state().gin
    assert gin is not None  # a gin round keeps its gin facts
    return [KnockDeclare(), Discard(knock.card), *(MeldAction((m,)) for m in gin.knocker_melds), Pass()]


def split_melds(action: MeldAction) -> list[Action]:
    """The environment's decisions for a ``meld`` of several melds (which the engine takes from a
    player who has opened, and the environment offers one meld at a time): one ``meld`` per meld, in
    canonical order."""
    return [MeldAction((m,)) for m in sorted(action.melds)]


def split_swap(action: Swap) -> list[Action]:
    """The environment's decisions for a joker exchange that lays more than one meld or lay-off
    (which the terminal takes from a person, and the environment offers as the exchange with the
    one meld or lay-off that takes the freed joker, then one meld or lay-off a decision): the
    exchange with the first meld holding a joker (else the first lay-off of a joker), then the other
    melds in canonical order, then the other lay-offs as written."""
    melds, layoffs = list(action.melds), list(action.layoffs)
    if len(melds) + len(layoffs) <= 1:
        return [action]
    with_joker = next((m for m in melds if JOKER in m), None)
    if with_joker is not None:
        melds.remove(with_joker)
        head = Swap(action.cards, action.target, (with_joker,), ())
    else:
        laid = next((lo for lo in layoffs if lo.card == JOKER), layoffs[0])
        layoffs.remove(laid)
        head = Swap(action.cards, action.target, (), (laid,))
    return [head, *(MeldAction((m,)) for m in sorted(melds)), *layoffs]


def renumbered(action: Action, numbers: dict[int, int]) -> Action:
    """``action`` with the table melds it names renumbered by ``numbers`` (a number missing there
    stays)."""
    if isinstance(action, LayOff):
        return _renumbered_layoff(action, numbers)
    if isinstance(action, Swap):
        layoffs = tuple(_renumbered_layoff(lo, numbers) for lo in action.layoffs)
        return dataclasses.replace(action, target=numbers.get(action.target, action.target), layoffs=layoffs)
    return action


def _renumbered_layoff(layoff: LayOff, numbers: dict[int, int]) -> LayOff:
    target = numbers.get(layoff.target, layoff.target)
    return layoff if target == layoff.target else dataclasses.replace(layoff, target=target)


class _Conversion:
    """The record's game (its actions applied as written) and the environment's (the candidates it
    offers for them), played side by side; the environment's yields the transitions."""

    def __init__(self, record: Record, game: TokenGame) -> None:
        self.record = record
        self.game = game
        self.played: Round | Match = record.start()
        self.hand = 1
        self.numbers: dict[int, int] = {}
        """Record table meld number: the environment's number of the same meld, where they differ."""
        self.melds = 0
        """Table melds of the hand when :attr:`numbers` was made."""
        self.marked = _marked_seats(record)
        """Record action number: the seat whose ``stand_in`` or ``hinted`` list names it."""
        if game.scope == "match":
            game.play_from(record.start())
        else:
            game.play_from(_round(self.played).copy())

    def run(self) -> Iterator[Transition]:
        played = self.played
        by_hand = self.game.scope == "hand"
        for number, action in enumerate(self.record.actions, start=1):
            rnd = _round(played)
            decision = isinstance(played, Match) and bool(played.pending_buyback)
            marks = self._marks(number, action, played.to_move)
            try:
                played.apply(action)
            except RummyError as exc:
                raise self.record.replay_error(number, action, exc) from None
            if not (decision and by_hand):
                steps = self._decisions(number, action, rnd, decision)
                for step in steps:
                    yield from self._spell(number, action, step, marks)
                self._follow(number, action, rnd)
            now = _round(played)
            if now is not rnd:  # the next hand is dealt
                self.hand += 1
                self.numbers, self.melds = {}, 0
                if by_hand:
                    self.game.play_from(now.copy())

    def _decisions(self, number: int, action: Action, rnd: Round, decision: bool) -> list[Action]:
        """The environment's decisions for the record's ``action`` (applied to ``rnd`` already)."""
        if decision:
            return [action]
        if isinstance(action, Knock) and rnd.rules.is_gin:
            return gin_knock_decisions(action, rnd)
        if isinstance(action, MeldAction) and len(action.melds) > 1:
            return split_melds(action)
        if isinstance(action, Swap) and len(action.melds) + len(action.layoffs) > 1:
            return [renumbered(step, self.numbers) if self.numbers else step for step in split_swap(action)]
        return [renumbered(action, self.numbers) if self.numbers else action]

    def _marks(self, number: int, action: Action, mover: int) -> Marks:
        """What the record's ``seats`` say of action ``number``, played by seat ``mover``: its seat's
        kind, whether a stand-in played it and whether it followed a hint.

        Raises:
            RecordConversionError: the record marks the action as another seat's.
        """
        seats = self.record.seats
        if seats is None:
            return None, None, None
        marker = self.marked.get(number)
        if marker is not None and marker != mover:
            why = f"record field 'seats' marks it as seat {marker}'s; seat {mover} played it"
            self._fail(number, action, why)
        seat = seats[mover]
        return (seat.kind, *seat.marks(number))

    def _spell(self, number: int, action: Action, step: Action, marks: Marks) -> Iterator[Transition]:
        game = self.game
        tokens = enc.spelling(game.composer, step)
        if tokens is None:
            try:
                tokens = game.spell(step)
            except NotOfferedError:
                self._fail(number, action, _unoffered(step))
            except RummyError as exc:
                self._fail(number, action, f"the environment's game refuses {_text(step)} there: {exc}")
            self.melds = -1  # renumber after it: an equivalent candidate may lay its melds otherwise
        seat = game.to_move
        hand = self.hand
        for token in tokens:
            observation = game.observe(seat)
            mask = game.mask()
            applied, paid = game.step(token)
            rewards = paid if type(paid) is tuple else tuple(paid)
            yield Transition(
                hand, number, seat, observation, mask, token, rewards[seat], rewards,
                game.is_over, game.truncated, applied, *marks,
            )  # fmt: skip

    def _follow(self, number: int, action: Action, rnd: Round) -> None:
        """Check that the environment's game is where the record's is, and renumber the table melds
        when the table grew (or an equivalent candidate was played)."""
        game = self.game
        if rnd.is_over:
            ours = game.round if game.match is None else game.match.rounds[self.hand - 1]
            if ours.result is None or rnd.result is None or ours.result.points != rnd.result.points:
                self._fail(number, action, "the environment's hand ended otherwise (an engine defect)")
            return
        if game.to_move != self.played.to_move:
            self._fail(number, action, "the environment's game went elsewhere (an engine defect)")
        mine = rnd.live_state().melds
        if len(mine) != self.melds:
            self._renumber(number, action, mine, game.round.live_state().melds)

    def _renumber(
        self, number: int, action: Action, mine: Sequence[TableMeld], theirs: Sequence[TableMeld]
    ) -> None:
        """Pair every table meld of the record's round with the environment's meld of the same key
        (:func:`~rummykit.envs.encoding.meld_key`), in order."""
        free: dict[tuple[Any, ...], list[int]] = {}
        for j, meld in enumerate(theirs, start=1):
            free.setdefault(enc.meld_key(meld), []).append(j)
        numbers: dict[int, int] = {}
        count = 0
        for i, meld in enumerate(mine, start=1):
            same = free.get(enc.meld_key(meld))
            if not same:
                self._fail(number, action, "the environment's table holds other melds (an engine defect)")
            j = same.pop(0)
            if j != i:
                numbers[i] = j
            count = i
        if any(free.values()):
            self._fail(number, action, "the environment's table holds other melds (an engine defect)")
        self.numbers, self.melds = numbers, count

    def _fail(self, number: int, action: Action, why: str) -> NoReturn:
        text = _text(action)
        # Raised while another is handled: its reason is in the message, its traceback not wanted.
        raise RecordConversionError(f"record action {number} ({text}): {why}", number, text) from None
