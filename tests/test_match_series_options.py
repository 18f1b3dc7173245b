"""A melding game's series: a hand that ends without a score (``unscored_hand``) and equal totals at
the end (``match_tiebreak``).

Unscored hands come from a passive table (everybody draws from the stock and discards, nobody
melds) under ``max_stock_rebuilds = 0``: the hand ends when the stock runs out. The ties come from an
arranged last hand in which the forehand goes out at once, started from totals that its minus points
even out.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.actions import Discard, Draw
from rummykit.cli import app
from rummykit.cli.screen import match_scoreboard, round_text
from rummykit.envs.game import match_figures
from rummykit.match import MOST_REDEALS_IN_A_ROW, Match, MatchPosition
from rummykit.testing import arrange_deck
from rummykit.views import MatchView
from rummykit.web.protocol import match_json

PASSIVE = "max_stock_rebuilds=0"
GOES_OUT = "10H JH QH KH AH 5C 5D 5S 8S 9S 10S 2D 3D"
"""The forehand's 13 cards; with the 4D drawn they are four melds, laid at once (Hand-Rommé)."""
GOES_OUT_MELDS = "open 10H JH QH KH AH | 5C 5D 5S | 8S 9S 10S | 2D 3D 4D"
LOSER = "JK AS KS QS 8C 7D 4H 9D 6C JS 2S 6H 8H"


def passive(m: Match, rng: random.Random) -> rk.Action:
    legal = m.legal_actions()
    if Draw() in legal:
        return Draw()
    return rng.choice([a for a in legal if isinstance(a, Discard)] or legal)


def play_passively(m: Match, seed: int = 0) -> Match:
    rng = random.Random(seed)
    while not m.is_over:
        m.apply(passive(m, rng))
    return m


def dealers(m: Match) -> list[int]:
    return [r.dealer for r in m.rounds]


# unscored_hand ----------------------------------------------------------------------------------------


def test_an_unscored_hand_counts_by_default_and_the_deal_passes_on() -> None:
    m = play_passively(Match.new(rk.Rules.parse(f"german({PASSIVE})"), 2, seed=1, dealer=0))
    assert dealers(m) == [0, 1]
    assert m.redealt == [] and m.hands_counted == 2
    assert m.winners == (0, 1) and m.scores == (0, 0)


def test_redeal_has_the_same_dealer_deal_again_up_to_the_bound() -> None:
    """Every hand ends unscored: each dealer deals four times (three deals again), then the fourth
    unscored hand counts and the deal passes on; the series of two hands ends after eight deals."""
    rules = rk.Rules.parse(f"german({PASSIVE}, unscored_hand=redeal)")
    m = Match.new(rules, 2, seed=1, dealer=0)
    assert MOST_REDEALS_IN_A_ROW == 3
    seen = []
    rng = random.Random(0)
    while not m.is_over:
        seen.append((len(m.rounds), m.hand_in_series(len(m.rounds)), m.redeals_in_a_row, m.hands_left))
        m.apply(passive(m, rng))
    assert dealers(m) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert m.redealt == [1, 2, 3, 5, 6, 7]
    assert all(not r.result.scored for r in m.rounds if r.result is not None)
    assert m.hands_dealt == 8 and m.hands_counted == 2 and m.hands_left == 0
    firsts = sorted({s for s in seen}, key=lambda s: s[0])
    assert [(d, n, k) for d, n, k, _ in firsts] == [
        (1, 1, 0),
        (2, 1, 1),
        (3, 1, 2),
        (4, 1, 3),
        (5, 2, 0),
        (6, 2, 1),
        (7, 2, 2),
        (8, 2, 3),
    ]
    assert [left for *_, left in firsts] == [1, 1, 1, 1, 0, 0, 0, 0]
    assert [m.times_dealt_again(h) for h in range(1, 9)] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_under_dskv_the_same_seat_sits_out_when_its_hand_is_dealt_again() -> None:
    rules = rk.Rules.parse(f"german_dskv({PASSIVE}, unscored_hand=redeal, num_hands=2)")
    m = play_passively(Match.new(rules, 4, seed=3, dealer=2))
    assert dealers(m) == [2] * 4 + [3] * 4
    assert [3 - len(r.active_seats) for r in m.rounds] == [0] * 8  # three play, the dealer sits out
    assert all(r.dealer not in r.active_seats for r in m.rounds)


def _second_deal_match(rules: rk.Rules) -> Match:
    deck = arrange_deck(rules, 2, [LOSER, GOES_OUT], dealer=0, upcard="2C", stock="4D")
    m = Match.new(rules, 2, seed=5, dealer=0, dealing=_Dealing(deck))
    rng = random.Random(0)
    while len(m.rounds) == 1:
        m.apply(passive(m, rng))
    m.apply("draw")
    m.apply(GOES_OUT_MELDS)
    return m


class _Dealing:
    """A dealing (like the server's) whose second deal is arranged: the forehand goes out at once."""

    def __init__(self, second: Sequence[int]) -> None:
        self.second = tuple(second)

    def deck(self, rules: rk.Rules, hand: int) -> Sequence[int] | None:
        return self.second if hand == 2 else None

    def reshuffle_rng(self, hand: int) -> random.Random | None:
        return None


def test_a_scored_hand_after_a_redeal_counts_and_passes_the_deal_on() -> None:
    rules = rk.Rules.parse(f"german({PASSIVE}, unscored_hand=redeal)")
    m = _second_deal_match(rules)
    assert m.redealt == [1]
    second = m.rounds[1].result
    assert second is not None and second.scored and second.winner == 1 and second.multiplier == 2
    assert dealers(m) == [0, 0, 1]  # the second hand of the series is dealt by the next seat
    assert m.hand_in_series(2) == 1 and m.hand_in_series(3) == 2 and m.hands_left == 0
    assert not m.is_over
    # Under counts the unscored hand is the first of two, and the arranged one (dealt by seat 1, its
    # forehand seat 0 going out at once) ends the series.
    counted = _second_deal_match(rk.Rules.parse(f"german({PASSIVE})"))
    assert counted.is_over and dealers(counted) == [0, 1] and counted.winners == (0,)


def test_records_of_matches_with_redeals_replay_identically() -> None:
    rules = rk.Rules.parse(f"german({PASSIVE}, unscored_hand=redeal)")
    seeded = play_passively(Match.new(rules, 2, seed=1, dealer=0))
    dealt = _second_deal_match(rules)
    play_passively(dealt, seed=2)
    for m in (seeded, dealt):
        record = rk.Record.from_match(m)
        again = rk.Record.loads(record.dumps()).replay()
        assert isinstance(again, Match)
        assert again.redealt == m.redealt and dealers(again) == dealers(m)
        assert again.scores == m.scores and again.winners == m.winners
        assert [r.deck for r in again.rounds] == [r.deck for r in m.rounds]
    assert "deals" in rk.Record.from_match(dealt).to_dict()  # another dealing keeps every deal


@pytest.mark.parametrize("preset", ["german", "german_dskv"])
def test_random_bots_series_with_redeals_end(preset: str) -> None:
    """Random play under rules that end many hands unscored: every match ends, every hand dealt again
    was unscored and is followed by a deal of the same dealer, never more than the bound in a row,
    and the series counts exactly its hands."""
    rules = rk.Rules.parse(f"{preset}(stock_exhaustion=end_hand_no_score, unscored_hand=redeal)")
    players = 4 if preset == "german_dskv" else 3
    seen_redeal = False
    for seed in range(6):
        m = Match.new(rules, players, seed=seed)
        rng = random.Random(seed)
        for _ in range(20_000):
            if m.is_over:
                break
            m.apply(rng.choice(m.legal_actions()) if seed % 2 else passive(m, rng))
        assert m.is_over
        for hand in m.redealt:
            result = m.rounds[hand - 1].result
            assert result is not None and not result.scored
            assert m.rounds[hand].dealer == m.rounds[hand - 1].dealer
        assert max((m.times_dealt_again(h) for h in range(1, len(m.rounds) + 1)), default=0) <= 3
        assert m.hands_counted == players and len(m.rounds) <= 4 * players
        seen_redeal = seen_redeal or bool(m.redealt)
    assert seen_redeal


def test_the_terminal_web_and_environments_number_a_hand_dealt_again_in_the_series() -> None:
    rules = rk.Rules.parse(f"german({PASSIVE}, unscored_hand=redeal)")
    m = Match.new(rules, 2, seed=1, dealer=0)
    rng = random.Random(0)
    while len(m.rounds) < 3:
        m.apply(passive(m, rng))
    score = match_scoreboard(m)
    assert round_text(score) == "hand 1 of 2 (dealt again 2×)"
    assert round_text(score, "de") == "Spiel 1 von 2 (neu gegeben 2×)"
    state = match_json(m)
    assert (state["hands_dealt"], state["hand_number"], state["dealt_again"]) == (3, 1, 2)
    assert [h["dealt_again"] for h in state["hands"]] == [True, True]
    assert match_figures(m).hands_dealt == 1  # the observation's hands stay within num_hands
    assert MatchView.of(m, 0).hands_counted == 1


# match_tiebreak ---------------------------------------------------------------------------------------


def _last_hand(rules: rk.Rules, totals: tuple[int, int], hands_won: tuple[int, int] = (0, 0)) -> Match:
    """The last hand of a series of two (seat 0 deals) in which seat 1 goes out at once."""
    deck = arrange_deck(rules, 2, [LOSER, GOES_OUT], dealer=0, upcard="2C", stock="4D")
    hands = (rules.num_hands or 2) - 1 if rules.match_end == "fixed_hands" else 0
    position = MatchPosition(totals=totals, hands_dealt=hands, hands_won=hands_won)
    m = Match.new(rules, 2, seed=7, dealer=0, deck=deck, position=position)
    m.apply("draw")
    m.apply(GOES_OUT_MELDS)
    return m


def _minus_points() -> int:
    m = _last_hand(rk.Rules.preset("german"), (0, 0))
    result = m.rounds[0].result
    assert result is not None and result.winner == 1
    return result.penalties[0]


@pytest.mark.parametrize(
    ("tiebreak", "hands_won", "winners"),
    [
        ("share", (2, 0), (0, 1)),
        ("most_hands_won", (2, 0), (0,)),  # seat 0 went out twice before, seat 1 once (this hand)
        ("most_hands_won", (1, 0), (0, 1)),  # one each: still shared
        ("best_last_hand", (2, 0), (1,)),  # seat 1 went out in the last hand: 0 minus points
    ],
)
def test_equal_totals_at_the_end_of_a_series(
    tiebreak: str, hands_won: tuple[int, int], winners: tuple[int, ...]
) -> None:
    lost = _minus_points()
    rules = rk.Rules.parse(f"german(match_tiebreak={tiebreak}, num_hands=3)")  # 2 hands before
    m = _last_hand(rules, (0, lost), hands_won)
    assert m.is_over and m.totals == (lost, lost)
    assert m.winners == winners
    assert m.hands_won == [hands_won[0], hands_won[1] + 1]


@pytest.mark.parametrize(("tiebreak", "winners"), [("share", (0, 1)), ("best_last_hand", (1,))])
def test_equal_totals_at_the_penalty_limit(tiebreak: str, winners: tuple[int, ...]) -> None:
    lost = _minus_points()
    limit = 500
    rules = rk.Rules.parse(
        f"german(match_end=penalty_limit, penalty_limit={limit}, match_tiebreak={tiebreak})"
    )
    m = _last_hand(rules, (limit - lost, limit))
    assert m.is_over and m.totals == (limit, limit) and m.winners == winners


def test_a_position_cannot_have_more_hands_won_than_hands_dealt() -> None:
    """The hands won decide most_hands_won: a stranger's record must not claim more than were dealt."""
    rules = rk.Rules.parse("german(match_tiebreak=most_hands_won)")
    impossible = MatchPosition(totals=(0, 0), hands_dealt=1, hands_won=(1000, 0))
    with pytest.raises(rk.RulesError, match=r"hands_won adds up to 1000, more than hands_dealt \(1\)"):
        Match.new(rules, 2, seed=1, position=impossible)
    with pytest.raises(rk.RulesError, match="hands_won adds up to 2,"):
        Match.new(rules, 2, seed=1, position=MatchPosition((0, 0), hands_dealt=1, hands_won=(1, 1)))
    assert Match.new(rules, 2, seed=1, position=MatchPosition((0, 0), hands_dealt=1, hands_won=(1, 0)))
    # Gin's positions give the hands won for its bonuses; a game to a target score counts no hands.
    gin = rk.Rules.parse("gin(match_end=target_score, box_bonus=25)")
    assert Match.new(gin, 2, seed=1, position=MatchPosition((0, 0), gains=(20, 0), hands_won=(2, 0)))


def test_a_tiebreak_without_a_scored_hand_leaves_the_win_shared() -> None:
    rules = rk.Rules.parse(f"german({PASSIVE}, match_tiebreak=best_last_hand, num_hands=1)")
    m = play_passively(Match.new(rules, 2, seed=1, dealer=0))
    assert m.winners == (0, 1)


def test_the_options_apply_to_a_melding_games_series_only() -> None:
    for text, option in (
        ("viennese(unscored_hand=redeal)", "unscored_hand"),
        ("gin(match_tiebreak=most_hands_won)", "match_tiebreak"),
        ("german(match_end=penalty_limit, unscored_hand=redeal)", "unscored_hand"),
        ("scala40(match_tiebreak=best_last_hand)", "match_tiebreak"),
    ):
        with pytest.raises(rk.RulesError, match=f"{option}: does not apply"):
            rk.Rules.parse(text)
    assert rk.Rules.parse("german(match_end=penalty_limit, match_tiebreak=most_hands_won)")


def test_the_replay_says_a_hand_is_dealt_again_and_numbers_it_in_the_series(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "30")
    rules = rk.Rules.parse(f"german({PASSIVE}, unscored_hand=redeal)")
    m = play_passively(Match.new(rules, 2, seed=1, dealer=0))
    path = tmp_path / "redeal.json"
    rk.Record.from_match(m).dump(path)
    again = rk.Record.load(path).start()
    first = 0  # the actions up to the one that ends the first deal
    while len(again.rounds) == 1:
        again.apply(m.actions[first])
        first += 1
    result = CliRunner().invoke(app, ["replay", str(path), "--at", str(first)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Hand 1 over: " in result.output and "the same dealer deals" in result.output
    result = CliRunner().invoke(app, ["replay", str(path), "--at", str(first + 1)], input="q\n")
    assert "hand 1 of 2 (dealt again)" in result.output


# best_last_hand at a DSkV table of four, where the dealer sits each hand out -------------------------

LOSER2 = "2H 3H 4S 6S 7S 9H 7C 9C JC QC KC 3S 7H"


class _TwoDeals:
    """Hand 1 (seat 3 deals and sits out): seats 0 and 1 draw and discard, seat 2 goes out. Hand 2
    (seat 0 deals and sits out): seat 1 goes out at once."""

    def __init__(self, rules: rk.Rules) -> None:
        self.decks = {
            1: arrange_deck(
                rules, 4, [LOSER, LOSER2, GOES_OUT, None], dealer=3, upcard="2C", stock="KD QD 4D"
            ),
            2: arrange_deck(rules, 4, [None, GOES_OUT, LOSER, LOSER2], dealer=0, upcard="2C", stock="4D"),
        }

    def deck(self, rules: rk.Rules, hand: int) -> Sequence[rk.Card]:
        return self.decks[hand]

    def reshuffle_rng(self, hand: int) -> random.Random | None:
        return None


def _dskv_last_two_hands(totals: tuple[int, int, int, int]) -> Match:
    rules = rk.Rules.parse("german_dskv(match_tiebreak=best_last_hand)")
    position = MatchPosition(totals=totals, hands_dealt=2)
    m = Match.new(rules, 4, seed=7, dealer=3, position=position, dealing=_TwoDeals(rules))
    for action in ("draw", "discard KD", "draw", "discard QD", "draw", GOES_OUT_MELDS):
        m.apply(action)
    assert [r.active_seats for r in m.rounds] == [(0, 1, 2), (1, 2, 3)]
    m.apply("draw")
    m.apply(GOES_OUT_MELDS)
    assert m.is_over
    return m


def test_best_last_hand_skips_a_hand_a_tied_seat_sat_out() -> None:
    """Seats 0 and 2 end level; seat 0 dealt the last hand and sat it out (no points there, like a
    winner's 0): the hand before, which both played and seat 2 won, decides."""
    zero = _dskv_last_two_hands((0, 1000, 0, 1000))
    first, last = (r.result for r in zero.rounds)
    assert first is not None and last is not None
    lost_first, lost_last = first.penalties[0], last.penalties[2]
    assert lost_first > 0 and lost_last > 0 and last.points[0] == 0
    m = _dskv_last_two_hands((lost_last, 1000, lost_first, 1000))
    assert m.totals[0] == m.totals[2] == lost_first + lost_last < min(m.totals[1], m.totals[3])
    assert m.winners == (2,)


def test_best_last_hand_shares_the_win_without_a_hand_all_tied_seats_played() -> None:
    """Seat 0 sits the only hand of the match out and ends level with seat 2, who lost it."""
    rules = rk.Rules.parse("german_dskv(match_tiebreak=best_last_hand)")
    deck = arrange_deck(rules, 4, [None, GOES_OUT, LOSER, LOSER2], dealer=0, upcard="2C", stock="4D")
    lost = Match.new(rules, 4, seed=7, dealer=0, deck=deck, position=MatchPosition((0,) * 4, hands_dealt=3))
    lost.apply("draw")
    lost.apply(GOES_OUT_MELDS)
    assert lost.rounds[0].result is not None
    penalty = lost.rounds[0].result.penalties[2]
    position = MatchPosition(totals=(penalty, 1000, 0, 1000), hands_dealt=3)
    m = Match.new(rules, 4, seed=7, dealer=0, deck=deck, position=position)
    m.apply("draw")
    m.apply(GOES_OUT_MELDS)
    assert m.is_over and m.totals[0] == m.totals[2] == penalty
    assert m.winners == (0, 2)


def test_the_replays_hand_command_counts_hands_as_the_header_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``hand N`` goes to the first deal of hand N of the series (a hand dealt again and the deal
    that replaced it share their number), and a number beyond says how many hands the header counts."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "30")
    rules = rk.Rules.parse(f"german({PASSIVE}, unscored_hand=redeal)")
    m = play_passively(Match.new(rules, 2, seed=1, dealer=0))
    assert [m.hand_in_series(d) for d in range(1, len(m.rounds) + 1)] == [1, 1, 1, 1, 2, 2, 2, 2]
    path = tmp_path / "redeal.json"
    rk.Record.from_match(m).dump(path)
    result = CliRunner().invoke(app, ["replay", str(path)], input="hand 2\nq\n")
    assert result.exit_code == 0, result.output
    assert "hand 2 of 2" in result.output and "(dealt again" not in result.output
    result = CliRunner().invoke(app, ["replay", str(path)], input="hand 3\nq\n")
    assert "✗ there are 2 hands in this record" in result.output
    german = CliRunner().invoke(app, ["replay", str(path), "--lang", "de"], input="spiel 3\nq\n")
    assert "✗ diese Aufzeichnung hat 2 Spiele" in german.output


def test_a_tie_broken_says_why_on_the_terminal_and_the_sheet() -> None:
    from rummykit.cli.screen import winners_text
    from rummykit.sheet import ScoreSheet, sheet_text

    lost = _minus_points()
    names = ("Anna", "Ben")
    rules = rk.Rules.parse("german(match_tiebreak=most_hands_won, num_hands=3)")
    broken = _last_hand(rules, (0, lost), (2, 0))
    assert broken.winners == (0,) and broken.tiebreak == "most_hands_won"
    board = match_scoreboard(broken)
    assert "Anna wins the match (scores Anna" in winners_text(broken.winners, names, board).plain
    assert winners_text(broken.winners, names, board).plain.endswith("; tie broken: most hands won")
    german = winners_text(broken.winners, names, board, "de").plain
    assert german.endswith("; Gleichstand entschieden: die meisten gewonnenen Spiele")
    sheet = ScoreSheet.of(broken)
    assert sheet.to_dict()["tiebreak"] == match_json(broken)["tiebreak"] == "most_hands_won"  # the web page
    assert sheet_text(sheet, names).endswith("Winner: Anna (tie broken: most hands won)\n")
    assert "(Gleichstand entschieden: die meisten gewonnenen Spiele)" in sheet_text(sheet, names, "de")
    last = _last_hand(rk.Rules.parse("german(match_tiebreak=best_last_hand, num_hands=3)"), (0, lost))
    assert last.winners == (1,) and last.tiebreak == "best_last_hand"
    shared = _last_hand(rk.Rules.parse("german(num_hands=3)"), (0, lost))
    assert shared.winners == (0, 1) and shared.tiebreak is None and match_json(shared)["tiebreak"] is None
    assert "tie broken" not in winners_text(shared.winners, names, match_scoreboard(shared)).plain
