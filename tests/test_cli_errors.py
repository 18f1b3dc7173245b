"""Bad command-line arguments: one ``error:`` line, exit status 2, never a traceback (finding 8)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("typer")
from typer.testing import CliRunner

from rummykit.cli import app

runner = CliRunner()


def one_line_error(args: list[str]) -> str:
    result = runner.invoke(app, args, input="")
    output = result.output  # stdout and stderr together
    assert result.exit_code == 2, output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, output
    return errors[0]


def test_play_with_an_unwritable_save_dir() -> None:
    assert one_line_error(["play", "--save-dir", "/proc/forbidden", "--fast"]).startswith(
        "error: --save-dir /proc/forbidden: cannot write there"
    )


def test_arena_refuses_an_unwritable_plot_before_playing(tmp_path: Path) -> None:
    line = one_line_error(["arena", "--plot", "/proc/x.svg", "-n", "2", "-q"])
    assert line.startswith("error: --plot /proc/x.svg: cannot write there")
    # The file type too: the games (here 10⁶ of them, hours) are not played first.
    line = one_line_error(["arena", "--plot", str(tmp_path / "x.txt"), "-n", "1000000", "-q"])
    assert line.startswith("error: plot: write a .png or .svg file")
    folder = tmp_path / "folder"
    folder.mkdir()
    assert "is a folder" in one_line_error(["arena", "--json-file", str(folder), "-n", "2", "-q"])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--port", "99999"], "error: --port: must be between 1 and 65535, got 99999"),
        (["--port", "0"], "error: --port: must be between 1 and 65535, got 0"),
        (["--log-level", "loud"], "error: --log-level: one of debug, info, warning, error, not 'loud'"),
        (["--bot-delay", "-1"], "error: --bot-delay: must be a number >= 0, got -1.0"),
        (["--takeover", "-5"], "error: --takeover: must be a number >= 0, got -5.0"),
        (["--turn-seconds", "nan"], "error: --turn-seconds: must be a number >= 0, got nan"),
        # Infinite or absurd values would fail at run time (a database interval, a clock, a bucket).
        (["--idle-table-seconds", "inf"], "error: --idle-table-seconds: must be at most 31622400, got inf"),
        (["--keep-ended-days", "inf"], "error: --keep-ended-days: must be at most 36600, got inf"),
        (["--keep-ended-days", "1e300"], "error: --keep-ended-days: must be at most 36600, got 1e+300"),
        (["--messages-per-second", "inf"], "error: --messages-per-second: must be at most 1000000, got inf"),
        # A bot that waits ten minutes per move (600 typed for 0.6) would only stall its tables.
        (["--bot-delay", "600"], "error: --bot-delay: must be at most 60, got 600"),
        # 0 would refuse everybody (where 0 lifts a limit, the option says so: --http-per-second).
        (
            ["--max-tables-per-address", "0"],
            "error: --max-tables-per-address: must be more than 0 (0 would refuse everybody; a large number",
        ),
        (["--requests-per-second", "0"], "error: --requests-per-second: must be more than 0"),
        (["--max-connections-per-address", "0"], "error: --max-connections-per-address: must be more than 0"),
        (
            ["--forwarded-allow-ips", "10.0.0.0/8, garbage!!"],
            "error: --forwarded-allow-ips: 'garbage!!' is not an address, a network (10.0.0.0/8) or *",
        ),
        (
            ["--database-url", "foo://x"],
            "error: --database-url foo://x: not a database URL this server can use",
        ),
        (
            ["--database-url", "sqlite:////proc/nope/x.db"],
            "error: --database-url sqlite:////proc/nope/x.db: cannot",
        ),
    ],
)
def test_serve_refuses_bad_arguments_before_serving(args: list[str], expected: str) -> None:
    pytest.importorskip("uvicorn")
    line = one_line_error(["serve", *args])
    assert line.startswith(expected), line
    assert "serving" not in line


def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        line = one_line_error(
            ["serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'x.db'}"]
        )
    assert line.startswith(f"error: cannot listen on 127.0.0.1:{port}")


def test_command_without_the_cli_extra_names_the_extra() -> None:
    code = "import sys; sys.modules['typer'] = None; from rummykit.__main__ import main; main()"
    done = subprocess.run([sys.executable, "-c", code, "rules"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "error: the rummykit command needs the cli extra (typer is not installed): "
        "pip install 'rummykit[cli]'"
    )


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "--rules", "gin", "--players", "3"], "error: Gin Rummy is played by 2 players, not 3"),
        (["play", "--rules", "gin", "--players", "3", "--lang", "de"],
         "error: Gin-Rommé (Gin Rummy) spielen 2 Personen, nicht 3"),
        (["play", "--players", "9"], "error: German Rummy (Rommé) is played by 2 to 6 players, not 9"),
        (["play", "--players", "9", "--lang", "de"], "error: Rommé spielen 2 bis 6 Personen, nicht 9"),
        # The arena is a tool for bot authors: the engine's own text.
        (["arena", "--rules", "gin", "--bots", "greedy,random,greedy", "-n", "2", "-q"],
         "error: gin is played by 2 players, not 3"),
    ],
)  # fmt: skip
def test_a_table_of_the_wrong_size_is_refused_in_the_players_words(args: list[str], expected: str) -> None:
    """One message for a game of one table size (gin: two) and one for a range, in both languages."""
    assert one_line_error(args) == expected


@pytest.mark.parametrize(
    ("policy", "expected"),
    [
        (None, "error: the policy bot needs a file: set RUMMYKIT_POLICY=FILE.npz"),
        ("missing.npz", "error: cannot read the policy file "),
        ("not_a_policy.toml", "not a policy file"),
    ],
)
@pytest.mark.parametrize("command", ["arena", "selfplay", "play"])
def test_the_policy_bot_without_a_working_file_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, policy: str | None, expected: str
) -> None:
    pytest.importorskip("numpy")
    monkeypatch.delenv("RUMMYKIT_POLICY", raising=False)
    if policy is not None:
        path = tmp_path / policy
        if path.suffix == ".toml":
            path.write_text("[rules]\npreset = 'german'\n", encoding="utf-8")
        monkeypatch.setenv("RUMMYKIT_POLICY", str(path))
    args = {
        "arena": ["arena", "--bots", "policy,greedy", "-n", "2", "-q"],
        "selfplay": ["selfplay", "--bots", "policy,greedy", "-n", "2", "-q", "-o", str(tmp_path / "run")],
        "play": ["play", "--bots", "policy", "--no-save", "--fast"],
    }[command]
    line = one_line_error(args)
    assert line.startswith("error:") and expected in line
    assert "allow_pickle" not in line


DELAY = "error: --delay must be between 0 and 60 seconds, not"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "--delay", "1e308", "--no-save"], f"{DELAY} 1e+308"),
        (["play", "--delay", "-1", "--no-save"], f"{DELAY} -1"),
        (["play", "--delay", "nan", "--no-save", "--fast"], f"{DELAY} nan"),
        (["play", "--delay", "-1", "--no-save", "--lang", "de"],
         "error: --delay: zwischen 0 und 60 Sekunden, nicht -1"),
        (["arena", "-w", "-3", "-n", "2", "-q"], "error: --workers must be at least 1, not -3"),
        (["arena", "-w", "0", "-n", "2", "-q"], "error: --workers must be at least 1, not 0"),
        (["selfplay", "-w", "0", "-n", "2", "-q", "-o", "unused-run"],
         "error: --workers must be at least 1, not 0"),
        (["arena", "--batch", "0", "-n", "2", "-q"], "error: --batch must be at least 1, not 0"),
        (["selfplay", "--batch", "-1", "-n", "2", "-q", "-o", "unused-run"],
         "error: --batch must be at least 0, not -1"),
        (["replay", "--at", "-5", "unused.json"], "error: --at must be 0 or more, not -5"),
    ],
)  # fmt: skip
def test_numbers_out_of_range_are_refused(args: list[str], expected: str) -> None:
    assert one_line_error(args) == expected


def test_arena_refuses_json_and_csv_both_on_stdout(tmp_path: Path) -> None:
    line = one_line_error(["arena", "--json", "--csv", "-", "-n", "2", "-q"])
    assert line.startswith("error: --json and --csv - both write to stdout")
    result = runner.invoke(app, ["arena", "--json", "--csv", str(tmp_path / "a.csv"), "-n", "2", "-q"])
    assert result.exit_code == 0, result.output


def test_serve_says_in_one_line_that_its_data_folder_cannot_be_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without --database-url the database goes into the data folder; a folder that cannot be made
    (a read-only home, a file in the way) is one error line, not a traceback."""
    pytest.importorskip("uvicorn")
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("RUMMYKIT_DATA_DIR", str(blocker / "data"))
    monkeypatch.delenv("RUMMYKIT_DATABASE_URL", raising=False)
    line = one_line_error(["serve", "--port", "8831"])
    assert line.startswith("error: cannot make the data folder for the database: Not a directory")
    assert str(blocker / "data") in line


def test_a_raised_rate_raises_its_burst(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A class joining at once met the fixed burst of 30 lobby requests however high the rate was set."""
    pytest.importorskip("uvicorn")
    from rummykit.cli import serve

    started: list[object] = []
    monkeypatch.setattr(serve, "run_server", lambda listener, url, settings, *rest: started.append(settings))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = ["serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'b.db'}",
            "--address-key-file", str(tmp_path / "k"), "--requests-per-second", "50",
            "--creations-per-second", "2", "--messages-per-second", "4"]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    (settings,) = started
    assert (settings.requests_burst, settings.creations_burst, settings.messages_burst) == (150, 20, 30)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["--lang", "de", "--players", "x"], {}, "error: --players: keine ganze Zahl"),
        (["--players", "3x", "--lang=de"], {}, "error: --players: keine ganze Zahl"),
        (["-p", "x"], {"LANG": "de_DE.UTF-8", "LC_ALL": ""}, "error: --players: keine ganze Zahl"),
        (["--lang", "en", "--seed", "<script>"], {}, "error: --seed: not a whole number"),
        (["--lang", "de", "--delay", "abc"], {}, "error: --delay: keine Zahl"),
        (["--delay", "x", "--lang", "en"], {}, "error: --delay: not a number"),
    ],
)
def test_play_refuses_a_number_option_without_a_number_like_its_other_errors(
    args: list[str], env: dict[str, str], said: str, data_dir: Path
) -> None:
    """One ``error:`` line in the player's language, as for too many players, not the command-line
    library's English ``Error`` box; what was typed is not echoed."""
    result = runner.invoke(app, ["play", *args], input="", env=env)
    assert result.exit_code == 2
    assert result.output == said + "\n"


GERMAN_LOCALE = {"LANG": "de_DE.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}


@pytest.mark.parametrize(
    ("args", "env", "said"),
    [
        (["play", "--lang", "de", "--some-unknown-option"], {}, "error: unbekannte Option --some-unknown"),
        (["play", "--some-unknown-option"], GERMAN_LOCALE, "error: unbekannte Option --some-unknown-option"),
        (["play", "--lang=de", "--sed", "3"], {}, "error: unbekannte Option --sed (meintest du --seed oder"),
        (["play", "--lang", "de", "--seed"], {}, "error: --seed braucht einen Wert"),
        (["play", "--lang", "de", "--fast=3"], {}, "error: --fast erwartet keinen Wert"),
        (["play", "--lang", "de", "extra"], {}, "error: zu viel auf der Befehlszeile: extra"),
        (["meld"], GERMAN_LOCALE, "error: es fehlt das Argument CARDS"),
        (["spiel"], GERMAN_LOCALE, "error: unbekannter Befehl spiel"),
        (["plya"], GERMAN_LOCALE, "error: unbekannter Befehl plya (meintest du play oder replay?)"),
    ],
)
def test_a_usage_error_follows_the_player_s_language(args: list[str], env: dict[str, str], said: str) -> None:
    """A German player's unknown option (or missing value, word too many, unknown command) met the
    command-line library's English ``Error`` box; it is said in German, in lines that fit 80
    columns, with the exit of every refused command line."""
    result = runner.invoke(app, args, input="", env={"COLUMNS": "80", **env})
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[0].startswith(said), result.output
    assert "Error" not in result.output and "No such" not in result.output
    assert all(len(line) <= 80 for line in lines)
    command = args[0] if args[0] not in ("spiel", "plya") else ""
    assert lines[1:] == [f"Hilfe: rummykit {command}".rstrip() + " --help"]


def test_an_english_usage_error_keeps_the_library_s_message() -> None:
    result = runner.invoke(app, ["play", "--some-unknown-option"], input="", env={"LANG": "C", "LC_ALL": ""})
    assert result.exit_code == 2
    assert "No such option: --some-unknown-option" in result.output


@pytest.mark.parametrize(
    ("bots", "said"),
    [
        ("nope", "error: unbekannter Bot 'nope'; verfügbare Bots: random, greedy"),
        ("greedy:zzz", "error: unbekannte Stärke 'zzz'; Stärken: easy, medium, hard"),
        (" , ", "error: --bots ist leer; Bots: random, greedy"),
    ],
)
def test_an_unknown_bot_is_refused_in_german(bots: str, said: str, data_dir: Path) -> None:
    """A German player's unknown bot was refused with "Das ist nicht erlaubt" alone: not which bot,
    nor which there are."""
    result = runner.invoke(app, ["play", "--lang", "de", "--bots", bots], input="")
    assert result.exit_code == 2
    assert result.output.startswith(said), result.output


@pytest.mark.parametrize("env", [GERMAN_LOCALE, {"LANG": "C", "LC_ALL": ""}])
def test_the_bare_command_shows_its_help_and_no_error_in_either_language(env: dict[str, str]) -> None:
    """``rummykit`` alone shows the help (the library's exit status 2); in German it was followed by
    "error: Befehlszeile nicht verstanden ()" and a line pointing at the help just shown."""
    result = runner.invoke(app, [], input="", env={"COLUMNS": "80", **env})
    assert result.exit_code == 2
    assert "Usage:" in result.output and "play" in result.output
    assert "error:" not in result.output and "Hilfe:" not in result.output
