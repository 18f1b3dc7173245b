"""The sub-step action encoding of the rummykit environments (version 1).

An engine action is spelled as a short sequence of tokens, read off its notation
(:mod:`rummykit.actions`): ``swap 6C on 3 then meld 8D 9D JK`` is ``SWAP 6C TARGET3 THEN_MELD 8D 9D
JK``. Each token is one environment step in the fixed space ``Discrete(NUM_TOKENS)``. At every step
the mask allows exactly the tokens that continue the spelling of at least one candidate action, so
every masked-in prefix completes to an action the engine accepts and every candidate action is
reachable: the candidates are put in a trie (:class:`Composer`) and the mask is the set of children
of the current trie node. An action is applied as soon as its spelling is complete and no other
candidate continues it; where one does (``meld 7C 8C 9C`` against ``meld 7C 8C 9C 10C``) the token
``DONE`` applies the shorter one.

The candidates (:func:`candidate_actions`) are ``Round.legal_actions()`` (``Match.legal_actions()``
in a match: buy-back decisions included) plus, in the melding games, the compound openings that the
engine accepts but does not enumerate: every collection of two or more disjoint melds from the hand
that passes ``Round.check`` (up to :data:`MAX_COMPOUND_OPENINGS` per decision; the best opening is
always among the candidates). The melds of an opening are spelled in a canonical order
(:func:`canonical`), so one opening has one spelling. An action written otherwise (by a person, a bot,
a record) is spelled as the trie offers it by :func:`spelling`, or through the candidate that plays it
(:func:`equivalent_candidate`: a lay-off's run end named where only one fits, a set's cards in
another order); :meth:`TokenGame.spell <rummykit.envs.game.TokenGame.spell>` does both.

===============  ==========  ==================================================================
token            ids         meaning
===============  ==========  ==================================================================
``DRAW``         0           ``draw``: take the top card of the stock (complete action)
``TAKE``         1           ``take``: take the top discard (complete action; gin: also the
                             first upcard)
``OPEN``         2           start an opening (``open``); card tokens follow, meld by meld
``MELD``         3           start further melds (``meld``)
``LAYOFF``       4           start a lay-off: a card token, a ``TARGET`` token, maybe ``LOW``/``HIGH``;
                             gin: a card token alone (``layoff 5H``: the card goes wherever it fits)
``SWAP``         5           start a joker exchange: card tokens, ``TARGET``, then-clauses
``DISCARD``      6           start a discard: one card token follows
``KNOCK``        7           start a knock (knock games): one card token follows; gin: the
                             knock itself (complete action; the knock discard, the melds and
                             ``PASS`` follow as actions of their own)
``RUMMY``        8           start a Rummy call (knock games): one card token follows
``BUYBACK``      9           match decision: buy back into the rubber (complete action)
``DECLINE``      10          match decision: decline the buy-back (complete action)
``CARD c``       11–63       the card with code ``c`` (0–51 naturals as in :mod:`rummykit.cards`,
                             52 the joker); in a meld in written order (runs low to high)
``NEXT``         64          ``|``: the current meld is complete, the next meld of the action starts
``LOW``          65          the lay-off goes at the low end of the run
``HIGH``         66          the lay-off goes at the high end of the run
``THEN_MELD``    67          joker exchange: the freed joker(s) go into the new meld(s) that follow
``THEN_LAYOFF``  68          joker exchange: the freed joker is laid off (card, ``TARGET``, end)
``DONE``         69          apply the action spelled so far (only when a longer candidate exists)
``TARGET m``     70–105      table meld ``m`` (1 to :data:`MAX_TABLE_MELDS`, numbered as in actions)
``PASS``         106         gin: ``pass`` (complete action): decline the first upcard, let the
                             hand die at the wall, end the knocker's melds, end the lay-offs,
                             end the defender's melds
===============  ==========  ==================================================================

Gin's decisions (RULES.md §5.4) are spelled with the same tokens: ``take``/``PASS`` on the first
upcard, ``draw``/``take``, ``discard C`` or ``KNOCK`` after the draw, ``KNOCK``/``PASS`` at the wall,
then the knocker's ``discard C``, one ``MELD`` … per meld and ``PASS``, the defender's ``LAYOFF C``
and ``PASS``, its own melds one by one and ``PASS``. The ``knock C`` shortcut the engine accepts for
people (knock, discard, best melds, pass in one) is not offered: its steps are.

Version history:

* **v1** (this layout): ``PASS`` (106) added and the gin spellings above, so gin is playable;
  ``Discrete(107)``. Tokens 0–105 mean what they meant in v0 and no other rule set ever allows
  ``PASS``, so outside gin a v0 policy plays v1 unchanged (the policy bot reads v0 files).
* **v0**: first release, ``Discrete(106)``; gin refused.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, NoReturn, Protocol, cast

import numpy as np
import numpy.typing as npt

from rummykit import solver
from rummykit.actions import (
    Action,
    BuyBack,
    CallRummy,
    Decline,
    Discard,
    Draw,
    Knock,
    KnockDeclare,
    LayOff,
    LayOffCard,
    MeldAction,
    Open,
    Pass,
    Swap,
    TakeDiscard,
)
from rummykit.cards import NUM_CODES, Card
from rummykit.determinize import sample_round
from rummykit.envs.compiled import NATIVE
from rummykit.errors import RulesError, RummyError
from rummykit.match import Match
from rummykit.melding import MELDING_FAMILY
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.state import RoundState
from rummykit.views import Phase, PlayerView, TableMeld

ENCODING_VERSION: Final = 1

DRAW: Final = 0
TAKE: Final = 1
OPEN: Final = 2
MELD: Final = 3
LAYOFF: Final = 4
SWAP: Final = 5
DISCARD: Final = 6
KNOCK: Final = 7
RUMMY: Final = 8
BUYBACK: Final = 9
DECLINE: Final = 10
NUM_VERBS: Final = 11
CARD0: Final = 11
NEXT: Final = CARD0 + NUM_CODES
LOW: Final = NEXT + 1
HIGH: Final = NEXT + 2
THEN_MELD: Final = NEXT + 3
THEN_LAYOFF: Final = NEXT + 4
DONE: Final = NEXT + 5
TARGET0: Final = DONE + 1
MAX_TABLE_MELDS: Final = 36
"""Table meld numbers the encoding can name: a deck of at most 110 cards holds at most 36 melds."""
PASS: Final = TARGET0 + MAX_TABLE_MELDS
NUM_TOKENS: Final = PASS + 1
V0_TOKENS: Final = PASS
"""Encoding v0's space: the tokens below ``PASS`` (their meaning is unchanged in v1)."""

MAX_COMPOUND_OPENINGS: Final = 256
"""Compound openings offered per decision beyond ``legal_actions()`` (the search stops there)."""

VERB_NAMES: Final = ("draw", "take", "open", "meld", "layoff", "swap", "discard", "knock", "rummy",
                     "buyback", "decline")


def card_token(card: int) -> int:
    return CARD0 + card


def target_token(number: int) -> int:
    """The token of table meld ``number`` (numbered from 1)."""
    if not 1 <= number <= MAX_TABLE_MELDS:
        raise RulesError(f"table meld {number} is beyond the encoding's {MAX_TABLE_MELDS} melds")
    return TARGET0 + number - 1


def token_name(token: int) -> str:
    """A readable name: ``open``, ``7H``, ``meld 3``, ``|``, ``done`` …"""
    if token < NUM_VERBS:
        return VERB_NAMES[token]
    if token < NEXT:
        return str(Card(token - CARD0))
    if token == PASS:
        return "pass"
    if token >= TARGET0:
        return f"meld {token - TARGET0 + 1}"
    return {NEXT: "|", LOW: "low", HIGH: "high", THEN_MELD: "then meld", THEN_LAYOFF: "then layoff",
            DONE: "done"}[token]


def check_rules(rules: Rules) -> None:
    """Refuse rule sets whose table could hold more melds than the encoding names."""
    if rules.deck_size // 3 > MAX_TABLE_MELDS:
        raise RulesError(
            f"the environment names at most {MAX_TABLE_MELDS} table melds; a {rules.deck_size}-card deck "
            "could hold more"
        )


def _melds_tokens(melds: Iterable[Sequence[int]]) -> list[int]:
    out: list[int] = []
    for i, meld in enumerate(melds):
        if i:
            out.append(NEXT)
        out += [CARD0 + c for c in meld]
    return out


def _layoff_tokens(layoff: LayOff) -> list[int]:
    out = [CARD0 + layoff.card, target_token(layoff.target)]
    if layoff.end is not None:
        out.append(LOW if layoff.end == "low" else HIGH)
    return out


def _swap_tokens(action: Swap) -> list[int]:
    out = [SWAP, *(CARD0 + c for c in action.cards), target_token(action.target)]
    if action.melds:
        out += [THEN_MELD, *_melds_tokens(action.melds)]
    for layoff in action.layoffs:
        out += [THEN_LAYOFF, *_layoff_tokens(layoff)]
    return out


_SPELLERS: Final[dict[type[Action], Callable[[Any], list[int]]]] = {
    Draw: lambda a: [DRAW],
    TakeDiscard: lambda a: [TAKE],
    BuyBack: lambda a: [BUYBACK],
    Decline: lambda a: [DECLINE],
    Pass: lambda a: [PASS],
    KnockDeclare: lambda a: [KNOCK],
    Discard: lambda a: [DISCARD, CARD0 + a.card],
    Knock: lambda a: [KNOCK, CARD0 + a.card],
    CallRummy: lambda a: [RUMMY, CARD0 + a.card],
    LayOffCard: lambda a: [LAYOFF, CARD0 + a.card],
    Open: lambda a: [OPEN, *_melds_tokens(a.melds)],
    MeldAction: lambda a: [MELD, *_melds_tokens(a.melds)],
    LayOff: lambda a: [LAYOFF, *_layoff_tokens(a)],
    Swap: _swap_tokens,
}
"""The speller of each action class (looked up by exact class: actions are final dataclasses)."""


def tokens_of(action: Action) -> list[int]:
    """The spelling of ``action`` (see the table in the module docstring)."""
    speller = _SPELLERS.get(type(action))
    if speller is None:
        raise TypeError(f"no spelling for {action!r}")
    return speller(action)


def canonical(action: Action) -> Action:
    """One representative of equivalent spellings: the melds of an opening or a further meld sorted
    (laying melds together does not depend on their order)."""
    if isinstance(action, Open) and len(action.melds) > 1:
        return Open(tuple(sorted(action.melds)))
    if isinstance(action, MeldAction) and len(action.melds) > 1:
        return MeldAction(tuple(sorted(action.melds)))
    return action


def spelling(comp: TokenComposer, action: Action) -> list[int] | None:
    """The tokens that make ``comp`` apply ``action`` from where it stands: the spelling of its
    :func:`canonical` form, with ``DONE`` after it where a longer candidate goes on from there;
    ``None`` when no candidate of ``comp`` is so spelled. ``comp`` itself does not move.

    >>> import rummykit as rk
    >>> rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
    >>> spelling(composer(rnd.legal_actions()), rk.Action.parse("draw")) == [DRAW]
    True
    """
    probe = comp.copy()
    tokens = tokens_of(canonical(action))
    done: Action | None = None
    for token in tokens:
        if done is not None or not probe.is_allowed(token):
            return None
        done = probe.step(token)
    if done is None:
        if not probe.is_allowed(DONE):
            return None
        tokens.append(DONE)
    return tokens


def meld_key(meld: TableMeld) -> tuple[Any, ...]:
    """What tells a table meld from another in play: its owner, kind, cards (a set's in any order:
    sorted) and the run's or set's place (start and suit, rank). Two melds of one key lay the same
    cards in the same place, whichever order they were written in."""
    m = meld.meld
    return (meld.owner, m.kind, tuple(sorted(m.cards)), m.start, m.suit, m.rank)


_STATE_FIELDS: Final = tuple(
    f.name for f in dataclasses.fields(RoundState) if f.compare and f.name != "melds"
)
"""The fields of :class:`RoundState` that decide a position, but for the table's melds."""


def position_key(rnd: Round) -> tuple[Any, ...]:
    """``rnd``'s position up to the order of its table's melds and of the cards of its sets: two
    rounds of one key go on alike, but for the numbers of their table melds (:func:`meld_key`)."""
    state = rnd.live_state()
    return (
        tuple(getattr(state, name) for name in _STATE_FIELDS),
        sorted(meld_key(m) for m in state.melds),
    )


def _laid_cards(action: Action) -> tuple[Card, ...]:
    """The cards ``action`` puts on the table or the pile, sorted (none for a draw or a decision)."""
    if isinstance(action, (Open, MeldAction)):
        return tuple(sorted(action.cards))
    if isinstance(action, Swap):
        cards = [*action.cards, *(c for m in action.melds for c in m), *(lo.card for lo in action.layoffs)]
        return tuple(sorted(cards))
    card = getattr(action, "card", None)
    return () if card is None else (card,)


def equivalent_candidate(game: Round | Match, action: Action, candidates: Iterable[Action]) -> Action | None:
    """The candidate that plays ``action`` written otherwise: one of its kind that lays the same cards
    and leaves the same position up to the order of the table's melds and of a set's cards
    (:func:`position_key`): a lay-off whose run end is named where only one end fits, a set whose
    cards are written in another order (a joker exchange's new meld too). Candidates naming
    the same table meld as ``action`` are tried first. ``None`` when no candidate does, or when the
    engine refuses ``action`` now. ``game`` is not changed: each action is tried on a copy of its
    round."""
    if isinstance(game, Match):
        if game.pending_buyback:  # buy-back decisions have one spelling each
            return None
        game = game.round
    try:
        wanted = position_key(game.child(action))
    except RummyError:
        return None
    laid = _laid_cards(action)
    target = getattr(action, "target", None)
    alike = [c for c in candidates if type(c) is type(action) and _laid_cards(c) == laid]
    alike.sort(key=lambda c: getattr(c, "target", None) != target)
    for candidate in alike:
        try:
            reached = position_key(game.child(candidate))
        except RummyError:  # never for an offered candidate; a caller's list may hold others
            continue
        if reached == wanted:
            return candidate
    return None


def compound_openings(rnd: Round, limit: int = MAX_COMPOUND_OPENINGS) -> list[Action]:
    """Openings of two or more disjoint melds that the engine accepts (``Round.check``), canonical.

    Every collection of disjoint melds from :func:`rummykit.solver.all_melds` is tried in index order
    until ``limit`` legal ones are found (or ``8 * limit`` collections were tried). A collection is
    judged by the engine's test for openings of disjoint melds from the hand
    (:meth:`MeldingFamily.opening_check <rummykit.melding.MeldingFamily.opening_check>`), or by
    ``Round.is_legal`` while a taken discard must still be laid.
    """
    if rnd.rules.is_knock_game or rnd.phase is not Phase.PLAY or rnd.has_opened(rnd.to_move):
        return []
    state = rnd.live_state()
    hand = state.hands[rnd.to_move].cards()  # what the seat's view shows as its hand
    check = MELDING_FAMILY.opening_check(state) if rnd.rules.family == "melding" else None
    melds = solver.all_melds(hand, rnd.rules)
    left = [0] * NUM_CODES
    for c in hand:
        left[c] += 1

    def judge(melds_in_order: tuple[tuple[Card, ...], ...]) -> Action | None:
        if check is None:
            return Open(melds_in_order) if rnd.is_legal(Open(melds_in_order)) else None
        return Open(melds_in_order) if check(melds_in_order) else None

    search = search_openings if NATIVE is None else NATIVE.search_openings
    found: list[Action] = search(melds, left, len(hand), 8 * limit, limit, judge)
    return found


def search_openings(
    melds: Sequence[tuple[Card, ...]],
    left: list[int],
    held: int,
    budget: int,
    limit: int,
    judge: Callable[[tuple[tuple[Card, ...], ...]], Action | None],
) -> list[Action]:
    """The search of :func:`compound_openings` (its compiled twin is ``search_openings`` of
    :mod:`rummykit.envs.compiled`): the collections of two or more of ``melds`` that fit in the
    cards ``left`` (counts per code; ``held`` cards in all), tried in index order, each given to
    ``judge`` with its melds sorted; the actions it returns, until ``limit`` are found or ``budget``
    collections were tried. ``left`` may be changed."""
    # Each meld's cards with their multiplicity, and the cards left, counted per code: a meld fits
    # while every count it needs is left (taken and given back as the search goes down and up).
    needs: list[tuple[tuple[int, int], ...]] = []
    for meld in melds:
        need: dict[int, int] = {}
        for c in meld:
            need[c] = need.get(c, 0) + 1
        needs.append(tuple(need.items()))
    found: list[Action] = []
    tries = [budget]  # collections tried: bounds the work on joker-rich hands
    cards = [held]

    def extend(start: int, chosen: list[tuple[Card, ...]]) -> bool:
        for i in range(start, len(melds)):
            need = needs[i]
            fits = True
            for c, n in need:
                if left[c] < n:
                    fits = False
                    break
            if not fits:
                continue
            tries[0] -= 1
            if tries[0] < 0:
                return True
            meld = melds[i]
            for c, n in need:
                left[c] -= n
            cards[0] -= len(meld)
            chosen.append(meld)
            if len(chosen) > 1:
                opening = judge(tuple(sorted(chosen)))
                if opening is not None:
                    found.append(opening)
                    if len(found) >= limit:
                        return True
            if cards[0] and extend(i + 1, chosen):
                return True
            chosen.pop()
            cards[0] += len(meld)
            for c, n in need:
                left[c] += n
        return False

    extend(0, [])
    return found


def candidate_actions(game: Round | Match) -> list[Action]:
    """The actions the encoding offers now: legal actions plus compound openings, canonical, each
    once, in ``legal_actions()`` order.

    The legal actions are returned as the very objects ``legal_actions()`` gave, so that applying
    one takes the engine's path for offered actions (no second legality check).
    """
    legal = game.legal_actions()
    rnd = game.round if isinstance(game, Match) else game
    rules = rnd.rules
    if rules.is_knock_game or rules.is_gin or (isinstance(game, Match) and game.pending_buyback):
        # No openings: every action has one spelling already (gin lays its melds one at a time, and
        # offers each action once).
        return legal
    return offered(legal, compound_openings(rnd) if rnd.phase is Phase.PLAY else [])


def view_candidate_actions(view: PlayerView, legal: Sequence[Action]) -> list[Action]:
    """What :func:`candidate_actions` offers the seat of ``view`` (on its turn, ``legal`` being its
    legal actions), from what the seat can see: a bot playing a trained policy gets the very choices
    the environment trained it on.

    The compound openings depend on the seat's own hand, the rules and a taken discard that must be
    laid, never on hidden cards; they are found in a round dealt from the view (any deal of the
    hidden cards gives the same openings).
    """
    rules = view.rules
    if rules.is_knock_game or rules.is_gin or view.result is not None:  # a buy-back: no openings
        return list(legal)
    extra: list[Action] = []
    if view.phase is Phase.PLAY and view.is_my_turn and not view.opened[view.seat]:
        extra = compound_openings(sample_round(view, random.Random(0)))
    return offered(legal, extra)


def offered(legal: Sequence[Action], extra: Sequence[Action]) -> list[Action]:
    """The legal actions and the ``extra`` compound openings, canonical, each once, in that order
    (:func:`candidate_actions` of a melding game)."""
    # Only openings, melds and joker exchanges can repeat once canonical: the engine offers every
    # other action once (one draw, one take, one discard per distinct card, one lay-off per card,
    # meld and end), and actions of different kinds are never equal.
    seen: set[Action] = set()
    out: list[Action] = []
    for action in (*legal, *extra):
        kind = type(action)
        if kind is Open or kind is MeldAction or kind is Swap:
            c = canonical(action)
            if c in seen:
                continue
            seen.add(c)
            out.append(c)
        else:
            out.append(action)
    return out


_FIRST_TOKEN: Final[dict[type[Action], int]] = {
    Draw: DRAW, TakeDiscard: TAKE, Open: OPEN, MeldAction: MELD, LayOff: LAYOFF, LayOffCard: LAYOFF,
    Swap: SWAP, Discard: DISCARD, Knock: KNOCK, KnockDeclare: KNOCK, CallRummy: RUMMY,
    BuyBack: BUYBACK, Decline: DECLINE, Pass: PASS,
}
"""The first token of each action class's spelling (the root of the trie needs no more)."""

_SHORT: Final[dict[type[Action], int]] = {
    Draw: 1, TakeDiscard: 1, BuyBack: 1, Decline: 1, Pass: 1, KnockDeclare: 1,
    Discard: 2, Knock: 2, CallRummy: 2, LayOffCard: 2,
}
"""The length of the spelling of the classes spelled as their verb alone or their verb and one card
(``CARD0 + action.card``): the trie reads their tokens off the action without spelling it."""

_SHORT_SPEC: Final[dict[type[Action], tuple[int, bool]]] = {
    kind: (_FIRST_TOKEN[kind], length == 2) for kind, length in _SHORT.items()
}
"""Per class of :data:`_SHORT`: its first token and whether a card token follows."""


def _group_by_first_token(entries: Iterable[_Entry], groups: dict[int, list[_Entry]]) -> None:
    first = _FIRST_TOKEN
    for entry in entries:
        token = first.get(type(entry[1]))
        if token is None:
            raise TypeError(f"no spelling for {entry[1]!r}")
        group = groups.get(token)
        if group is None:
            groups[token] = [entry]
        else:
            group.append(entry)

def _short_children(actions: Sequence[Action]) -> dict[int, _Node | list[_Entry]] | None:
    """The root's children when every candidate is spelled as a verb alone or a verb and a card
    (:data:`_SHORT`: draws, takes, discards, knocks …), built in one pass: a verb's node below the
    root is made at once with its cards grouped, as expanding it would group them (a card offered
    twice keeps the later action, as there). ``None`` for any other candidate, or when one verb is
    spelled both alone and with a card (left to the general path)."""
    spec_of = _SHORT_SPEC
    children: dict[int, _Node | list[_Entry]] = {}
    verbs: dict[int, dict[int, _Node | list[_Entry]]] = {}  # a verb's token: its node's children
    for action in actions:
        spec = spec_of.get(type(action))
        if spec is None:
            return None
        token, with_card = spec
        if with_card:
            below = verbs.get(token)
            if below is None:
                if token in children:
                    return None
                node = _Node(1, None)
                children[token] = node
                below = verbs[token] = node.children
            below[CARD0 + action.card] = [(None, action)]  # type: ignore[attr-defined]  # such classes have .card
        else:
            if token in children:
                return None
            children[token] = [(None, action)]
    return children


_Entry = tuple[list[int] | None, Action]
"""A candidate below a trie node: its spelling (``None`` until a node needs it) and the action."""


class _Node:
    """A trie node, expanded on first use: the tokens that continue from it (each with its node, or
    the candidates below it until a player steps there), and the action whose spelling ends here.
    Only the nodes a player walks through are ever built."""

    __slots__ = ("_allowed", "action", "children", "depth", "entries")

    def __init__(self, depth: int, entries: list[_Entry] | None) -> None:
        self.depth = depth
        self.entries: list[_Entry] | None = entries
        """The candidates below, until :meth:`expand` groups them (``None`` once expanded)."""
        self.children: dict[int, _Node | list[_Entry]] = {}
        self.action: Action | None = None
        self._allowed: list[int] | None = None

    def child(self, token: int) -> _Node | None:
        """The expanded node below ``token``, or ``None`` when no candidate continues with it."""
        child = self.children.get(token)
        if child is None or isinstance(child, _Node):
            return child
        node = self.children[token] = _Node(self.depth + 1, child)
        return node.expand()

    def expand(self) -> _Node:
        entries = self.entries
        if entries is None:
            return self
        self.entries = None
        depth = self.depth
        groups: dict[int, list[_Entry]] = {}
        if depth == 0:
            _group_by_first_token(entries, groups)
        else:
            short = _SHORT
            for entry in entries:
                tokens, action = entry
                length = short.get(type(action))
                if length is not None:  # a verb, or a verb and a card: nothing to spell
                    if depth == length:
                        self.action = action
                        continue
                    token = CARD0 + action.card  # type: ignore[attr-defined]  # every such class has .card
                else:
                    if tokens is None:
                        tokens = tokens_of(action)
                        entry = (tokens, action)
                    if len(tokens) == depth:
                        self.action = action
                        continue
                    token = tokens[depth]
                group = groups.get(token)
                if group is None:
                    groups[token] = [entry]
                else:
                    group.append(entry)
        self.children = cast(dict[int, _Node | list[_Entry]], groups)  # nodes are made when stepped into
        return self

    def may_end(self) -> bool:
        """Whether ``DONE`` is allowed here: an action ends at this node and longer ones go on from it
        (with nothing below, the action is complete without ``DONE``)."""
        return self.action is not None and bool(self.children)

    def allowed(self) -> list[int]:
        """The tokens allowed here, in increasing order (kept: callers must not change the list)."""
        tokens = self._allowed
        if tokens is None:
            tokens = self._allowed = sorted(self.children)
            if self.may_end():
                tokens.append(DONE)
        return tokens

    def mask(self) -> npt.NDArray[np.int8]:
        """The mask at this node, a fresh array (written as bytes: cheaper than a NumPy index)."""
        values = bytearray(NUM_TOKENS)
        for token in self.children:
            values[token] = 1
        if self.may_end():
            values[DONE] = 1
        return np.frombuffer(values, dtype=np.int8)


class Composer:
    """The trie of the candidates' spellings and the player's position in it.

    The trie is built once per decision and lazily: the root groups the candidates by their first
    token alone, and a node spells and groups its candidates only when a player reaches it, so a
    step costs the candidates of the branch taken, not all of them.

    >>> import rummykit as rk
    >>> rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
    >>> comp = Composer(rnd.legal_actions())
    >>> [token_name(t) for t in comp.allowed()]
    ['draw', 'take']
    >>> comp.step(DRAW)
    Draw()
    """

    __slots__ = ("_node", "_root", "tokens")

    def __init__(self, actions: Iterable[Action], short: bool = True) -> None:
        """``short=False`` skips the one-pass build of :func:`_short_children` (for a caller that
        already knows it does not apply)."""
        root = self._root = _Node(0, None)
        if not isinstance(actions, (list, tuple)):
            actions = list(actions)  # read twice when not all of them are short
        children = _short_children(actions) if short else None
        if children is None:
            groups: dict[int, list[_Entry]] = {}
            _group_by_first_token([(None, action) for action in actions], groups)
            children = cast(dict[int, _Node | list[_Entry]], groups)
        root.children = children
        self._node = root
        self.tokens: list[int] = []
        """The tokens stepped so far in this action."""

    def copy(self) -> Composer:
        """A composer at the same position that steps on independently (the trie is shared)."""
        new = Composer.__new__(Composer)
        new._root = self._root
        new._node = self._node
        new.tokens = self.tokens[:]
        return new

    @property
    def is_empty(self) -> bool:
        """No candidate at all (the root has no continuation)."""
        return not self._root.children

    def allowed(self) -> list[int]:
        """The tokens the mask allows now, in increasing order (a fresh list)."""
        return self._node.allowed()[:]

    def mask(self) -> npt.NDArray[np.int8]:
        """The mask now, one ``int8`` per token (a fresh array)."""
        return self._node.mask()

    def is_allowed(self, token: int) -> bool:
        node = self._node
        return token in node.children or (token == DONE and node.may_end())

    def step(self, token: int) -> Action | None:
        """Step ``token``; the completed action, or ``None`` while the spelling goes on.

        Raises:
            ValueError: the mask does not allow ``token``.
        """
        node = self._node
        if token == DONE and node.action is not None and node.children:
            return node.action
        child = node.child(token)
        if child is None:
            _masked_out(token)
        self.tokens.append(token)
        self._node = child
        if child.action is not None and not child.children:
            return child.action
        return None

    def reachable(self) -> list[Action]:
        """Every action reachable from the current position (for tests and tools)."""
        out: list[Action] = []
        stack = [self._node]
        while stack:
            node = stack.pop()
            if node.action is not None:
                out.append(node.action)
            stack.extend(child for token in node.children if (child := node.child(token)) is not None)
        return out


def _masked_out(token: int) -> NoReturn:
    raise ValueError(f"token {token} ({token_name(token) if 0 <= token < NUM_TOKENS else '?'}) is masked out")


class TokenComposer(Protocol):
    """What :class:`Composer` offers: the trie of a decision's candidates and the position in it."""

    @property
    def tokens(self) -> list[int]:
        """The tokens stepped so far in this action (read it; never change it)."""
        ...

    @property
    def is_empty(self) -> bool: ...

    def allowed(self) -> list[int]: ...

    def mask(self) -> npt.NDArray[np.int8]: ...

    def is_allowed(self, token: int) -> bool: ...

    def step(self, token: int) -> Action | None: ...

    def copy(self) -> TokenComposer: ...

    def reachable(self) -> list[Action]: ...


def composer(actions: Sequence[Action]) -> TokenComposer:
    """The trie of ``actions``: a :class:`Composer`, or where the compiled extension was built and
    every candidate is spelled as a verb alone or a verb and one card (draws, takes, discards,
    knocks …: most decisions), its compiled twin, which answers every method as the Composer would."""
    if NATIVE is not None:
        short: TokenComposer | None = NATIVE.ShortComposer.build(actions, _SHORT_SPEC, _masked_out)
        if short is not None:
            return short
        return Composer(actions, short=False)  # the compiled build refuses exactly where the Python one does
    return Composer(actions)
