"""One deal played to its end: :class:`Round`.

A round is created by :meth:`Round.new` (seeded or from an explicit deck order), moves through the
phases of :class:`~rummykit.views.Phase` and ends with a :class:`~rummykit.views.RoundResult`.
Legality lives in one place: :meth:`Round.check` raises an
:class:`~rummykit.errors.IllegalActionError` naming the broken rule, :meth:`Round.apply` checks and
then mutates, returning the recorded :class:`Event`. A failed check leaves the round unchanged.

The turn logic of the two families lives in :mod:`rummykit.melding` (German Rummy, Scala 40, Basic
Rummy: cards go on the table) and :mod:`rummykit.knocking` (Viennese Rummy, Rommé ohne Auslegen:
cards stay in hand until Rummy or a knock); :mod:`rummykit.families` maps ``Rules.family`` to
them. The round's data is one :class:`~rummykit.state.RoundState`: the families plan on it, and only
this module and their checked effects change it; adapters read the round's properties and views.
Every applied action is recorded with the automatic steps it caused (:mod:`rummykit.events`). A
checkpoint every :data:`UNDO_CHECKPOINT_EVERY` actions lets :meth:`Round.undo` take an action back
by replaying at most that many actions, while random play and search pay for a snapshot only once
in that many moves.

>>> import rummykit as rk
>>> rnd = rk.Round.new(rk.Rules.preset("german"), players=3, seed=7)
>>> rnd.phase, rnd.to_move, len(rnd.view(1).hand)
(<Phase.DRAW: 'draw'>, 1, 13)
>>> event = rnd.apply(rk.Action.parse("draw"))
>>> rnd.phase
<Phase.PLAY: 'play'>

Termination (RULES.md §3.13, decision D10): every hand ends, because the stock can be rebuilt at
most ``max_stock_rebuilds`` times (after that an empty stock ends the hand unscored) and at most
``max_takes_in_a_row`` turns in a row may begin without drawing from it (the next take ends the hand
dead); gin has the wall and ``max_upcard_draws``. Only ``max_stock_rebuilds = unlimited`` lifts the
guarantee.
"""

from __future__ import annotations

import enum
import operator
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Final

from rummykit.actions import Action, Draw, Swap, TakeDiscard, canonical_action, passes
from rummykit.cards import JOKER_CODE, Card, Hand, build_deck, parse_cards
from rummykit.errors import IllegalActionError, RulesError, quoted
from rummykit.events import Event as Event
from rummykit.events import record
from rummykit.families import family_for
from rummykit.family import Plan
from rummykit.gin import GIN_PHASES, start_gin
from rummykit.melding_table import jokers_freed
from rummykit.melds import Meld
from rummykit.rules import PACKETS, Rules, check_rules
from rummykit.state import RoundState, whole_placements
from rummykit.views import Phase, PlayerView, RoundResult, TableMeld

# Enum members as module constants: ``Phase.X`` is a class attribute lookup costing ~0.3 us on
# Python 3.11, and the turn flow reads them on every action.
_PHASE_OVER: Final = Phase.OVER

UNDO_CHECKPOINT_EVERY: Final = 8
"""Actions between two undo checkpoints: :meth:`Round.undo` replays at most this many actions, and
every this many actions a snapshot of the state is kept (a snapshot per action cost random
Viennese play about a fifth of its speed)."""


def still_known(known: Hand, held_before: Mapping[Card, int], after: Hand) -> Hand:
    """What the table still knows a seat holds after it laid or discarded cards: ``known`` less one
    copy of a face for every copy of it that left the hand (``held_before``, the copies of each
    known face held before the move, less those held ``after``).

    Faces are alike, so the table cannot tell which copy left: a seat known to hold one 8♠ that
    discards an 8♠ is no longer known to hold one, even when it still holds a second, unseen 8♠
    (keeping ``min(known, held)`` would tell the others about that hidden copy). A joker the move
    put into the hand (a freed joker kept, known to all) is in ``known`` already and does not leave.
    """
    gone = [(c, n - after.count(c)) for c, n in held_before.items() if n > after.count(c)]
    if not gone:
        return known
    kept = known.copy()
    for c, n in gone:
        for _ in range(min(kept.count(c), n)):
            kept.remove(c)
    return kept



def _cards_named(what: str, cards: Sequence[Card], most: int = 6) -> str:
    """``"; missing 7S 7H"`` for an error message: at most ``most`` cards named, then how many more."""
    if not cards:
        return ""
    more = f" and {len(cards) - most} more" if len(cards) > most else ""
    return f"{what} {' '.join(str(c) for c in cards[:most])}{more}"

class RoundStatus(enum.IntFlag):
    """What is wrong with a round's state (python-chess's ``Board.status()``): no flag is a state the
    engine can play on. A state built by hand (:meth:`Round.from_state`) should be checked."""

    VALID = 0
    BAD_SEATS = enum.auto()
    """``in_play``/``active_seats`` are not seats of the table, or per-seat lists have the wrong length."""
    BAD_TO_MOVE = enum.auto()
    """The seat to move does not play this hand."""
    CARDS_NOT_CONSERVED = enum.auto()
    """Hands, stock, discard pile, table and face-down card are not exactly the rules' deck."""
    BAD_PHASE = enum.auto()
    """A phase the family does not have, or ``OVER`` without a result (or a result before it)."""
    MUST_LAY_NOT_HELD = enum.auto()
    """The taken discard that must be laid is not in the mover's hand."""
    BAD_OPENING = enum.auto()
    """A seat owns table melds without having opened, or opened in a later turn than the current."""
    BAD_KNOCK = enum.auto()
    """A knocker or extra turns in a melding game, or seats that do not play this hand."""


def as_seed(seed: object) -> int | None:
    """``seed`` as a Python integer (NumPy's integers included), or ``None``.

    Raises:
        TypeError: anything else: a record stores the seed as an integer, and ``random.Random``
            would take a text or a float and deal a round no record replays.
    """
    if seed is None:
        return None
    try:
        if isinstance(seed, bool):
            raise TypeError
        return operator.index(seed)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"seed must be an integer or None, not {type(seed).__name__} {seed!r}") from None


class Round:
    """One hand (Spiel) from the deal to the result. Create with :meth:`new` or :meth:`from_state`."""

    __slots__ = ("_from_deal", "_history", "_offered", "_state", "_undo")

    _state: RoundState
    _history: list[Event]
    _undo: list[tuple[int, RoundState]]
    """Checkpoints for :meth:`undo`: (number of actions applied, the state before the next one)."""
    _offered: tuple[RoundState, int, tuple[Action, ...]] | None
    """The actions of the last :meth:`legal_actions` list (a copy: a caller may change the list) with
    the state and action count it was made for."""
    _from_deal: bool

    # Construction -------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        rules: Rules,
        players: int,
        *,
        seed: int | None = None,
        deck: Sequence[int] | str | None = None,
        dealer: int = 0,
        in_play: Sequence[int] | None = None,
    ) -> Round:
        """Deal a new hand.

        ``seed`` shuffles the deck and drives every later reshuffle; ``deck`` gives the deck order
        explicitly (top card first, as text or cards), in which case ``seed`` only drives
        reshuffles. Without either a random seed is drawn and kept in ``round.seed``, so a record of
        the round still replays it. ``in_play`` lists the seats that take part (a match leaves out
        eliminated players); by default every seat plays.

        Raises:
            RulesError: a player count outside the rules, a bad dealer seat or a deck that is not
                exactly the rules' deck.
            TypeError: a seed that is not an integer (a record could not store it).
        """
        seed = as_seed(seed)
        check_rules(rules)
        rules.check_table(players, dealer)
        playing = tuple(range(players)) if in_play is None else tuple(sorted(set(in_play)))
        if len(playing) < 2 or not all(0 <= s < players for s in playing):
            shown = quoted(list(playing))
            raise RulesError(f"in_play: {shown} is not a set of at least two seats of {players}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        expected = build_deck(rules.num_decks, rules.jokers_total)
        if deck is None:
            order = list(expected)
            random.Random(seed).shuffle(order)
        else:
            order = list(parse_cards(deck) if isinstance(deck, str) else (Card(c) for c in deck))
            if sorted(order) != sorted(expected):
                given, wanted = Counter(order), Counter(expected)
                extra = sorted((given - wanted).elements())
                missing = sorted((wanted - given).elements())
                raise RulesError(
                    f"deck: the given order holds {len(order)} cards that are not the {len(expected)}-card "
                    f"deck of {rules.name} (num_decks={rules.num_decks}, jokers_total={rules.jokers_total})"
                    + _cards_named("; extra", extra)
                    + _cards_named("; missing", missing)
                )
        rnd = cls._own(_deal(rules, players, dealer, tuple(order), seed, playing))
        rnd._from_deal = True
        return rnd

    @classmethod
    def from_state(cls, state: RoundState) -> Round:
        """A round that goes on from a copy of ``state`` (its history starts empty).

        The state is not checked; :meth:`status` says what is wrong with a hand-built one. Its
        ``placed_turn`` is made consistent with its openings (:func:`~rummykit.state.whole_placements`).
        """
        own = state.copy()
        own.placed_turn = whole_placements(own.opened_turn, own.placed_turn)
        return cls._own(own)

    @classmethod
    def _own(cls, state: RoundState) -> Round:
        rnd = cls.__new__(cls)
        state.steps.clear()
        rnd._state = state
        rnd._history = []
        rnd._undo = []
        rnd._offered = None
        rnd._from_deal = False
        return rnd

    def state(self) -> RoundState:
        """An independent copy of the round's state (:meth:`from_state` goes on from it)."""
        return self._state.copy()

    def live_state(self) -> RoundState:
        """The round's own state, not a copy: for readers that must not pay for a copy or a view on
        every action (the environments' observation encoder reads what a seat's view shows from it).
        Read it; never change it, and do not keep it across actions."""
        return self._state

    def status(self) -> RoundStatus:
        """The problems of the round's state, ``RoundStatus.VALID`` when there are none."""
        return _status(self._state)

    # Public API ---------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """Whether the hand has ended (then :attr:`result` holds its score and no action is legal)."""
        return self._state.phase is _PHASE_OVER

    def legal_actions(self) -> list[Action]:
        """Every action offered to the player to move, in a deterministic order (empty at the end).

        Order: ``draw``, ``take``; openings; melds; lay-offs; joker exchanges; knock-game calls;
        discards; within each kind by card order. Melding games offer every single meld the player
        can lay, the best-value opening and the openings using a just-taken discard (compound
        openings are also accepted by :meth:`check`); see :mod:`rummykit.melding`. Every offered
        action leaves a state from which the hand can still be completed.
        """
        state = self._state
        if state.phase is _PHASE_OVER:
            return []
        offered = family_for(state.rules).legal_actions(state)
        self._offered = (state, len(self._history), tuple(offered))
        return offered

    def check(self, action: Action | str) -> None:
        """Raise an :class:`IllegalActionError` subclass naming the broken rule, or return ``None``
        (``action`` an action or its text, as :meth:`apply` takes it).

        Raises:
            NotationError: ``action`` is text that is not an action.
        """
        self._plan(canonical_action(Action.parse(action) if isinstance(action, str) else action))

    def is_legal(self, action: Action | str) -> bool:
        """Whether :meth:`apply` would take ``action`` now (text that is no action is not legal)."""
        return passes(self.check, action)

    def apply(self, action: Action | str) -> Event:
        """Check ``action`` (an action or its text), apply it and return the recorded event.

        Raises:
            NotationError: ``action`` is text that is not an action.
            IllegalActionError: the action is not allowed now; the round is unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        state = self._state
        seat = state.to_move
        history = self._history
        done = len(history)
        offered = self._offered
        self._offered = None
        effect: Plan | None = None
        over = state.phase is _PHASE_OVER
        if offered is not None and offered[0] is state and offered[1] == done and not over:
            for candidate in reversed(offered[2]):  # discards, the most frequent, come last
                if candidate is action:
                    # One of the actions just offered for this very state: the family may skip its
                    # checks.
                    family = family_for(state.rules)
                    plan = getattr(family, "plan_offered", family.plan)
                    effect = plan(state, action)
                    break
        if effect is None:
            action = canonical_action(action)  # every card a Card, so the record stays notation
            effect = self._plan(action)
        if done % UNDO_CHECKPOINT_EVERY == 0:
            self._undo.append((done, state.snapshot()))
        turn = state.turn
        steps = state.steps
        steps.clear()
        known = state.known_cards[seat]
        held_before = None  # copies of each known face held, when the move may lay or discard them
        if known._size and not isinstance(action, (Draw, TakeDiscard)):  # a draw only adds cards
            hand = state.hands[seat]
            held_before = {c: hand.count(c) for c in set(known.cards())}
        drawn = effect()
        if state.taken_discard is not None and isinstance(action, TakeDiscard):
            state.known_cards[seat] = state.known_cards[seat].plus(state.taken_discard)
            if state.phase is not _PHASE_OVER:  # gin's last counted take ends the hand untaken
                drawn = state.taken_discard  # the card taken, face up: the event names it
        if held_before is not None:
            state.known_cards[seat] = still_known(state.known_cards[seat], held_before, state.hands[seat])
        if steps:
            event = record(done, seat, action, turn, drawn, tuple(steps))
            steps.clear()
        else:
            event = record(done, seat, action, turn, drawn)
        history.append(event)
        return event

    def undo(self) -> Event:
        """Take back the last action: the round is exactly as before it. Returns its event.

        Raises:
            IllegalActionError: no action of this round can be taken back (none was applied since
                the deal or :meth:`from_state`).
        """
        if not self._history or not self._undo:
            raise IllegalActionError("undo: no action to take back", "nothing_to_undo")
        event = self._history.pop()
        # Back to the last checkpoint at or before the target, then forward again through the
        # actions after it; re-applying them records the same events (the rules and the reshuffle
        # generator are deterministic) and lays the checkpoint down again.
        while self._undo[-1][0] > len(self._history):
            self._undo.pop()
        at, saved = self._undo.pop()
        again = self._history[at:]
        del self._history[at:]
        self._state = saved.snapshot()  # checkpoints may be shared by copies of the round
        for old in again:
            self.apply(old.action)
        return event

    def melds_before(self, index: int) -> list[TableMeld]:
        """The table melds (meld 1 first) as they lay before the action of ``history[index]``
        (``index == len(history)``: as they lie now), for a reader of an earlier move: a log names
        the jokers a joker exchange took from the meld as it was then
        (:func:`rummykit.melding_table.jokers_freed`). Replayed on a copy from the undo checkpoint
        before it (as :meth:`undo` does); the round is untouched.

        Raises:
            IndexError: ``index`` is not a position in the history (or before the first action this
                round can replay).
        """
        history = self._history
        if index == len(history):
            return self._state.melds[:]
        if not 0 <= index < len(history):
            raise IndexError(f"no action {index} in a history of {len(history)}")
        checkpoint = next((c for c in reversed(self._undo) if c[0] <= index), None)
        if checkpoint is None:
            raise IndexError(f"action {index} is before the round's first checkpoint")
        at, saved = checkpoint
        probe = Round._own(saved.snapshot())
        for old in history[at:index]:
            probe.apply(old.action)
        return probe._state.melds[:]

    def jokers_freed(self, event: Event) -> int | None:
        """How many jokers the joker exchange recorded as ``event`` took from its meld, read on the
        table as it lay before it (:meth:`melds_before`,
        :func:`rummykit.melding_table.jokers_freed`), for the words of a past move (a log, an undo):
        two naturals may take one joker or two. ``None`` where it cannot be read (not an exchange, or
        before what the round can replay)."""
        if not isinstance(event.action, Swap):
            return None
        try:
            table = self.melds_before(event.index)
        except IndexError:
            return None
        return jokers_freed(event.action, [tm.meld for tm in table], self.rules)

    def _plan(self, action: Action) -> Plan:
        if self._state.phase is _PHASE_OVER:
            raise IllegalActionError(f"{action}: the hand is over", "hand_over")
        return family_for(self._state.rules).plan(self._state, action)

    def copy(self) -> Round:
        """An independent copy: state, history and undo snapshots (melds and events are immutable)."""
        new = Round.__new__(Round)
        new._state = self._state.copy()
        new._history = self._history[:]
        new._undo = self._undo[:]  # checkpoints are never changed in place: undo copies them
        new._offered = None
        new._from_deal = self._from_deal
        return new

    def __copy__(self) -> Round:
        # copy.copy gives an independent copy too: a shallow one would share the state, and its
        # moves would change this round.
        return self.copy()

    def use_reshuffle_rng(self, rng: random.Random) -> None:
        """Drive this round's reshuffles of the discard pile (``stock_exhaustion``) with ``rng``.

        The seed's generator is the default; a server that deals from a secret passes its own keyed
        generator here, so that no reshuffle can be predicted from anything public. Copies and undo
        snapshots keep the generator they were made with (it is copied when it draws).
        """
        self._state.rng = rng

    @property
    def reshuffles_follow_seed(self) -> bool:
        """Whether the reshuffles of the discard pile follow :attr:`seed` (not a generator given to
        :meth:`use_reshuffle_rng`), so that the deal, the seed and the actions replay the round."""
        return type(self._state.rng) is random.Random

    @property
    def reshuffled_stocks(self) -> tuple[tuple[Card, ...], ...]:
        """The stock each reshuffle of the discard pile made so far this hand, in order (top card
        last): hidden information, for a record of a hand that reshuffles from a secret."""
        return self._state.reshuffles

    def child(self, action: Action | str) -> Round:
        """A copy with ``action`` applied; this round is untouched."""
        new = self.copy()
        new.apply(action)
        return new

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may see: own hand, public table and piles, others' card counts."""
        state = self._state
        if isinstance(seat, bool) or not hasattr(seat, "__index__") or not 0 <= seat < state.seats:
            raise IllegalActionError(f"seat {seat!r} does not exist at a table of {state.seats}", "seat")
        over = state.phase is _PHASE_OVER
        # A hand's cards() are in code order, which is suit order (sort_key_by_suit), jokers last;
        # the tuple is kept by the hand until it changes, so a view costs no sorting.
        revealed: list[tuple[Card, ...] | None] = []
        for s, hand in enumerate(state.hands):
            shown = over or s == state.knocker
            revealed.append(hand.cards() if shown else None)
        return PlayerView(
            seat=seat,
            rules=state.rules,
            hand=state.hands[seat].cards(),
            hand_sizes=tuple(len(h) for h in state.hands),
            melds=tuple(state.melds),
            discard_pile=tuple(state.discard_pile),
            stock_size=len(state.stock),
            phase=state.phase,
            to_move=state.to_move,
            opened=tuple(t is not None for t in state.opened_turn),
            scores=state.result.points if state.result else (0,) * state.seats,
            dealer=state.dealer,
            active_seats=state.active_seats,
            turn=state.turn,
            taken_discard=state.taken_discard if not over else None,
            knocker=state.knocker,
            revealed=tuple(revealed),
            result=state.result,
            opened_turn=tuple(state.opened_turn),
            placed_turn=tuple(state.placed_turn),
            must_lay=state.must_lay,
            stock_rebuilds=state.stock_rebuilds,
            takes_in_a_row=state.takes_in_a_row,
            extra_turns=tuple(state.extra_turns),
            known_cards=tuple(k.cards() for k in state.known_cards),
            in_play=state.in_play,
            gin=state.gin,
        )

    def has_opened(self, seat: int) -> bool:
        """Whether ``seat`` has opened in this hand (laid its first melds, worth the opening minimum
        where there is one)."""
        return self._state.has_opened(seat)

    def next_seat(self, seat: int) -> int:
        """The next active seat clockwise."""
        return self._state.next_seat(seat)

    def table_meld(self, number: int) -> Meld:
        """Table meld ``number`` (numbered from 1 as in actions).

        Raises:
            IllegalActionError: there is no such meld.
        """
        return self._state.table_meld(number)

    def all_cards(self) -> list[Card]:
        """Every card of the deck wherever it lies (for conservation checks)."""
        return self._state.all_cards()

    # Read-only fields (names as in PlayerView; older names kept as aliases) ---------------------
    @property
    def rules(self) -> Rules:
        """The rule set the hand is played by."""
        return self._state.rules

    @property
    def seats(self) -> int:
        """The number of seats at the table (those sitting out this hand included)."""
        return self._state.seats

    @property
    def players(self) -> int:
        """Alias of :attr:`seats`."""
        return self._state.seats

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand."""
        return self._state.dealer

    @property
    def in_play(self) -> tuple[int, ...]:
        """The seats still in the match (eliminated seats are left out of the deal)."""
        return self._state.in_play

    @property
    def active_seats(self) -> tuple[int, ...]:
        """Seats that play this hand, in turn order from the forehand."""
        return self._state.active_seats

    @property
    def active(self) -> tuple[int, ...]:
        """Alias of :attr:`active_seats`."""
        return self._state.active_seats

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck as dealt, top card first (what a record stores to replay the hand)."""
        return self._state.deck

    @property
    def seed(self) -> int:
        """The seed of the deal and of every later reshuffle."""
        return self._state.seed

    @property
    def to_move(self) -> int:
        """The seat whose decision is next (after the end: the seat that moved last)."""
        return self._state.to_move

    @property
    def phase(self) -> Phase:
        """Where the turn of :attr:`to_move` stands: drawing, playing, discarding, … or over."""
        return self._state.phase

    @property
    def turn(self) -> int:
        """The number of the current turn, from 0 (each seat's turn counts one)."""
        return self._state.turn

    @property
    def result(self) -> RoundResult | None:
        """The hand's score, winner and how it ended, once :attr:`is_over`; ``None`` before."""
        return self._state.result

    @property
    def from_deal(self) -> bool:
        """Whether the history runs from the deal (:meth:`new`), so that a record of the deck and the
        history replays to this round; a round built :meth:`from_state` starts its history there."""
        return self._from_deal

    @property
    def history(self) -> tuple[Event, ...]:
        """Every applied action's event, in order."""
        return tuple(self._history)

    @property
    def hands(self) -> tuple[Hand, ...]:
        """Copies of every seat's hand (the engine's full knowledge; adapters use :meth:`view`)."""
        return tuple(h.copy() for h in self._state.hands)

    @property
    def stock(self) -> list[Card]:
        """A copy of the stock; its top card is the end of the list."""
        return self._state.stock[:]

    @property
    def stock_size(self) -> int:
        """The number of cards in the stock (no copy made)."""
        return len(self._state.stock)

    @property
    def discard_pile(self) -> list[Card]:
        """A copy of the discard pile, bottom to top."""
        return self._state.discard_pile[:]

    @property
    def melds(self) -> list[TableMeld]:
        """A copy of the table melds (meld 1 first)."""
        return self._state.melds[:]

    @property
    def table(self) -> list[TableMeld]:
        """Alias of :attr:`melds`."""
        return self._state.melds[:]

    @property
    def face_down(self) -> Card | None:
        """The card a player went out or knocked with face down (``final_discard_face_down``)."""
        return self._state.face_down

    @property
    def opened_turn(self) -> tuple[int | None, ...]:
        """Per seat, the turn in which it opened (first laid melds), or ``None``."""
        return tuple(self._state.opened_turn)

    @property
    def taken_discard(self) -> Card | None:
        """The card the player to move took from the discard pile this turn, if any."""
        return self._state.taken_discard

    @property
    def taken(self) -> Card | None:
        """Alias of :attr:`taken_discard`."""
        return self._state.taken_discard

    @property
    def must_lay(self) -> Card | None:
        return self._state.must_lay

    @property
    def pending_taken(self) -> Card | None:
        """Alias of :attr:`must_lay`."""
        return self._state.must_lay

    @property
    def stock_rebuilds(self) -> int:
        return self._state.stock_rebuilds

    @property
    def takes_in_a_row(self) -> int:
        """Turns in a row begun by taking the discard pile (``max_takes_in_a_row``)."""
        return self._state.takes_in_a_row

    @property
    def rebuilds(self) -> int:
        """Alias of :attr:`stock_rebuilds`."""
        return self._state.stock_rebuilds

    @property
    def knocker(self) -> int | None:
        return self._state.knocker

    @property
    def knock_deadwood(self) -> int | None:
        return self._state.knock_deadwood

    @property
    def extra_turns(self) -> tuple[int, ...]:
        return tuple(self._state.extra_turns)

    @property
    def known_cards(self) -> tuple[Hand, ...]:
        return tuple(h.copy() for h in self._state.known_cards)

    def __repr__(self) -> str:
        state = self._state
        return (
            f"<Round {state.rules} players={state.seats} seed={state.seed} turn={state.turn} "
            f"to_move={state.to_move} phase={state.phase.value}>"
        )


def _deal(
    rules: Rules, players: int, dealer: int, order: tuple[Card, ...], seed: int, in_play: tuple[int, ...]
) -> RoundState:
    """The state after the deal (RULES.md §3.3–3.5): cut (optional joker robbing), packets, then the
    upcard or the extra card."""
    clockwise = [(dealer + i) % players for i in range(1, players + 1)]  # forehand first
    sits_out = rules.active_players(len(in_play)) < len(in_play)
    active = tuple(s for s in clockwise if s in in_play and not (sits_out and s == dealer))
    state = RoundState(
        rules=rules,
        seats=players,
        dealer=dealer,
        in_play=in_play,
        active_seats=active,
        hands=[Hand() for _ in range(players)],
        stock=[],
        discard_pile=[],
        melds=[],
        opened_turn=[None] * players,
        placed_turn=[None] * players,
        to_move=active[0],
        phase=Phase.DRAW,
        turn=0,
        rng=random.Random(f"rummykit-reshuffle-{seed}"),
        deck=order,
        seed=seed,
        known_cards=[Hand() for _ in range(players)],
    )
    cards = list(order)
    size = rules.hand_size_for(len(active))
    need = dict.fromkeys(active, size)
    if rules.joker_robbing and cards[-1] == JOKER_CODE:
        cutter = (dealer - 1) % players
        if cutter in need:
            # The card at the bottom of the cut is a joker: the cutter keeps it (decision D17). RULES.md
            # §3.3 says the cutter "may" take it; the engine takes it for them and asks nothing, because
            # a joker is never worse than the card it replaces (with robbed_joker_counts_toward_hand it
            # replaces a dealt card; without, it is a fourteenth card that melds anywhere), so the
            # choice would be a question with one sensible answer at the start of every such deal.
            state.hands[cutter].add(cards.pop())
            if rules.robbed_joker_counts_toward_hand:
                need[cutter] -= 1
    receivers = deal_sequence(rules, active, need)
    for seat, card in zip(receivers, cards, strict=False):
        state.hands[seat].add(card)
    position = len(receivers)
    start = rules.start_mode
    if start in ("dealer_extra_card", "forehand_extra_card"):
        extra_seat = dealer if start == "dealer_extra_card" else active[0]
        if extra_seat not in active:  # the dealer sits out: the forehand takes the extra card
            extra_seat = active[0]
        state.hands[extra_seat].add(cards[position])
        position += 1
        state.to_move = extra_seat
        state.phase = family_for(rules).after_draw_phase
    else:
        state.discard_pile.append(cards[position])
        position += 1
    state.stock = cards[position:][::-1]  # the top of the stock is the end of the list
    if rules.is_gin:
        start_gin(state)  # the knock card (oklahoma) and the first-upcard phase
    elif state.phase is Phase.DRAW:
        state.ensure_stock()
    return state


def _status(state: RoundState) -> RoundStatus:
    status = RoundStatus.VALID
    rules = state.rules
    seats = range(state.seats)
    per_seat = (state.hands, state.opened_turn, state.known_cards, state.placed_turn)
    if (
        any(len(values) != state.seats for values in per_seat)
        or not set(state.active_seats) <= set(state.in_play) <= set(seats)
        or len(state.active_seats) < 2
    ):
        return RoundStatus.BAD_SEATS
    over = state.phase is _PHASE_OVER
    if state.to_move not in state.active_seats and not over:
        status |= RoundStatus.BAD_TO_MOVE
    if Counter(state.all_cards()) != Counter(build_deck(rules.num_decks, rules.jokers_total)):
        status |= RoundStatus.CARDS_NOT_CONSERVED
    phases = set(GIN_PHASES) if rules.is_gin else {Phase.DRAW, Phase.OVER, family_for(rules).after_draw_phase}
    if state.phase not in phases or over != (state.result is not None):
        status |= RoundStatus.BAD_PHASE
    if state.must_lay is not None and (
        state.to_move not in seats or state.must_lay not in state.hands[state.to_move]
    ):
        status |= RoundStatus.MUST_LAY_NOT_HELD
    owners = {tm.owner for tm in state.melds}
    if any(state.opened_turn[s] is None for s in owners) or any(
        t is not None and t > state.turn for t in state.opened_turn
    ):
        status |= RoundStatus.BAD_OPENING
    knock_game = rules.is_knock_game
    if (not knock_game and (state.knocker is not None or state.extra_turns)) or not set(
        state.extra_turns
    ) <= set(state.active_seats):
        status |= RoundStatus.BAD_KNOCK
    if state.knocker is not None and state.knocker not in state.active_seats:
        status |= RoundStatus.BAD_KNOCK
    return status


def deal_sequence(rules: Rules, active: Sequence[int], need: dict[int, int]) -> list[int]:
    """The seat that receives each dealt card in turn: packets (``deal_packets``) clockwise from the
    forehand, then single cards until every hand is full."""
    need = dict(need)
    receivers: list[int] = []
    size = max(need.values(), default=0)
    for packet in (*PACKETS.get(rules.deal_packets, ()), *([1] * size)):
        for seat in active:
            k = min(packet, need[seat])
            receivers += [seat] * k
            need[seat] -= k
    return receivers
