"""``rummykit sheet``: a match record's score sheet (:mod:`rummykit.sheet`) from every kind of record
(terminal save, web download, self-play run) and every family, and its refusals."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import rummykit as rk
from rummykit.actions import Discard, Draw
from rummykit.cli import app
from rummykit.match import Match, MatchPosition
from rummykit.sheet import ScoreSheet, sheet_text
from rummykit.testing import arrange_deck

NAMES = ["Anna", "Ben", "Cleo"]


def random_match(
    rules: rk.Rules,
    players: int,
    seed: int,
    passive_deals: tuple[int, ...] = (),
    position: MatchPosition | None = None,
) -> Match:
    """A match played by random moves (from ``position`` when given); in the deals numbered in
    ``passive_deals`` everybody only draws and discards (so that the stock runs out)."""
    m = Match.new(rules, players, seed=seed, position=position)
    rng = random.Random(seed)
    while not m.is_over:
        legal = m.legal_actions()
        if len(m.rounds) in passive_deals and not m.round.is_over:
            discards = [a for a in legal if isinstance(a, Discard)]
            m.apply(Draw() if Draw() in legal else rng.choice(discards or legal))
        else:
            m.apply(rng.choice(legal))
    return m


def write(path: Path, m: Match, names: list[str] | None = None, **meta: Any) -> Path:
    data = rk.Record.from_match(m).to_dict()
    if names is not None:
        data["meta"] = {"names": names, **meta}
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run(*args: str) -> Any:
    return CliRunner().invoke(app, ["sheet", *args])


def german_with_redeals() -> Match:
    rules = rk.Rules.parse("german(max_stock_rebuilds=0, unscored_hand=redeal)")
    m = random_match(rules, 3, seed=4, passive_deals=(1,))
    assert m.redealt and m.is_over
    return m


def test_the_sheet_of_a_terminal_save_lists_every_deal_totals_and_winner(tmp_path: Path) -> None:
    m = german_with_redeals()
    path = write(tmp_path / "save.json", m, NAMES, players=["human", "greedy", "random"])
    result = run(str(path))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].split()[:3] == ["Hand", "Dealer", "Ended"] and "Anna" in lines[1]
    rows = [line for line in lines[2:] if line and line[0].isdigit()]
    assert len(rows) == len(m.rounds)
    assert "stock out, not scored, dealt again" in rows[0]
    assert rows[0].split()[0] == rows[1].split()[0] == "1"  # a hand dealt again keeps its number
    assert rows[-1].split()[-3:] == [str(t) for t in m.scores]
    winner = ", ".join(NAMES[s] for s in m.winners)
    assert lines[-1] == (f"Winner: {winner}" if len(m.winners) == 1 else f"Winners (shared): {winner}")
    german = run(str(path), "--lang", "de")
    assert german.exit_code == 0 and "Geber" in german.output and "neu gegeben" in german.output


def test_csv_and_json_carry_the_same_figures(tmp_path: Path) -> None:
    m = german_with_redeals()
    path = write(tmp_path / "save.json", m, NAMES)
    rows = list(csv.DictReader(io.StringIO(run(str(path), "--format", "csv").output)))
    hands = [r for r in rows if r["row"] == "hand"]
    assert len(hands) == len(m.rounds)
    assert [r["counted"] == "false" for r in hands] == [d in m.redealt for d in range(1, len(m.rounds) + 1)]
    assert [int(hands[-1][f"total {n}"]) for n in NAMES] == list(m.scores)
    assert rows[-1]["row"] == "result"
    data = json.loads(run(str(path), "--format", "json").output)
    assert data["names"] == NAMES and data["totals"] == list(m.scores) and data["winners"] == list(m.winners)
    assert [h["dealer"] for h in data["hands"]] == [r.dealer for r in m.rounds]
    for hand, rnd in zip(data["hands"], m.rounds, strict=True):
        assert rnd.result is not None and hand["points"] == list(rnd.result.points)
    running = [0, 0, 0]
    for hand in data["hands"]:
        running = [t + p for t, p in zip(running, hand["points"], strict=True)]
        assert hand["totals"] == running


def test_a_german_sheet_of_an_english_save_says_the_games_names_in_german(tmp_path: Path) -> None:
    m = german_with_redeals()
    path = write(tmp_path / "save.json", m, ["You", "Bot 2", "Bot 3"], typed=[False, False, False])
    german = run(str(path), "--lang", "de")
    assert german.exit_code == 0, german.output
    header = german.output.splitlines()[1]
    assert "Du" in header.split() and "You" not in german.output
    data = json.loads(run(str(path), "--format", "json", "--lang", "de").output)
    assert data["names"][0] == "Du"


def test_csv_keeps_a_strangers_names_from_becoming_formulas(tmp_path: Path) -> None:
    """OWASP's CSV injection: a text cell starting with = + - @, a tab or a carriage return gets a
    leading ', so a spreadsheet shows it as text; numbers (minus points too) stay numbers."""
    m = german_with_redeals()
    evil = ['=HYPERLINK("http://x")', "@SUM(A1)", "-2+3"]
    path = write(tmp_path / "save.json", m, evil)
    rows = list(csv.reader(io.StringIO(run(str(path), "--format", "csv").output)))
    cells = [cell for row in rows for cell in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    assert "'=HYPERLINK(\"http://x\")" in cells and "'@SUM(A1)" in cells and "'-2+3" in cells
    hands = [row for row in rows if row[0] == "hand"]
    assert {row[3] for row in hands} <= {f"'{name}" for name in evil}  # the dealer column
    numbers = [int(c) for row in hands for c in row[9:] if c]
    assert any(x < 0 for x in numbers)  # minus points are still numbers, not text
    assert [int(c) for c in hands[-1][-3:]] == list(m.scores)


def test_csv_cell_escapes_text_only() -> None:
    from rummykit.sheet import csv_cell

    assert csv_cell(-30) == -30 and csv_cell(0) == 0
    assert csv_cell("-30") == "'-30" and csv_cell("\tx") == "'\tx" and csv_cell("\rx") == "'\rx"
    assert csv_cell("+1") == "'+1" and csv_cell("Anna") == "Anna" and csv_cell("") == ""


def test_a_hand_romme_shows_its_multiplier() -> None:
    rules = rk.Rules.preset("german")
    deck = arrange_deck(
        rules,
        2,
        ["JK AS KS QS 8C 7D 4H 9D 6C JS 2S 6H 8H", "10H JH QH KH AH 5C 5D 5S 8S 9S 10S 2D 3D"],
        upcard="2C",
        stock="4D",
    )
    m = Match.new(rules, 2, seed=1, dealer=0, deck=deck, position=MatchPosition(totals=(0, 0), hands_dealt=1))
    m.apply("draw")
    m.apply("open 10H JH QH KH AH | 5C 5D 5S | 8S 9S 10S | 2D 3D 4D")
    sheet = ScoreSheet.of(m)
    assert sheet.hands[0].multiplier == 2 and sheet.hands[0].winner == 1
    from rummykit.sheet import sheet_text

    text = sheet_text(sheet, ("Anna", "Ben"))
    assert "Ben went out" in text and "×2" in text and text.endswith("Winner: Ben\n")


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("german", 3),
        ("german_dskv", 4),
        ("german(match_end=penalty_limit, penalty_limit=100)", 2),
        ("scala40", 3),
        ("basic", 2),
        ("viennese", 3),
        ("romme_ohne_auslegen", 2),
        ("gin(match_end=target_score, box_bonus=25, game_bonus=100)", 2),
    ],
)
def test_every_family_s_sheet_adds_up_to_the_match(rules: str, players: int) -> None:
    m = random_match(rk.Rules.parse(rules), players, seed=2)
    sheet = ScoreSheet.of(m)
    decided_by = tuple(m.gains) if m.rules.match_end == "target_score" else m.scores
    assert sheet.totals == decided_by and sheet.winners == m.winners
    assert len(sheet.hands) == len(m.rounds)
    last = sheet.hands[-1].totals
    after = sheet.buybacks[-1].totals if sheet.buybacks and sheet.buybacks[-1].deal == len(m.rounds) else last
    assert tuple(t + b for t, b in zip(after, sheet.bonuses, strict=True)) == decided_by
    if m.is_rubber:
        assert sheet.chips == m.chips


def test_a_rubber_s_buy_back_is_listed_between_the_hands(tmp_path: Path) -> None:
    for seed in range(20):
        m = random_match(rk.Rules.preset("viennese"), 3, seed=seed)
        if any(m.buybacks):
            break
    else:
        pytest.fail("no random rubber bought back")
    sheet = ScoreSheet.of(m)
    assert len(sheet.buybacks) == sum(m.buybacks)
    output = run(str(write(tmp_path / "vie.json", m))).output
    assert "buys back" in output and "Chips:" in output


def test_a_rubber_s_csv_gives_the_buy_backs_price_and_everybody_s_chips_at_the_end(tmp_path: Path) -> None:
    """The scorekeeper settles the chips from the sheet: a buy-back's row says what its buyer paid and
    the result row every seat's chips, as the text sheet's last line; other games get no chip columns."""
    rules = rk.Rules.parse("viennese(buyback_cost=7)")
    for seed in range(40):
        m = random_match(rules, 3, seed=seed, position=MatchPosition(totals=(70, 80, 90)))
        if any(m.buybacks):
            break
    else:
        pytest.fail("no random rubber bought back")
    output = run(str(write(tmp_path / "vie.json", m, NAMES)), "--format", "csv").output
    rows = list(csv.DictReader(io.StringIO(output)))
    bought = [r for r in rows if r["row"] == "buyback"]
    assert len(bought) == sum(m.buybacks)
    for row in bought:
        paid = ["-7" if name == row["winner"] else "" for name in NAMES]
        assert [row[f"chips {name}"] for name in NAMES] == paid
    assert rows[-1]["row"] == "result"
    assert [int(rows[-1][f"chips {name}"]) for name in NAMES] == list(m.chips)
    # Each hand's row the chips it moved (its knock money), a seat not dealt in none; the start row
    # the position's totals, and no chips (it gave none).
    hands = [r for r in rows if r["row"] == "hand"]
    for deal, row in enumerate(hands, start=1):
        dealt = m.rounds[deal - 1].active_seats
        moved = [str(c) if s in dealt else "" for s, c in enumerate(m.hand_chips(deal))]
        assert [row[f"chips {name}"] for name in NAMES] == moved
    assert [rows[0][f"{kind} {name}"] for kind in ("total", "chips") for name in NAMES] == [
        "-70", "-80", "-90", "0", "0", "0"
    ]  # fmt: skip
    assert {r["row"] for r in rows} == {"start", "hand", "buyback", "result"}
    german = german_with_redeals()
    header = run(str(write(tmp_path / "ger.json", german, NAMES)), "--format", "csv").output.splitlines()[0]
    assert "chips" not in header


@pytest.mark.parametrize(
    ("rules", "ante"),
    [
        ("viennese", "per_rubber"),
        ("viennese(ante_frequency=per_hand, knock_money=2, pot_ante=3)", "per_hand"),
    ],
)
def test_a_rubber_s_sheet_settles_its_chips_hand_by_hand(tmp_path: Path, rules: str, ante: str) -> None:
    """A scorekeeper settles a rubber's chips from its sheet: the ante, each hand's knock money (and
    its ante when one is paid every hand), the buy-backs and the pot the winner took add up to the
    chips at the end, in the text, CSV and JSON sheets alike."""
    m = random_match(rk.Rules.parse(rules), 3, seed=5)
    assert m.is_over and m.pot_won
    r = m.rules
    sheet = ScoreSheet.of(m)
    for h in sheet.hands:
        rnd = m.rounds[h.deal - 1]
        assert rnd.result is not None and h.chips is not None
        paid = [-r.pot_ante if ante == "per_hand" and s in rnd.in_play else 0 for s in range(3)]
        if rnd.result.scored:
            dealt = rnd.active_seats
            for s in dealt:
                paid[s] += r.knock_money * (len(dealt) - 1) if s == h.winner else -r.knock_money
        assert h.chips == tuple(paid)
    assert sheet.start_chips == ((-r.pot_ante,) * 3 if ante == "per_rubber" else (0, 0, 0))
    assert sheet.pot_shares == tuple(m.pot_won if s in m.winners else 0 for s in range(3))
    total = list(sheet.start_chips)
    for h in sheet.hands:
        total = [t + c for t, c in zip(total, h.chips or (), strict=True)]
    for b in sheet.buybacks:
        total[b.seat] -= b.chips
    assert tuple(t + p for t, p in zip(total, sheet.pot_shares, strict=True)) == m.chips == sheet.chips
    # Text: a third group of columns, each hand's chips signed; the pot under its winner.
    lines = sheet_text(sheet, tuple(NAMES)).splitlines()
    assert lines[0].split() == ["points", "total", "chips"]
    rows = [line for line in lines if line[:1].isdigit()]
    for h, line in zip(sheet.hands, rows, strict=True):
        shown = [
            ("–" if p is None else f"{c:+d}" if c else "0")
            for p, c in zip(h.points, h.chips or (), strict=True)
        ]
        assert line.split()[-3:] == shown
    pot = next(line for line in lines if line.startswith("Pot:"))
    winner = m.winners[0]
    assert pot.split()[:3] == ["Pot:", str(m.pot_won), "chips"] and pot.split()[-1] == f"+{m.pot_won}"
    end = lines[1].rindex(NAMES[winner]) + len(NAMES[winner])  # the winner's chips column ends there
    assert pot[:end].endswith(f" +{m.pot_won}")
    assert any(line.startswith("Start") for line in lines) == (ante == "per_rubber")
    assert "Pott: " in sheet_text(sheet, tuple(NAMES), "de")
    # CSV: the chips columns of the start, hand and buy-back rows and the pot's shares add up to the
    # result row's chips.
    output = run(str(write(tmp_path / "vie.json", m, NAMES)), "--format", "csv").output
    table = list(csv.DictReader(io.StringIO(output)))
    changes = [0, 0, 0]
    for row in table[:-1]:
        for s, name in enumerate(NAMES):
            changes[s] += int(row[f"chips {name}"] or 0)
    result = [int(table[-1][f"chips {name}"]) for name in NAMES]
    assert [c + p for c, p in zip(changes, sheet.pot_shares, strict=True)] == result == list(m.chips)
    # JSON: the same figures.
    data = json.loads(run(str(write(tmp_path / "vie.json", m, NAMES)), "--format", "json").output)
    assert [h["chips"] for h in data["hands"]] == [list(h.chips or ()) for h in sheet.hands]
    assert data["start_chips"] == list(sheet.start_chips or ())
    assert (data["pot_won"], data["pot_shares"]) == (m.pot_won, list(m.pot_shares()))


def test_a_shared_pot_is_on_the_sheet_as_it_split() -> None:
    """D19: two players out together with equal totals share the pot; its odd chip goes to the first
    of them from the dealer's left. The sheet says what the pot held and each share."""
    from tests.test_match import both_out_at_101

    m = both_out_at_101(chips=(-5, -6, -10), pot=21)
    sheet = ScoreSheet.of(m)
    assert sheet.pot_won == 21 and sheet.pot_shares == (10, 11, 0)
    lines = sheet_text(sheet, tuple(NAMES)).splitlines()
    pot = next(line for line in lines if line.startswith("Pot:"))
    assert pot.split() == ["Pot:", "21", "chips", "+10", "+11"]
    assert lines[-1] == "Chips: Anna 6, Ben 4, Cleo -10"
    assert sheet.to_dict()["pot_shares"] == [10, 11, 0]
    # The position's chips are the start row's; the hand's knock money follows.
    start = next(line for line in lines if line.startswith("Start"))
    assert start.split()[-3:] == ["-5", "-6", "-10"]
    hand = next(line for line in lines if line.startswith("1 "))
    assert hand.split()[-3:] == ["+1", "-1", "–"]


def test_a_rubber_of_four_fits_80_columns_without_its_chips_columns() -> None:
    """The chips columns go before the sheet would not fit a terminal (which then shows no sheet):
    a rubber of four fits 80 columns as it did before they came, the pot and the chips at the end
    said below the table; where there is room they stay."""
    m = random_match(rk.Rules.preset("viennese"), 4, seed=3)
    assert m.is_over and m.pot_won
    sheet = ScoreSheet.of(m)
    names = ("You", "Bot 2", "Bot 3", "Bot 4")
    narrow = sheet_text(sheet, names, width=80).splitlines()
    assert max(map(len, narrow)) <= 80
    assert narrow[0].split() == ["points", "total"]
    winner = names[m.winners[0]]
    assert f"Pot: {m.pot_won} chips ({winner} +{m.pot_won})" in narrow
    assert narrow[-1] == "Chips: " + ", ".join(f"{n} {c}" for n, c in zip(names, m.chips, strict=True))
    wide = sheet_text(sheet, names, width=200).splitlines()
    assert wide[0].split() == ["points", "total", "chips"] and wide == sheet_text(sheet, names).splitlines()


def test_a_dealer_who_sits_out_pays_the_hand_s_ante_on_the_sheet(tmp_path: Path) -> None:
    """At a table of four where the dealer sits the hand out, the dealer is still in the rubber and pays
    a per-hand ante: the sheet shows it in the dealer's chips (not a dash, not an empty cell), so that
    the CSV's and the text's chips columns add up to the chips at the end."""
    rules = rk.Rules.parse("viennese(dealer_sits_out_at_table_of=4, ante_frequency=per_hand, pot_ante=2)")
    m = random_match(rules, 4, seed=2)
    assert m.is_over
    names = [*NAMES, "Dora"]
    sheet = ScoreSheet.of(m)
    first = sheet.hands[0]
    assert first.points[first.dealer] is None and first.chips is not None
    assert first.chips[first.dealer] == -2
    rows = [line for line in sheet_text(sheet, tuple(names)).splitlines() if line[:1].isdigit()]
    assert rows[0].split()[-4:][first.dealer] == "-2"
    output = run(str(write(tmp_path / "four.json", m, names)), "--format", "csv").output
    table = list(csv.DictReader(io.StringIO(output)))
    assert table[0]["row"] == "hand" and table[0][f"chips {names[first.dealer]}"] == "-2"
    changes = [0] * 4
    for row in table[:-1]:
        for s, name in enumerate(names):
            changes[s] += int(row[f"chips {name}"] or 0)
    result = [int(table[-1][f"chips {name}"]) for name in names]
    assert [c + p for c, p in zip(changes, m.pot_shares(), strict=True)] == result == list(m.chips)


def test_a_rubber_with_short_names_narrows_to_80_columns() -> None:
    """Names of three letters or fewer are not cut, but the sheet still narrows (short headers, a
    buy-back's words over the empty columns): a rubber of two whose full sheet is wider than 80
    columns fits, its chips columns kept."""
    m = random_match(rk.Rules.preset("viennese"), 2, seed=5)
    sheet = ScoreSheet.of(m)
    names = ("Jo", "Al")
    assert sheet.buybacks and max(map(len, sheet_text(sheet, names).splitlines())) > 80
    narrow = sheet_text(sheet, names, width=80).splitlines()
    assert max(map(len, narrow)) <= 80
    assert narrow[0].split() == ["points", "total", "chips"]
    assert narrow[1].split()[:2] == ["#", "Dlr"]


def test_a_web_table_s_downloaded_record(tmp_path: Path) -> None:
    from rummykit.web.matches import new_table_match

    rules = rk.Rules.parse("german(unscored_hand=redeal, max_stock_rebuilds=0)")
    m = new_table_match(rules, 2, None, bytes(range(32)), None)
    rng = random.Random(1)
    while not m.is_over:
        m.apply(rng.choice(m.legal_actions()))
    path = write(tmp_path / "web.json", m, ["Anna", "Bot"], players=["human", "greedy"])
    assert json.loads(path.read_text())["version"] == 2
    data = json.loads(run(str(path), "--format", "json").output)
    assert data["totals"] == list(m.scores) and len(data["hands"]) == len(m.rounds)


def test_a_game_of_a_selfplay_run(tmp_path: Path) -> None:
    from rummykit.selfplay import SelfPlayConfig, run_selfplay

    out = tmp_path / "run"
    config = SelfPlayConfig("gin", ("greedy", "random"), games=2, seed=3, mode="matches", batch=2)
    run_selfplay(config, out, workers=1)
    result = run(str(out), "--game", "1")
    assert result.exit_code == 0, result.output
    assert "greedy" in result.output and "random" in result.output
    refused = run(str(out))
    assert refused.exit_code == 2 and "--game" in refused.output
    hands = tmp_path / "hands"
    run_selfplay(SelfPlayConfig("gin", ("greedy", "random"), games=1, seed=3), hands, workers=1)
    one = run(str(hands), "--game", "0")
    assert one.exit_code == 2 and "a single hand, not of a match" in one.output


def test_what_is_not_a_match_record_is_refused(tmp_path: Path) -> None:
    rnd = rk.Round.new(rk.Rules.preset("german"), 2, seed=1)
    one = tmp_path / "round.json"
    rk.Record.from_round(rnd).dump(one)
    refused = run(str(one))
    assert refused.exit_code == 2
    assert "is the record of a single hand, not of a match" in refused.output
    assert "Aufzeichnung eines einzelnen Spiels" in run(str(one), "--lang", "de").output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    assert run(str(junk)).exit_code == 2 and "must be JSON" in run(str(junk)).output
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}', encoding="utf-8")
    assert run(str(other)).exit_code == 2
    missing = run(str(tmp_path / "missing.json"))
    assert missing.exit_code == 2 and "cannot read record" in missing.output
    match_file = write(tmp_path / "m.json", german_with_redeals())
    bad = run(str(match_file), "--format", "xml")
    assert bad.exit_code == 2 and "--format must be text, csv or json" in bad.output


LONG_NAMES = ("Maximiliane Mustermann", "Konstantin von Hohenberg", "Bartholomäus", "Friederike Schulze")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_four_player_dskv_sheet_fits_80_columns_with_long_names(lang: str) -> None:
    """At 80 columns the sheet of a 4-player DSkV match narrows: short headers, names cut with ``…``,
    a hand's end in few words; every number stays, and the winner line names the winner in full."""
    sheet = ScoreSheet.of(random_match(rk.Rules.preset("german_dskv"), 4, seed=2))
    from rummykit.sheet import sheet_text

    full = sheet_text(sheet, LONG_NAMES, lang).split("\n\n")[0].splitlines()
    text = sheet_text(sheet, LONG_NAMES, lang, width=80)
    table, result = text.split("\n\n")
    lines = table.splitlines()
    assert max(map(len, full)) > 80 and max(map(len, lines)) <= 80
    header = lines[1].split()
    assert header[:3] == (["Nr.", "Gb.", "Ende"] if lang == "de" else ["#", "Dlr", "Ended"])
    assert header[3:7] == header[8:] == ["Maxim…", "Konst…", "Barth…", "Fried…"]
    rows = [line.split() for line in lines[2:]]
    assert [row[0] for row in rows] == [str(h.number) for h in sheet.hands]
    assert [int(t) for t in rows[-1][-4:]] == list(sheet.totals)
    assert [row[1] for row in rows] == [LONG_NAMES[h.dealer][:5] + "…" for h in sheet.hands]
    went_out = "aus" if lang == "de" else "out"
    assert rows[0][2:4] == [LONG_NAMES[sheet.hands[0].winner or 0][:5] + "…", went_out]
    assert result.startswith(("Sieger: ", "Winner: ")) and LONG_NAMES[sheet.winners[0]] in result
    # A sheet that fits stays as it is.
    short = ("Anna", "Ben", "Cem", "Dora")
    assert sheet_text(sheet, short, lang, width=200) == sheet_text(sheet, short, lang)


def test_a_narrow_sheet_spans_a_label_over_the_columns_it_leaves_empty() -> None:
    """The end bonuses' label runs over the hand, dealer and end columns instead of widening the
    first; a table that cannot fit at all is returned in full."""
    rules = rk.Rules.parse("gin(match_end=target_score, box_bonus=25, game_bonus=100)")
    sheet = ScoreSheet.of(random_match(rules, 2, seed=2))
    assert any(sheet.bonuses)
    from rummykit.sheet import sheet_text

    lines = sheet_text(sheet, LONG_NAMES[:2], "de", width=70).split("\n\n")[0].splitlines()
    assert max(map(len, lines)) <= 70
    bonus = next(line for line in lines if line.startswith("Bonus am Ende"))
    assert lines[1].startswith(("Nr. Gb.", "Nr.  Gb."))  # the label did not widen the first column
    assert bonus.split()[3:] == [*map(str, sheet.bonuses), *map(str, sheet.totals)]
    assert sheet_text(sheet, LONG_NAMES[:2], "de", width=20) == sheet_text(sheet, LONG_NAMES[:2], "de")


def test_a_gin_game_to_a_target_lists_the_points_won_as_gin_score_sheets_do() -> None:
    """A lost gin hand takes nothing away in a game to 100: the loser's column reads 0 for it (not the
    knocker's points with a minus), the totals are the points won that the game is decided by, the
    same as the terminal's and the page's ``points won``; the end bonuses add up to the match's."""
    rules = rk.Rules.parse("gin(match_end=target_score, box_bonus=25, game_bonus=100)")
    for seed in range(40):
        m = random_match(rules, 2, seed=seed)
        if m.scores != tuple(m.gains) and all(m.hands_won):
            break
    else:
        pytest.fail("no random gin game where both players won a hand")
    sheet = ScoreSheet.of(m)
    scored = [r.result for r in m.rounds if r.result is not None and r.result.scored]
    assert [h.points for h in sheet.hands if h.scored] == [r.gains for r in scored]
    assert all(min(h.points) == 0 for h in sheet.hands if h.scored)  # type: ignore[type-var]
    assert sheet.totals == tuple(m.gains) and min(sheet.totals) >= 0
    assert tuple(t + b for t, b in zip(sheet.hands[-1].totals, sheet.bonuses, strict=True)) == tuple(m.gains)
    table = sheet_text(sheet, ("Anna", "Ben")).split("\n\n")[0]
    assert "-" not in table  # no minus anywhere on the sheet


def test_the_text_sheet_itemises_gin_s_end_bonuses_above_their_sum() -> None:
    """Box bonus (per hand won), game bonus and a shutout's doubling each on a row of their own, then
    the sum with the final totals, as gin score sheets settle a game; German too."""
    rules = rk.Rules.parse("gin(match_end=target_score, box_bonus=25, game_bonus=100, shutout_doubles=true)")
    m = random_match(rules, 2, seed=4)
    parts = m.bonus_parts()
    assert parts[1].shutout and parts[0] == rk.BonusParts(0, 0, 0, 0)
    sheet = ScoreSheet.of(m)
    lines = sheet_text(sheet, ("Anna", "Ben")).split("\n\n")[0].splitlines()
    box, game, shutout, total = lines[-4:]
    assert box.split() == ["Box", "bonus", "(25", "a", "hand", "won)", "0", str(parts[1].box)]
    assert game.split() == ["Game", "bonus", "0", "100"]
    assert shutout.split() == ["Shutout:", "doubled", "0", str(parts[1].shutout)]
    assert total.split() == ["End", "bonuses", *map(str, m.bonuses), *map(str, m.gains)]
    assert parts[1].box + parts[1].game + parts[1].shutout == m.bonuses[1]
    # The JSON sheet itemises them too (`rummykit sheet --format json`); none paid, none listed.
    data = sheet.to_dict(("Anna", "Ben"))
    assert data["bonus_parts"][1] == {
        "hands_won": parts[1].hands_won, "box": parts[1].box, "game": 100, "shutout": parts[1].shutout
    }  # fmt: skip
    assert data["bonus_parts"][0] == {"hands_won": 0, "box": 0, "game": 0, "shutout": 0}
    plain = random_match(rk.Rules.parse("gin(match_end=target_score)"), 2, seed=4)
    assert ScoreSheet.of(plain).to_dict()["bonus_parts"] == []
    german = sheet_text(sheet, ("Anna", "Ben"), "de").split("\n\n")[0].splitlines()[-4:]
    assert [line.split("  ")[0] for line in german] == [
        "Box-Bonus (25 je gewonnenes Spiel)", "Partiebonus", "Zu null gewonnen: verdoppelt", "Bonus am Ende"
    ]  # fmt: skip
    # The labels lie over the hand, dealer and end columns: the hand numbers' column keeps its width.
    header = sheet_text(sheet, ("Anna", "Ben"), "de").splitlines()[1]
    assert header.startswith("Spiel  Geber  Ende"), header
