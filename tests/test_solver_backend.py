"""The backend seam: choosing the backend, saying which is active, and the pure-Python switch."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from rummykit import Rules, parse_cards, solver
from rummykit.cli import app
from rummykit.solver import backend, tables


def active_in_subprocess(**env: str) -> str:
    code = "from rummykit.solver import backend; print(backend.current.name)"
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_pure_switch() -> None:
    assert active_in_subprocess(RUMMYKIT_PURE="1") == "python"
    expected = "native" if backend.native is not None else "python"
    assert active_in_subprocess(RUMMYKIT_PURE="0") == expected


def test_info_names_the_backend() -> None:
    result = CliRunner().invoke(app, ["info"])
    assert result.exit_code == 0
    assert backend.describe() in result.output
    assert backend.current.name in result.output
    from rummykit.envs import compiled

    assert compiled.describe() in result.output


def test_version_flag_names_version_and_backend() -> None:
    from rummykit import __version__

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == f"rummykit {__version__}; {backend.describe()}"
    with backend.use("python"):
        result = CliRunner().invoke(app, ["--version"])
    assert "solver backend: python" in result.output


def test_select_and_use() -> None:
    before = backend.current
    with backend.use("python") as chosen:
        assert backend.current is chosen is backend.python
    assert backend.current is before
    with pytest.raises(ValueError, match="not available"):
        backend.select("fortran")


def test_notice_only_when_missing() -> None:
    if backend.native is not None or backend.pure_requested:
        assert backend.notice() is None
    else:
        notice = backend.notice()
        assert notice is not None and "pure Python" in notice and "\n" not in notice


@pytest.mark.parametrize("name", sorted(backend.available()))
def test_many_house_rule_sets_keep_the_solver_memory_bounded(name: str) -> None:
    """A server whose tables each pick their own values cannot grow the per-rule-set tables."""
    hand = parse_cards("7H 8H 9H QS QD QC 2C 2D 2S AS")  # the ace is the only deadwood
    with backend.use(name) as chosen:
        for value in range(2 * tables.MAX_MELD_OPTION_SETS):
            rules = Rules.preset("viennese").replace(deadwood_ace=value)
            assert solver.min_deadwood(hand, rules) == value
        kept = tables._BY_OPTIONS if chosen is backend.python else getattr(chosen, "_by_options", {})
        assert 0 < len(kept) <= tables.MAX_MELD_OPTION_SETS
        first = Rules.preset("viennese").replace(deadwood_ace=0)
        assert solver.min_deadwood(hand, first) == 0  # a dropped rule set is rebuilt, never stale


@pytest.mark.parametrize("name", sorted(backend.available()))
def test_a_code_that_is_no_card_is_refused_by_both_twins(name: str) -> None:
    """No card has a negative code or one above 52; the pure twin read -1 as a joker and -53 as the
    ace of clubs (Python indexing from the end) and raised IndexError above 52, where the compiled
    one refused both with this message."""
    viennese, german = Rules.preset("viennese"), Rules.preset("german")
    calls = [
        lambda: solver.min_deadwood([-1, 5], viennese),
        lambda: solver.best_discards([-1, 5], viennese),
        lambda: solver.all_melds([-13, -12, -11], german),
        lambda: solver.max_opening_value([-13, 1, 2, 3], german),
        lambda: solver.best_arrangement([-53], german),
        lambda: solver.min_deadwood([53, 5], viennese),
        lambda: solver.best_discards([5, 99], viennese),
    ]
    with backend.use(name):
        for call in calls:
            with pytest.raises(ValueError, match=r"no card has code -?[0-9]+: codes run from 0 to 52"):
                call()


@pytest.mark.parametrize("name", sorted(backend.available()))
def test_the_play_out_kernels_refuse_the_same_input_on_both_twins(name: str) -> None:
    """A live card code that is no card's, and a joker as a gin upcard: the compiled race and duel
    kernels refused them, where the pure play-outs ignored the code and played the joker out."""
    from rummykit.bots.gin_duel import gin_duels
    from rummykit.bots.race import knock_draw_races, knock_races

    viennese, gin = Rules.preset("viennese"), Rules.preset("gin")
    hand = list(range(0, 40, 4))
    stock = list(range(1, 41, 4))
    with backend.use(name):
        assert len(knock_races(viennese, [hand], [stock], 5, live=[1, 5])) == 1  # a fair call plays
        with pytest.raises(ValueError, match="no card has code 99: codes run from 0 to 52"):
            knock_races(viennese, [hand], [stock], 5, live=[1, 99])
        with pytest.raises(ValueError, match="no card has code -2: codes run from 0 to 52"):
            knock_draw_races(viennese, hand, [stock], live=[-2])
        with pytest.raises(ValueError, match="no card has code 99: codes run from 0 to 52"):
            knock_races(viennese, [hand], [[*stock[:8], 99]], 5)  # past the draws, too
        opponent = list(range(2, 42, 4))
        assert len(gin_duels(gin, [(hand, None), (hand, 3)], [opponent], [stock])) == 1
        with pytest.raises(ValueError, match="an upcard must be a natural card"):
            gin_duels(gin, [(hand, 52)], [opponent], [stock])


@pytest.mark.parametrize("name", sorted(backend.available()))
def test_a_card_that_is_no_integer_is_the_same_type_error_on_both_twins(name: str) -> None:
    """A card given as text (``"QS"``), a float or ``None``: the compiled twin raised ``TypeError``,
    the pure one ``ValueError``."""
    viennese = Rules.preset("viennese")
    with backend.use(name):
        for bad in ("QS", 1.5, None, [1]):
            with pytest.raises(TypeError, match=f"^'{type(bad).__name__}' object cannot be interpreted"):
                solver.min_deadwood([bad, 5], viennese)  # type: ignore[list-item]
