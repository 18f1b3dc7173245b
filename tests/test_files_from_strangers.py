"""Files a stranger hands a player or researcher (policy files, self-play runs, rules files, records):
each malformed one is refused with the library's own error and a short, escaped message, before it
can take the memory, write through a link, or end in a traceback."""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rummykit as rk
from rummykit.bots.policy import MAX_POLICY_BYTES, PolicyBot, PolicyFileError
from rummykit.envs.encoding import NUM_TOKENS
from rummykit.errors import NotationError, RulesError
from rummykit.rules_text import read_rules_file
from rummykit.seating import FirstDealerDraw
from rummykit.selfplay import (
    INDEX_FILE,
    LOCK_FILE,
    RUN_FILE,
    SelfPlayConfig,
    SelfPlayError,
    batch_games,
    game_line,
    run_selfplay,
)

META = {"layers": 1, "rules": "viennese", "players": 2, "derived_features": False, "scope": "hand",
        "gin": False, "take_bound": True, "doubled": False, "encoding": 1, "observation": 3}
"""The meta of a heads-up Viennese policy, as ``export_policy`` writes it."""


# Policy files --------------------------------------------------------------------------------------
def _npy(shape: tuple[int, ...], dtype: str = "<f4") -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": shape})
    return buf.getvalue()


def _meta_npy(meta: object) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.array(meta if isinstance(meta, str) else json.dumps(meta)))
    return buf.getvalue()


def test_a_policy_that_unpacks_to_more_than_the_limit_is_refused_before_unpacking(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.npz"
    side = int((MAX_POLICY_BYTES + 2**20) ** 0.5)
    zeros = np.zeros((side, side), bool)
    np.savez_compressed(bomb, meta=np.array(json.dumps(META)), w0=zeros, b0=np.zeros(2))
    assert bomb.stat().st_size < MAX_POLICY_BYTES // 100
    with pytest.raises(PolicyFileError, match=r"unpacks to .* bytes, more than"):
        PolicyBot(bomb)


def test_an_array_header_claiming_terabytes_is_refused_without_allocating(tmp_path: Path) -> None:
    huge = tmp_path / "huge.npz"
    with zipfile.ZipFile(huge, "w") as z:
        z.writestr("meta.npy", _meta_npy(META))
        z.writestr("w0.npy", _npy((10**7, 10**7)))
        z.writestr("b0.npy", _npy((10,)))
    with pytest.raises(PolicyFileError, match=r"array w0 of shape \(10000000, 10000000\) would take"):
        PolicyBot(huge)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "not a policy file"),
        (b"PK\x03\x04 not really a zip", "not a policy file"),
    ],
)
def test_a_file_that_is_no_archive_is_not_a_policy_file(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "p.npz"
    path.write_bytes(content)
    with pytest.raises(PolicyFileError, match=message):
        PolicyBot(path)


def test_malformed_policy_metadata_is_a_policy_file_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.npz"
    np.savez(deep, meta=np.array("[" * 100_000 + "]" * 100_000))
    with pytest.raises(PolicyFileError, match="nested too deeply"):
        PolicyBot(deep)
    for meta, message in [
        (dict(META, layers="\x1b[31m" + "x" * 500), r"'layers' must be the number of layers, not '\\x1b"),
        (dict(META, players="abc"), "a table has 2 to 8 players, not 'abc'"),
        ([1, 2], "not a JSON object"),
    ]:
        path = tmp_path / "m.npz"
        np.savez(path, meta=np.array(json.dumps(meta)), w0=np.zeros((2, 2), np.float32), b0=np.zeros(2))
        with pytest.raises(PolicyFileError, match=message) as info:
            PolicyBot(path)
        assert len(str(info.value)) < 300 and "\x1b" not in str(info.value)


def test_policy_metadata_in_messages_is_escaped(tmp_path: Path) -> None:
    path = tmp_path / "esc.npz"
    meta = dict(META, encoding="\x1b[31mX" + "y" * 1000)
    np.savez(path, meta=np.array(json.dumps(meta)), w0=np.zeros((2, 2), np.float32), b0=np.zeros(2))
    with pytest.raises(PolicyFileError, match=r"encoding v'\\x1b\[31mX") as info:
        PolicyBot(path)
    assert "\x1b" not in str(info.value) and len(str(info.value)) < 300


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"doubled": True}, "says doubled without gin, which no rule set has"),
        ({"gin": True, "take_bound": True}, "says gin and the take bound, which no rule set has"),
    ],
)
def test_policy_metadata_no_rule_set_has_is_refused(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    """Flags that no rules combine (the doubled entry of Oklahoma gin outside gin, gin with the take
    bound) are refused when the file is read, not met as a wrong layout in the middle of a game."""
    path = tmp_path / "flags.npz"
    weights = np.zeros((2, NUM_TOKENS), np.float32)
    np.savez(path, meta=np.array(json.dumps(META | changes)), w0=weights, b0=np.zeros(weights.shape[1]))
    with pytest.raises(PolicyFileError, match=message):
        PolicyBot(path)


@pytest.mark.parametrize(
    "weights", [np.zeros((2, 2), np.complex64), np.array([["a", "b"]]), np.array([1], object)]
)
def test_weights_that_are_not_floating_point_numbers_are_refused(tmp_path: Path, weights: Any) -> None:
    path = tmp_path / "w.npz"
    np.savez(path, meta=np.array(json.dumps(META)), w0=weights, b0=np.zeros(2, np.float32))
    with pytest.raises(PolicyFileError, match=r"array w0 holds .*, not floating point numbers"):
        PolicyBot(path)


# Self-play runs ----------------------------------------------------------------------------------
CONFIG = SelfPlayConfig("viennese", ("random", "random"), games=2, seed=0, batch=1)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("run") / "run"
    run_selfplay(CONFIG, out, workers=1)
    return out


def _copy(run: Path, to: Path) -> Path:
    to.mkdir()
    for f in run.iterdir():
        if f.name != LOCK_FILE:
            (to / f.name).write_bytes(f.read_bytes())
    return to


@pytest.mark.skipif(not hasattr(os, "O_NOFOLLOW"), reason="no symbolic links to refuse")
def test_a_lock_file_that_is_a_link_is_refused_and_its_target_left_alone(
    played: Path, tmp_path: Path
) -> None:
    run = _copy(played, tmp_path / "run")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (run / LOCK_FILE).symlink_to(victim)
    with pytest.raises(SelfPlayError, match="is a symbolic link"):
        run_selfplay(CONFIG, run, workers=1)
    assert victim.read_text() == "precious\n"


def test_a_lock_file_that_is_not_a_regular_file_is_refused(played: Path, tmp_path: Path) -> None:
    run = _copy(played, tmp_path / "run")
    (run / LOCK_FILE).mkdir()
    with pytest.raises(SelfPlayError, match=LOCK_FILE):
        run_selfplay(CONFIG, run, workers=1)


def test_run_file_keys_and_bot_inputs_are_escaped(played: Path, tmp_path: Path) -> None:
    wanted = CONFIG.to_dict()
    for found, message in [
        (dict(wanted, **{"\x1b]52;c;bHMK\x1b\\": 1}), "differs in '\\\\x1b"),
        (dict(wanted, bot_inputs="\x1b[2J" + "x" * 10_000), "other inputs \\('\\\\x1b\\[2J"),
    ]:
        run = _copy(played, tmp_path / f"run{len(message)}")
        (run / RUN_FILE).write_text(json.dumps(found))
        with pytest.raises(SelfPlayError, match=message) as info:
            run_selfplay(CONFIG, run, workers=1)
        assert "\x1b" not in str(info.value) and len(str(info.value)) < 500


def test_a_deeply_nested_run_file_is_not_a_run_file(played: Path, tmp_path: Path) -> None:
    run = _copy(played, tmp_path / "run")
    (run / RUN_FILE).write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(SelfPlayError, match="is not a self-play run file"):
        run_selfplay(CONFIG, run, workers=1)


@pytest.mark.parametrize(
    ("first", "shown"), [('"abc"', "'abc'"), ("Infinity", "inf"), ('{"a": 1}', "{'a': 1}"), ("-1", "-1")]
)
def test_index_lines_with_game_numbers_that_are_not_whole_numbers_are_refused(
    played: Path, tmp_path: Path, first: str, shown: str
) -> None:
    run = _copy(played, tmp_path / "run")
    lines = (run / INDEX_FILE).read_text().splitlines()
    lines[0] = lines[0].replace('"first": 0', f'"first": {first}')
    (run / INDEX_FILE).write_text("\n".join(lines) + "\n")
    for read in (lambda: game_line(run, 1), lambda: batch_games(run, "games-000001.jsonl")):
        expected = f"line 1: 'first' must be a whole number \\(0 or more\\), not {shown}"
        with pytest.raises(NotationError, match=expected):
            read()


def test_a_deeply_nested_index_line_is_refused(played: Path, tmp_path: Path) -> None:
    run = _copy(played, tmp_path / "run")
    (run / INDEX_FILE).write_text("[" * 100_000 + "]" * 100_000 + "\n" + (played / INDEX_FILE).read_text())
    with pytest.raises(NotationError, match="line 1 is nested too deeply"):
        game_line(run, 0)


# Rules files ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('preset = "german"\nopening_min_points = ' + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ('preset = "german"\nopening_min_points = ' + "9" * 5000 + "\n", "a number has too many digits"),
    ],
)
def test_rules_files_python_cannot_read_are_rules_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(text)
    with pytest.raises(RulesError, match=message):
        read_rules_file(path)


# Records -----------------------------------------------------------------------------------------
def _match_record() -> dict[str, Any]:
    match = rk.Match.new(rk.Rules.preset("german"), players=2, seed=5)
    data: dict[str, Any] = rk.Record.from_match(match).to_dict()
    assert data["seat_draw"]["method"] == "high_card"
    return data


@pytest.mark.parametrize("card", ["", "AS KS", 5, {"a": 1}])
def test_a_seat_draw_entry_that_is_not_one_card_is_a_notation_error(card: object) -> None:
    data = _match_record()
    data["seat_draw"]["rounds"][0][0] = card
    with pytest.raises(NotationError, match=r"record field 'seat_draw': .* is not one card"):
        rk.Record.from_dict(data)


def test_a_seat_draw_of_cards_the_deck_does_not_hold_is_refused() -> None:
    data = _match_record()
    data["seat_draw"] = {"method": "high_card", "dealer": 1, "rounds": [["AS", "AS"]] * 5 + [["KS", "AS"]]}
    with pytest.raises(NotationError, match="draws AS more often than the deck of these rules holds it"):
        rk.Record.from_dict(data)
    rounds = [["AS", "AS"], ["KS", "QS"]]  # two packs: two A♠ are fine
    dealer = FirstDealerDraw.from_rounds([[rk.Card.parse(c) for c in row] for row in rounds], 2).dealer
    data["seat_draw"] = {"method": "high_card", "dealer": dealer, "rounds": rounds}
    assert rk.Record.from_dict(data | {"dealer": dealer}).seat_draw is not None


@pytest.mark.parametrize(
    ("field", "value"),
    [("version", list(range(100_000))), ("kind", "x" * 100_000), ("players", "x" * 100_000)],
)
def test_record_values_in_messages_are_clipped(field: str, value: object) -> None:
    data = _match_record() | {field: value}
    with pytest.raises(NotationError) as info:
        rk.Record.from_dict(data)
    assert len(str(info.value)) < 200


def test_a_huge_in_play_and_a_huge_action_are_clipped() -> None:
    round_record = rk.Record.from_round(rk.Round.new(rk.Rules.preset("german"), 2, seed=4)).to_dict()
    with pytest.raises(RulesError) as info:
        rk.Record.from_dict(round_record | {"in_play": list(range(100_000))}).replay()
    assert len(str(info.value)) < 200
    meld = "meld " + " ".join(["AS"] * 100_000)
    with pytest.raises(NotationError, match=r"record action 2 .*cannot be replayed") as replay:
        rk.Record.from_dict(round_record | {"actions": ["draw", meld]}).replay()
    assert len(str(replay.value)) < 400
