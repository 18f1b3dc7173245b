"""Game records: rules, deal and actions as JSON, replaying to the identical round or match.

A record holds the rules text, the number of players, the first dealer (and for a match the seat
draw that chose it), the seed (which drives every reshuffle), the deck order of a single round and
the action list in the notation of :mod:`rummykit.actions`. ``Record.loads(rec.dumps()).replay()``
rebuilds the same round or match.

>>> import rummykit as rk
>>> rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
>>> _ = rnd.apply("draw")
>>> text = rk.Record.from_round(rnd).dumps()
>>> rk.Record.loads(text).replay().view(0) == rnd.view(0)
True
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from rummykit.actions import Action
from rummykit.cards import Card, build_deck, format_cards, parse_cards
from rummykit.errors import IllegalActionError, IllegalMeldError, NotationError, RummyError, quoted
from rummykit.match import Match, MatchPosition
from rummykit.record_seats import RecordSeat, read_seats, seats_from_meta
from rummykit.revisions import (
    RULES_REVISION,
    ReadNote,
    RuleChange,
    changes_since,
    older_text,
    plays_text,
    read_rules,
    refusing,
)
from rummykit.round import Round
from rummykit.rules import Rules
from rummykit.seating import FirstDealerDraw
from rummykit.state import RoundState
from rummykit.version import __version__


class ReplayError(NotationError):
    """An action of a record that cannot be applied (:meth:`Record.replay`).

    ``number`` counts the record's actions from 1; ``cause`` is the engine's refusal; ``revision`` is
    the rules revision the record was written under and ``changes`` the changes since then that
    refuse actions under its rules (:mod:`rummykit.revisions`), empty for a record of this version.
    """

    def __init__(
        self,
        message: str,
        number: int,
        action: str,
        cause: RummyError,
        revision: int,
        changes: tuple[RuleChange, ...],
    ) -> None:
        super().__init__(message)
        self.number = number
        self.action = action
        self.cause = cause
        self.revision = revision
        self.changes = changes


FORMAT: Final = "rummykit-record"
VERSION: Final = 1
"""The record version of a game whose seed deals every hand and drives every reshuffle."""
DEALT_VERSION: Final = 2
"""The record version of a game dealt or reshuffled from a secret: version 1 with ``deals`` (every
hand's deck order) and ``reshuffles`` (every reshuffle's stock), which version 1 readers would ignore."""
MAX_ACTION_SHOWN: Final = 200
"""The most characters of a record's action that an error message repeats (the longest a game can
make, an opening of several melds, is under 100)."""


@dataclass(frozen=True, slots=True)
class Record:
    """A replayable record of one round (``kind = "round"``) or a whole match (``"match"``)."""

    kind: Literal["round", "match"]
    rules: Rules
    players: int
    dealer: int
    seed: int
    deck: tuple[Card, ...] | None
    """The deck order of a round (top card first); ``None`` for a match (decks come from the seed)."""
    actions: tuple[Action, ...]
    in_play: tuple[int, ...] | None = None
    """Seats that took part in a round record, when not all of them did."""
    position: MatchPosition | None = None
    """The position a match record started from, when not a fresh series."""
    seat_draw: FirstDealerDraw | None = None
    """The draw that chose a match's first dealer (``dealer`` then repeats its result)."""
    revision: int = RULES_REVISION
    """The rules revision the game was played under (:mod:`rummykit.revisions`): the current one for
    a new record, the file's for one read (0 for a file of before revisions were recorded)."""
    read_notes: tuple[ReadNote, ...] = ()
    """How an older file's rules text was read to keep its meaning
    (:func:`~rummykit.revisions.read_rules`)."""
    rules_text: str | None = None
    """An older file's rules text as it was written: :meth:`to_dict` writes it back with the file's
    revision, so that a record read and written again is read the same way (``None``: the text of
    :attr:`rules`)."""
    deals: tuple[tuple[Card, ...], ...] | None = None
    """A match dealt from a secret (a web table that is not seeded): every hand's deck order, top card
    first, in the order dealt (``deck`` is then ``None`` and the seed deals nothing). ``None``: the
    seed deals every hand after the first."""
    reshuffles: tuple[tuple[tuple[Card, ...], ...], ...] | None = None
    """Where the discard pile was reshuffled from a secret: per hand (a round record has one), the stock
    each reshuffle made, top card last. ``None``: the seed drives the reshuffles."""
    seats: tuple[RecordSeat, ...] | None = None
    """Who played each seat (a person or a bot, never a name) and which of a person's actions a bot
    played for them or they played right after a hint (:mod:`rummykit.record_seats`); ``None``: the
    record does not say. It changes nothing of the game replayed."""

    def rule_changes(self) -> tuple[RuleChange, ...]:
        """The changes since the record's revision that refuse actions or play differently under its
        rules: an older record may fail to replay, or replay to another game, because of them (empty
        for a record of the current revision)."""
        return changes_since(self.revision, self.rules)

    def older_notes(self, lang: str = "en") -> tuple[str, ...]:
        """What a reader should know of an older record, one sentence each in ``lang`` (``en`` or
        ``de``): how its rules text was read (:attr:`read_notes`) and the changes since that deal or
        score its actions differently (a change that refuses one of them stops :meth:`replay`
        instead). Empty for a record of the current revision."""
        plays = plays_text(self.revision, changes_since(self.revision, self.rules, ("plays",)), lang)
        return tuple([note.text(lang) for note in self.read_notes] + ([plays] if plays else []))

    @classmethod
    def from_round(cls, rnd: Round) -> Record:
        """The record of ``rnd``: its deal and every action since.

        Raises:
            NotationError: ``rnd`` was built from a state (a determinization, a position), so no deal
                and actions lead to it; save its state instead (``rnd.state()``, ``Round.from_state``).
        """
        if not rnd.from_deal:
            raise NotationError(
                "this round was built from a state (a determinization or a position), so no deal and "
                "actions replay to it; save rnd.state() and rebuild it with Round.from_state instead"
            )
        in_play = None if len(rnd.in_play) == rnd.seats else rnd.in_play
        actions = tuple(e.action for e in rnd.history)
        # A round that reshuffles from a secret (a web table that is not seeded) keeps the stocks its
        # reshuffles made: the seed would replay other reshuffles.
        reshuffles = None if rnd.reshuffles_follow_seed else (rnd.reshuffled_stocks,)
        record = cls("round", rnd.rules, rnd.seats, rnd.dealer, rnd.seed, rnd.deck, actions, in_play)
        return dataclasses.replace(record, reshuffles=reshuffles)

    @classmethod
    def from_match(cls, match: Match) -> Record:
        """The record of ``match``: its first deal (and the seat draw that chose its dealer, or the
        position it started from) and every round action and match decision since.

        A match dealt otherwise than by its seed (:attr:`Match.deals_follow_seed` false: the server's
        tables that are not seeded deal from a secret, :class:`~rummykit.match.Dealing`) is recorded
        with every deal it made and the stock of every reshuffle (:attr:`deals`, :attr:`reshuffles`),
        since its seed deals nothing: such a record holds every hidden card of the match, so a server
        hands it out only once the match is over. Replayed, it deals them again
        (:class:`RecordedDealing`).
        """
        deals = reshuffles = None
        if not match.deals_follow_seed:
            deals = tuple(r.deck for r in match.rounds)
            reshuffles = tuple(r.reshuffled_stocks for r in match.rounds)
        return cls(
            "match",
            match.rules,
            match.players,
            match.first_dealer,
            match.seed,
            None if deals is not None else match.first_deck,
            tuple(match.actions),
            position=match.position,
            seat_draw=match.seat_draw,
            deals=deals,
            reshuffles=reshuffles,
        )

    def replay(self) -> Any:
        """The round or match after replaying every action (a :class:`Round` or a ``Match``;
        :meth:`replay_round` and :meth:`replay_match` say which to a type checker).

        Raises:
            ReplayError: an action of the record cannot be applied (a :class:`NotationError`).
            NotationError: deals or reshuffles the actions do not use (:meth:`_check_all_used`).
        """
        game = self.start()
        for i, action in enumerate(self.actions, start=1):
            try:
                game.apply(action)
            except RummyError as exc:
                raise self.replay_error(i, action, exc) from None
        self._check_all_used(game)
        return game

    def start(self, free_play: bool = False, free_seed: int | None = None) -> Any:
        """The round or match of the record before its first action (its first deal, and for a
        match the seat draw): where a replay begins, and what a viewer shows first. Unlike
        :meth:`replay` with no actions, it does not ask that the record's deals and reshuffles be
        used (:meth:`_check_all_used`): the actions that use them have not been applied yet.

        ``free_play``: the game may leave the record's actions (a policy evaluated on the record's
        deals). A version-2 record's game then deals the hands beyond its ``deals``, and a reshuffle
        the record does not hold, or whose discard pile holds other cards than the record's, with a
        generator of ``free_seed`` and the hand's number (the record's reshuffles are not used after
        that in the hand), where a replay stops with an error. Give a ``free_seed`` per episode (an
        environment's reset seed): without one the later hands come from the record's seed and the
        reshuffles from the hand's number alone, the same for every episode, which a learner could
        learn.

        Raises:
            NotationError: a round record without its deck, or malformed deals.
            RulesError: a player count, dealer or deal the rules do not allow.
        """
        if self.kind == "round":
            if self.deck is None:
                raise NotationError("a round record needs its deck")
            game: Any = Round.new(
                self.rules,
                self.players,
                deck=self.deck,
                seed=self.seed,
                dealer=self.dealer,
                in_play=self.in_play,
            )
            if self.reshuffles is not None:
                game.use_reshuffle_rng(RecordedShuffles(self.reshuffles[0], 1, free_play, free_seed))
        else:
            # The seed deals a version 1 record's hands after its deck; a version 2 record holds them.
            dealing = (
                None
                if self.deals is None
                else RecordedDealing(self.deals, self.reshuffles, free_play, free_seed)
            )
            game = Match.new(
                self.rules,
                self.players,
                seed=self.seed,
                dealer=self.dealer,
                deck=self.deck,
                position=self.position,
                draw=self.seat_draw,
                dealing=dealing,
            )
        return game

    def _check_all_used(self, game: Any) -> None:
        """A record's deals and reshuffles are the ones its moves make, none left over (a file with
        more would replay, and lose them when written again).

        Raises:
            NotationError: the moves dealt fewer hands, or made other reshuffles, than the record holds.
        """
        rounds: list[Round] = [game] if self.kind == "round" else game.rounds
        if self.deals is not None and len(rounds) != len(self.deals):
            held_deals, dealt = len(self.deals), len(rounds)
            raise NotationError(f"deals held by the record: {held_deals}; hands its moves deal: {dealt}")
        if self.reshuffles is not None:
            made_each = [r.reshuffled_stocks for r in rounds]
            for hand, (made, held) in enumerate(zip(made_each, self.reshuffles, strict=True), 1):
                if len(made) != len(held):
                    count, number = len(held), len(made)
                    raise NotationError(
                        f"reshuffles of hand {hand} held by the record: {count}; made by its moves: {number}"
                    )

    def replay_round(self) -> Round:
        """:meth:`replay` of a round record, typed as a :class:`Round`.

        Raises:
            NotationError: a match record (:meth:`replay_match` replays it), or as :meth:`replay`.
        """
        if self.kind != "round":
            raise NotationError("this is the record of a match: replay it with replay_match()")
        game: Round = self.replay()
        return game

    def replay_match(self) -> Match:
        """:meth:`replay` of a match record, typed as a :class:`Match`.

        Raises:
            NotationError: a round record (:meth:`replay_round` replays it), or as :meth:`replay`.
        """
        if self.kind != "match":
            raise NotationError("this is the record of a single round: replay it with replay_round()")
        game: Match = self.replay()
        return game

    def replay_error(self, number: int, action: Action, exc: RummyError) -> ReplayError:
        """The error for the record's action ``number`` (from 1) that the engine refused with ``exc``;
        for an older record it names the rule changes since that refuse actions under its rules."""
        rule = exc.rule if isinstance(exc, (IllegalActionError, IllegalMeldError)) else None
        changes = refusing(self.revision, self.rules, rule)
        older = older_text(self.revision, changes)
        # The action was read by Action.parse (notation only), but a crafted record's can be
        # hundreds of KB long (a meld of thousands of cards): clipped like a quoted value.
        text = str(action)
        if len(text) > MAX_ACTION_SHOWN:
            text = text[:MAX_ACTION_SHOWN] + "…"
        message = f"record action {number} ({text}) cannot be replayed: {exc}{older}"
        return ReplayError(message, number, text, exc, self.revision, changes)

    def states(self) -> Iterator[RoundState]:
        """The state of the round in play at the start and after each action (independent copies):
        the round itself for a round record, the match's current round for a match record (after a
        round ends, the next deal once no buy-back offer is open).

        The record is replayed once, so stepping through all ``len(actions) + 1`` states costs one
        replay; :meth:`Round.from_state` turns any of them into a round to view or play on.

        >>> import rummykit as rk
        >>> rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=5)
        >>> _ = rnd.apply("draw")
        >>> [s.phase.value for s in rk.Record.from_round(rnd).states()]
        ['draw', 'play']

        Raises:
            ReplayError: an action of the record cannot be applied (a :class:`NotationError`).
        """
        game = self.start()
        yield game.round.state() if self.kind == "match" else game.state()
        for i, action in enumerate(self.actions, start=1):
            try:
                game.apply(action)
            except RummyError as exc:
                raise self.replay_error(i, action, exc) from None
            yield game.round.state() if self.kind == "match" else game.state()

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data: format and version, the rules revision and the rummykit
        version that wrote it, kind, rules text, seats, dealer, seed, the deck, and every action in
        its notation (what :meth:`from_dict` reads back)."""
        dealt = self.deals is not None or self.reshuffles is not None
        data: dict[str, Any] = {
            "format": FORMAT,
            # Version 1 where the seed deals (files older versions read); 2 where the deals are kept,
            # so that a version that knows nothing of them refuses the file instead of replaying
            # other deals.
            "version": DEALT_VERSION if dealt else VERSION,
            "revision": self.revision,
            "rummykit": __version__,
            "kind": self.kind,
            "rules": str(self.rules) if self.rules_text is None else self.rules_text,
            "players": self.players,
            "dealer": self.dealer,
            "seed": self.seed,
        }
        if self.deck is not None:
            data["deck"] = format_cards(self.deck)
        if self.in_play is not None:
            data["in_play"] = list(self.in_play)
        if self.position is not None:
            data["position"] = self.position.to_dict()
        if self.seat_draw is not None:
            data["seat_draw"] = self.seat_draw.to_dict()
        if self.deals is not None:
            data["deals"] = [format_cards(deck) for deck in self.deals]
        if self.reshuffles is not None:
            data["reshuffles"] = [[format_cards(stock) for stock in hand] for hand in self.reshuffles]
        if self.seats is not None:
            data["seats"] = [seat.to_dict() for seat in self.seats]
        data["actions"] = [str(a) for a in self.actions]
        return data

    def dumps(self, indent: int | None = 1) -> str:
        """:meth:`to_dict` as JSON text (``indent=None``: one line, as self-play batches keep it)."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def dump(self, path: str | Path) -> None:
        """Write :meth:`dumps` to ``path`` (UTF-8, a newline at the end)."""
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def loads(cls, text: str) -> Record:
        """Read a record from JSON text.

        Raises:
            NotationError: not JSON, not a rummykit record, or a malformed field (named).
            RulesError: the rules text is invalid.
        """
        try:
            data = read_json(text)
        except ValueError as exc:
            raise NotationError(f"a record must be JSON: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record from a JSON file.

        Raises:
            NotationError: an unreadable file, or as :meth:`loads`.
            RulesError: the rules text is invalid.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise NotationError(f"cannot read record {str(path)!r}: {exc.strerror}") from None
        return cls.loads(text)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """A record from :meth:`to_dict`'s data, every field checked (seats and dealer against the
        rules before anything is sized by them). A file without ``seats`` whose ``meta.players`` (a
        terminal save of before ``seats``) lists every seat is read with those seats' kinds.

        Raises:
            NotationError: not a rummykit record, another version, or a malformed field (named).
            RulesError: the rules text is invalid, or the table is not one the rules allow.
        """
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise NotationError(f'not a rummykit record (expected "format": "{FORMAT}")')
        version = data.get("version")
        if version not in (VERSION, DEALT_VERSION) or isinstance(version, bool):
            raise NotationError(
                f"unsupported record version {quoted(version)}; this version reads {VERSION} and "
                f"{DEALT_VERSION}"
            )
        kind = data.get("kind", "round")
        if kind not in ("round", "match"):
            raise NotationError(f"record kind must be 'round' or 'match', not {quoted(kind)}")

        def integer(name: str) -> int:
            value = data.get(name)
            if isinstance(value, bool) or not isinstance(value, int):
                value = quoted(value)  # clipped and escaped: the file may hold a MB of text there
                raise NotationError(f"record field {name!r} must be an integer, not {value}")
            return value

        revision = data.get("revision", 0)
        if isinstance(revision, bool) or not isinstance(revision, int) or revision < 0:
            shown = f"{revision!r:.20}"
            raise NotationError(f"record field 'revision' must be a rules revision (0 or more), not {shown}")
        rules_text = data.get("rules")
        if not isinstance(rules_text, str):
            raise NotationError("record field 'rules' must be the rules text, e.g. 'german'")
        if revision > RULES_REVISION:
            writer = data.get("rummykit")
            newer = "rummykit"
            if isinstance(writer, str) and writer.isprintable():
                newer = f"rummykit {writer[:20]}"
            raise NotationError(
                f"this record was written by a newer {newer} under rules revision {revision}; this "
                f"version plays revision {RULES_REVISION} and cannot be sure to replay it as it was "
                "played: update rummykit"
            )
        read = read_rules(rules_text, revision)
        rules = read.rules
        deck: tuple[Card, ...] | None = None
        deck_text = data.get("deck")
        if kind == "round" or deck_text is not None:
            if not isinstance(deck_text, str):
                raise NotationError("record field 'deck' must be the deck order as card text")
            deck = parse_cards(deck_text)
        position = _position(data.get("position"))
        in_play_data = data.get("in_play")
        in_play: tuple[int, ...] | None = None
        if in_play_data is not None:
            if not isinstance(in_play_data, list) or not all(
                isinstance(s, int) and not isinstance(s, bool) for s in in_play_data
            ):
                raise NotationError("record field 'in_play' must be a list of seat numbers")
            in_play = tuple(in_play_data)
        players = integer("players")
        rules.check_table(players, integer("dealer"))  # before anything is sized by the seat count
        draw_data = data.get("seat_draw")
        seat_draw = None if draw_data is None else FirstDealerDraw.from_dict(draw_data, players, rules)
        if seat_draw is not None and seat_draw.dealer != integer("dealer"):
            raise NotationError("record field 'dealer' is not the dealer its seat draw chose")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise NotationError("record field 'actions' must be a list of action texts")
        deals, reshuffles = _dealt(data, version == DEALT_VERSION, kind, rules, len(actions))
        if deals is not None and deck is not None:
            raise NotationError("a record with 'deals' has no 'deck' (the first deal is its first deck)")
        seats_data = data.get("seats")
        if seats_data is None:  # a terminal save of before 'seats': its meta says who played
            seats = seats_from_meta(data.get("meta"), players)
        else:
            seats = read_seats(seats_data, players, len(actions))
        return cls(
            kind,
            rules,
            players,
            integer("dealer"),
            integer("seed"),
            deck,
            tuple(Action.parse(a) for a in actions),
            in_play,
            position,
            seat_draw,
            revision,
            read.notes,
            rules_text if revision < RULES_REVISION else None,
            deals,
            reshuffles,
            seats,
        )


def read_json(text: str) -> Any:
    """``json.loads(text)`` for files from anywhere (records, saves).

    Raises:
        ValueError: not JSON (the parser's reason), a number of more digits than Python reads, or
            nesting too deep to read; the message says which in a few words.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # Python's limit on the digits of an integer it converts (4,300)
        raise ValueError("a number in it has too many digits") from None
    except RecursionError:
        raise ValueError("it is nested too deeply to read") from None


def _position(data: Any) -> MatchPosition | None:
    if data is None:
        return None
    if not isinstance(data, dict):
        raise NotationError("record field 'position' must be an object")

    def seats(name: str, kind: type) -> tuple[Any, ...] | None:
        value = data.get(name)
        if value is None:
            return None
        if not isinstance(value, list) or not all(type(v) is kind for v in value):
            raise NotationError(f"record position field {name!r} must be a list of {kind.__name__}")
        return tuple(value)

    totals = seats("totals", int)
    pot = data.get("pot", 0)
    hands = data.get("hands_dealt", 0)
    if totals is None or type(pot) is not int or type(hands) is not int:
        raise NotationError("record position needs 'totals' and integer 'pot' and 'hands_dealt'")
    return MatchPosition(
        totals,
        seats("gains", int),
        seats("chips", int),
        pot,
        seats("buybacks", int),
        seats("eliminated", bool),
        hands,
        seats("hands_won", int),
    )


def _dealt(
    data: dict[str, Any], dealt_version: bool, kind: str, rules: Rules, actions: int
) -> tuple[tuple[tuple[Card, ...], ...] | None, tuple[tuple[tuple[Card, ...], ...], ...] | None]:
    """A version-2 record's ``deals`` and ``reshuffles`` (:attr:`Record.deals`,
    :attr:`Record.reshuffles`), each checked: every deal is exactly the rules' deck, and there are
    no more deals or reshuffles than the actions can use (a hand takes at least one action, each
    reshuffle a draw).

    Raises:
        NotationError: a malformed field, or one a version-1 record holds.
    """
    deals_data, reshuffles_data = data.get("deals"), data.get("reshuffles")
    if not dealt_version:
        if deals_data is not None or reshuffles_data is not None:
            raise NotationError(f"record fields 'deals' and 'reshuffles' need record version {DEALT_VERSION}")
        return None, None
    if deals_data is None and reshuffles_data is None:
        raise NotationError(f"a version {DEALT_VERSION} record holds its 'deals' or its 'reshuffles'")
    deals: tuple[tuple[Card, ...], ...] | None = None
    if deals_data is not None:
        if kind != "match":
            raise NotationError("record field 'deals' belongs to a match record (a round has its 'deck')")
        if not isinstance(deals_data, list) or not 1 <= len(deals_data) <= actions + 1:
            raise NotationError("record field 'deals' must be a list of deck orders, one per hand dealt")
        expected = sorted(build_deck(rules.num_decks, rules.jokers_total))
        read: list[tuple[Card, ...]] = []
        for number, text in enumerate(deals_data, start=1):
            if not isinstance(text, str):
                raise NotationError(f"record deal {number} must be a deck order as card text")
            deck = parse_cards(text)
            if sorted(deck) != expected:
                size = len(expected)
                raise NotationError(f"record deal {number} is not the {size}-card deck of {rules.name}")
            read.append(deck)
        deals = tuple(read)
    reshuffles: tuple[tuple[tuple[Card, ...], ...], ...] | None = None
    if reshuffles_data is not None:
        hands = 1 if kind == "round" else None if deals is None else len(deals)
        if (
            not isinstance(reshuffles_data, list)
            or (hands is not None and len(reshuffles_data) != hands)
            or not all(isinstance(h, list) and all(isinstance(s, str) for s in h) for h in reshuffles_data)
            or sum(len(hand) for hand in reshuffles_data) > actions
        ):
            if kind == "match":
                raise NotationError(
                    "record field 'reshuffles' must list the stock of each reshuffle as card text, one "
                    "list per hand dealt"
                )
            raise NotationError(
                "record field 'reshuffles' must list the stock of each reshuffle as card text, in one list "
                "(the round's)"
            )
        reshuffles = tuple(tuple(parse_cards(stock) for stock in hand) for hand in reshuffles_data)
    if kind == "match" and deals is None:
        raise NotationError("a match record with 'reshuffles' holds its 'deals' too")
    return deals, reshuffles


class RecordedShuffles(random.Random):
    """A hand's reshuffles of the discard pile as a record keeps them: each :meth:`shuffle` puts the
    next recorded stock in place of the pile, after checking that it holds the pile's cards.

    Copies (the engine copies its generator before it draws) go on from where the copy was made.

    ``free_play`` (:meth:`Record.start`): a reshuffle beyond the recorded ones, or of a pile that is
    not the recorded stock's cards, is shuffled by this generator (seeded by ``free_seed`` and the
    hand's number, by the hand's number alone without a ``free_seed``) instead of refused, and the
    recorded stocks are not used after it.
    """

    def __init__(
        self,
        stocks: tuple[tuple[Card, ...], ...],
        hand: int,
        free_play: bool = False,
        free_seed: int | None = None,
    ) -> None:
        super().__init__(hand if free_seed is None else f"rummykit free play {free_seed} {hand}")
        self._stocks = stocks
        self._hand = hand
        self._next = 0
        self._free = free_play
        self._free_seed = free_seed

    def shuffle(self, x: Any) -> None:
        """Replace the pile ``x`` by the next recorded stock.

        Raises:
            NotationError: the record holds no further reshuffle for the hand, or its stock is not the
                pile's cards.
        """
        number = self._next + 1
        if self._free and (self._next >= len(self._stocks) or sorted(self._stocks[self._next]) != sorted(x)):
            self._next = len(self._stocks)  # the game left the record: its later stocks are not its piles
            super().shuffle(x)
            return
        if self._next >= len(self._stocks):
            raise NotationError(
                f"hand {self._hand} reshuffles the discard pile more often than the record holds "
                f"({len(self._stocks)} reshuffles)"
            )
        stock = self._stocks[self._next]
        if sorted(stock) != sorted(x):
            raise NotationError(
                f"reshuffle {number} of hand {self._hand} in the record is not the discard pile's cards"
            )
        x[:] = stock
        self._next += 1

    def __copy__(self) -> RecordedShuffles:
        twin = RecordedShuffles(self._stocks, self._hand, self._free, self._free_seed)
        twin._next = self._next
        twin.setstate(self.getstate())
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> RecordedShuffles:
        return self.__copy__()

    def __reduce__(self) -> tuple[Any, ...]:  # random.Random's would call the class without arguments
        state = (self._stocks, self._hand, self._next, self._free, self.getstate(), self._free_seed)
        return (_recorded_shuffles, state)


def _recorded_shuffles(
    stocks: tuple[tuple[Card, ...], ...],
    hand: int,
    made: int,
    free_play: bool = False,
    state: Any = None,
    free_seed: int | None = None,
) -> RecordedShuffles:
    shuffles = RecordedShuffles(stocks, hand, free_play, free_seed)
    shuffles._next = made
    if state is not None:
        shuffles.setstate(state)
    return shuffles


@dataclass(frozen=True, slots=True)
class RecordedDealing:
    """The dealing of a match replayed from a record's :attr:`~Record.deals` and
    :attr:`~Record.reshuffles` (a web table's match that was dealt from a secret): hand number ``n``
    is dealt the record's ``n``-th deck order and reshuffles into its ``n``-th list of stocks
    (:class:`RecordedShuffles`; none when the record holds no reshuffles for it). ``free_play``
    (:meth:`Record.start`): a hand beyond the record's deals is dealt by a generator of ``free_seed``
    and the hand's number (by the match's seed without a ``free_seed``, the same hands for every
    episode), and the reshuffles play on where the game leaves the record's, shuffled from
    ``free_seed`` and the hand.
    """

    deals: tuple[tuple[Card, ...], ...]
    reshuffles: tuple[tuple[tuple[Card, ...], ...], ...] | None = None
    free_play: bool = False
    free_seed: int | None = None

    def deck(self, rules: Rules, hand: int) -> tuple[Card, ...] | None:
        """The record's deal of hand ``hand``; beyond them in free play a deck shuffled from
        ``free_seed`` and ``hand`` (``None`` without a ``free_seed``: the match's seed deals).

        Raises:
            NotationError: the record holds fewer deals (and play is not free).
        """
        held = len(self.deals)
        if hand > held and self.free_play:
            if self.free_seed is None:
                return None
            deck = list(build_deck(rules.num_decks, rules.jokers_total))
            random.Random(f"rummykit free play deal {self.free_seed} {hand}").shuffle(deck)
            return tuple(deck)
        if hand > held:
            raise NotationError(f"the match deals hand {hand}, but the record holds only {held} deals")
        return self.deals[hand - 1]

    def reshuffle_rng(self, hand: int) -> RecordedShuffles:
        reshuffles = self.reshuffles
        stocks = reshuffles[hand - 1] if reshuffles is not None and hand <= len(reshuffles) else ()
        return RecordedShuffles(stocks, hand, self.free_play, self.free_seed)

    def __deepcopy__(self, memo: dict[int, Any]) -> RecordedDealing:
        return self  # immutable: a copy of the match shares it
