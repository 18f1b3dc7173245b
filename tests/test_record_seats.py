"""A record's ``seats`` field: who played each seat and which of a person's actions were not their
own; read, checked (files come from strangers) and written back."""

from __future__ import annotations

import json
from typing import Any

import pytest

import rummykit as rk
from rummykit.record_seats import MAX_BOT_TEXT, RecordSeat


def _record(actions: int = 4) -> rk.Record:
    rnd = rk.Round.new(rk.Rules.preset("german"), players=2, seed=3)
    while len(rnd.history) < actions:
        rnd.apply(rnd.legal_actions()[0])
    return rk.Record.from_round(rnd)


def _with_seats(seats: Any, actions: int = 4) -> dict[str, Any]:
    data = _record(actions).to_dict()
    data["seats"] = seats
    return data


def test_seats_round_trip_and_leave_the_version_alone() -> None:
    seats = (RecordSeat.person(stand_in=[3], hinted=[1]), RecordSeat.of_bot("greedy:medium"))
    record = rk.Record.from_dict({**_record().to_dict(), "seats": [s.to_dict() for s in seats]})
    assert record.seats == seats
    data = record.to_dict()
    assert data["version"] == 1 and data["seats"] == [
        {"kind": "person", "stand_in": [3], "hinted": [1]},
        {"kind": "bot", "bot": "greedy:medium"},
    ]
    again = rk.Record.loads(record.dumps())
    assert again == record and again.replay().view(0) == record.replay().view(0)


def test_a_record_without_seats_is_read_as_before() -> None:
    record = _record()
    assert record.seats is None and "seats" not in record.to_dict()
    assert rk.Record.from_dict(record.to_dict()).seats is None


def test_unknown_lists_stay_unknown_and_empty_lists_say_none() -> None:
    record = rk.Record.from_dict(_with_seats([{"kind": "person"}, {"kind": "person", "stand_in": []}]))
    assert record.seats is not None
    assert record.seats[0].marks(2) == (None, None)
    assert record.seats[1].marks(2) == (False, None)
    assert RecordSeat.of_bot().marks(2) == (False, False)
    assert record.to_dict()["seats"] == [{"kind": "person"}, {"kind": "person", "stand_in": []}]


def test_unknown_keys_of_a_seat_are_ignored_and_names_never_written() -> None:
    record = rk.Record.from_dict(_with_seats([{"kind": "person", "name": "Anna"}, {"kind": "bot"}]))
    assert "Anna" not in record.dumps()


@pytest.mark.parametrize(
    ("seats", "words"),
    [
        ({"kind": "person"}, "list of 2 seats"),
        ([{"kind": "person"}], "list of 2 seats"),
        ([{"kind": "person"}, "bot"], "seat 1"),
        ([{"kind": "person"}, {"kind": "alien"}], "'kind' must be"),
        ([{"kind": "person", "bot": "greedy"}, {"kind": "bot"}], "'bot' belongs"),
        ([{"kind": "person"}, {"kind": "bot", "bot": "x" * (MAX_BOT_TEXT + 1)}], "'bot' belongs"),
        ([{"kind": "person"}, {"kind": "bot", "bot": "a\x1b[31m"}], "'bot' belongs"),
        ([{"kind": "person"}, {"kind": "bot", "stand_in": [1]}], "belong to a person's seat"),
        ([{"kind": "person", "stand_in": [0]}, {"kind": "bot"}], "'stand_in' must list"),
        ([{"kind": "person", "stand_in": [5]}, {"kind": "bot"}], "from 1 to 4"),
        ([{"kind": "person", "stand_in": [2, 1]}, {"kind": "bot"}], "ascending"),
        ([{"kind": "person", "stand_in": [1, 1]}, {"kind": "bot"}], "ascending"),
        ([{"kind": "person", "hinted": [True]}, {"kind": "bot"}], "'hinted' must list"),
        ([{"kind": "person", "hinted": "1"}, {"kind": "bot"}], "'hinted' must be a list"),
        ([{"kind": "person", "hinted": list(range(1, 9))}, {"kind": "bot"}], "'hinted' must be a list"),
        ([{"kind": "person", "stand_in": [2]}, {"kind": "person", "hinted": [2]}], "marks an action"),
        ([{"kind": "person", "stand_in": [2], "hinted": [2]}, {"kind": "bot"}], "marks an action"),
    ],
)
def test_malformed_seats_are_refused_naming_the_field(seats: Any, words: str) -> None:
    with pytest.raises(rk.NotationError, match="record field 'seats'") as caught:
        rk.Record.from_dict(_with_seats(seats))
    assert words in str(caught.value)
    assert "\x1b" not in str(caught.value)


def test_an_old_terminal_save_s_meta_gives_the_seats_kinds() -> None:
    data = _record().to_dict()
    data["meta"] = {"names": ["Anna", "Bot"], "players": ["human", "search:medium"]}
    seats = rk.Record.from_dict(data).seats
    assert seats == (RecordSeat("person"), RecordSeat("bot", bot="search:medium"))
    assert seats[0].marks(1) == (None, None)  # a save of then did not say which moves were whose
    data["meta"] = {"players": ["human"]}  # not one label per seat: meta is ignored as before
    assert rk.Record.from_dict(data).seats is None
    data["meta"] = {"players": ["human", "greedy"]}
    data["seats"] = [{"kind": "bot"}, {"kind": "bot"}]  # the record's own field comes first
    assert rk.Record.from_dict(data).seats == (RecordSeat("bot"), RecordSeat("bot"))


def test_seats_are_json_of_plain_values() -> None:
    record = rk.Record.from_dict(_with_seats([{"kind": "person", "stand_in": [1, 3]}, {"kind": "bot"}]))
    assert json.loads(record.dumps())["seats"][0]["stand_in"] == [1, 3]


def test_a_policy_bots_seat_names_its_file_without_the_folders() -> None:
    """A record is handed to strangers: a local path (with a user name in it) stays home."""
    from rummykit.record_seats import bot_seat, bot_seats

    assert bot_seat("policy:/home/alice/runs/x.npz").bot == "policy:x.npz"
    assert bot_seat("policy:C:\\Users\\alice\\x.npz").bot == "policy:x.npz"
    assert bot_seat(" Policy : runs/a.npz").bot == "policy:a.npz"
    assert bot_seats(["policy:hard", "search:medium"])[0].bot == "policy:hard"
    assert bot_seats(["policy:hard", "search:medium"])[1].bot == "search:medium"
