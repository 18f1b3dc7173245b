"""The rules pages the browser shows: a table's own rules (house rules included) and each preset's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from rummykit.explain import explain_html, preset_line
from rummykit.rules import PRESET_NAMES, Rules
from rummykit.web.app import create_app
from rummykit.web.rulebook import rules_page


def test_a_table_shows_its_own_house_rules(client: TestClient, web: Any) -> None:
    grant = web.create(client, preset="german", seats=3, overrides={"opening_min_points": 30})
    page = client.get(f"/api/tables/{grant['code']}/rules")
    assert page.status_code == 200
    data = page.json()
    assert data["code"] == grant["code"] and data["lang"] == "en"
    rules = Rules.preset("german").replace(opening_min_points=30)
    assert data["html"] == explain_html(rules, "en")
    assert "<td>opening minimum (points)</td><td>30</td><td>40</td>" in data["html"]
    german = client.get(f"/api/tables/{grant['code'].lower()}/rules", params={"lang": "de"}).json()
    assert german["lang"] == "de" and "mindestens <strong>30 Punkte</strong>" in german["html"]


def test_preset_pages_and_names_for_the_lobby(client: TestClient) -> None:
    names = client.get("/api/presets").json()["names"]
    assert set(names) == set(PRESET_NAMES)
    assert names["viennese"]["de"] == list(preset_line("viennese", "de"))
    for name in ("german", "viennese"):
        data = client.get(f"/api/presets/{name}/rules", params={"lang": "de"}).json()
        assert data["preset"] == name and data["html"] == explain_html(Rules.preset(name), "de")


def test_the_create_forms_house_rules_are_explained_before_the_table_exists(client: TestClient) -> None:
    """The lobby's "Read the rules" showed the preset's page whatever house rules were picked: a
    player choosing a redeal or a tie-break read "ties are shared" until the table was made. The
    page of the preset with the form's house rules is the one the table will have."""
    overrides = {"unscored_hand": "redeal", "match_tiebreak": "most_hands_won"}
    answer = client.post("/api/presets/german/rules", params={"lang": "de"}, json={"overrides": overrides})
    assert answer.status_code == 200, answer.text
    rules = Rules.preset("german").replace(unscored_hand="redeal", match_tiebreak="most_hands_won")
    assert answer.json() == {"preset": "german", **rules_page(rules, "de")}
    assert answer.json()["html"] != explain_html(Rules.preset("german"), "de")
    plain = client.post("/api/presets/german/rules", json={}).json()  # no house rules: the preset's page
    assert plain["html"] == explain_html(Rules.preset("german"), "en")
    refused = client.post("/api/presets/german/rules", json={"overrides": {"unscored_hand": "maybe"}})
    assert refused.status_code == 400 and refused.json()["code"] == "rules"
    assert "texts" in refused.json() and refused.json()["texts"]["de"]
    endless = client.post("/api/presets/german/rules", json={"overrides": {"max_stock_rebuilds": None}})
    assert endless.status_code == 400 and endless.json()["code"] == "unlimited_rebuilds"
    assert client.post("/api/presets/nope/rules", json={}).json()["code"] == "no_such_preset"
    assert client.post("/api/presets/german/rules", json=[]).json()["code"] == "body_not_object"


def test_unknown_tables_presets_and_languages_are_refused_without_echo(client: TestClient, web: Any) -> None:
    web.create(client, preset="viennese")
    missing = client.get("/api/tables/NOPE42/rules")
    assert missing.status_code == 404
    assert missing.json() == {
        "detail": "no table 'NOPE42'",
        "code": "no_table",
        "texts": {"en": "no table 'NOPE42'", "de": "Kein Tisch 'NOPE42'"},
    }
    probe = "<script>alert(1)"
    presets = "german, german_dskv, viennese, romme_ohne_auslegen, scala40, basic, gin"
    assert client.get(f"/api/presets/{probe}/rules").json() == {
        "detail": f"no such preset; presets: {presets}",
        "code": "no_such_preset",
        "texts": {
            "en": f"no such preset; presets: {presets}",
            "de": f"Kein solches Spiel; Spiele: {presets}",
        },
    }
    code = client.get("/api/tables").json()["tables"][0]["code"]
    bad_lang = client.get(f"/api/tables/{code}/rules", params={"lang": probe})
    assert bad_lang.status_code == 422 and "script" not in bad_lang.text
    assert client.get(f"/api/tables/{code}/rules", params={"lang": "fr"}).status_code == 422


def test_rules_requests_are_rate_limited_per_address(tmp_path: Path, web: Any) -> None:
    settings = web.settings(requests_per_second=0.01, requests_burst=2)
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite'}", settings=settings)
    with TestClient(app) as client:
        code = web.create(client)["code"]
        answers = [client.get(f"/api/tables/{code}/rules").status_code for _ in range(2)]
        answers.append(client.get("/api/presets/german/rules").status_code)
        assert answers == [200, 200, 429]
        assert "retry-after" in client.get("/api/presets/german/rules").headers
