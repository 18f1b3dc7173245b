"""Every refusal the server words for people comes in German too.

The source is scanned: a :class:`~rummykit.web.tables.LobbyError` is made with its ``texts``, and
every error code the server's own texts are looked up by (``refusal``, ``error_json``,
``server_error_texts``) has a German text in ``SERVER_ERRORS_DE``, so a new refusal without German
fails here. The refusals a page meets are then made over HTTP and read in both languages, and a
request without its JSON body is told so.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummykit.web import app as web_app
from rummykit.web.practice import UNDO_MESSAGES
from rummykit.web.texts import SERVER_ERROR_DE_DEFAULT, SERVER_ERRORS_DE

WEB = Path(web_app.__file__).parent
CODE_ARGUMENT = {"refusal": 1, "error_json": 0, "server_error_texts": 0, "notice_json": 0, "_error": 0}
"""The position of the error code among the arguments of the functions that word refusals."""
TEXTS_ARGUMENT = {"error_json": 4, "LobbyError": 3}
"""The position of ``texts`` among the arguments, where it may be given without its keyword."""
PASSING_ON = {
    ("protocol.py", "error_json"): "its callers' codes, checked where they call it",
    ("protocol.py", "notice_json"): "its callers' codes, checked where they call it",
    ("chat.py", "_error"): "its callers' codes, checked where they call it",
    ("tables.py", "refusal"): "its callers' codes, checked where they call it",
    ("practice.py", "undo_texts"): "the codes of UNDO_MESSAGES, checked below",
    ("app.py", "invalid_request"): "the codes of BODY_PROBLEMS, checked below",
}
"""Where a code that is not a literal is passed on, and where it is checked."""


def calls() -> list[tuple[str, str, int, str, ast.Call]]:
    """Every call of ``LobbyError`` and of the functions of :data:`CODE_ARGUMENT` in the web
    server's modules: file, enclosing function, line, name, call."""
    found = []
    for path in sorted(WEB.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = getattr(func, "id", None) or getattr(func, "attr", "")
                if name == "LobbyError" or name in CODE_ARGUMENT:
                    around = [f for f in functions if f.lineno <= node.lineno <= (f.end_lineno or f.lineno)]
                    inner = max(around, key=lambda f: f.lineno).name if around else ""
                    found.append((path.name, inner, node.lineno, name, node))
    return found


def test_every_refusal_in_the_source_has_german() -> None:
    seen: set[str] = set()
    missing = []
    for file, function, line, name, call in calls():
        worded = "texts" in {k.arg for k in call.keywords} or len(call.args) > TEXTS_ARGUMENT.get(name, 99)
        where = f"{file}:{line} {name}"
        if name == "LobbyError":
            if not worded:
                missing.append(f"{where}: no texts= (use refusal() with a SERVER_ERRORS_DE code)")
            continue
        if name == "error_json" and worded:
            continue  # worded by its caller (an engine error, an undo's refusal …)
        position = CODE_ARGUMENT[name]
        code = call.args[position] if len(call.args) > position else None
        if isinstance(code, ast.Constant) and isinstance(code.value, str):
            seen.add(code.value)
            if code.value not in SERVER_ERRORS_DE:
                missing.append(f"{where}: code {code.value!r} has no German text in SERVER_ERRORS_DE")
        elif (file, function) not in PASSING_ON:
            missing.append(f"{where}: the code is not a literal, so its German cannot be checked")
    assert not missing, "\n".join(missing)
    worded = {"not_host", "not_host_rematch", "unknown_token", "no_held_seat", "move_limit", "storage_slow"}
    assert worded <= seen
    assert set(web_app.BODY_PROBLEMS) <= set(SERVER_ERRORS_DE)
    assert set(UNDO_MESSAGES) <= set(SERVER_ERRORS_DE)


def test_the_scan_finds_a_refusal_without_german(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scan above fails on a ``LobbyError`` without texts and on an unknown code."""
    (tmp_path / "new.py").write_text(
        'raise LobbyError(403, "only the host may")\nraise refusal(403, "no_such_code", "no")\n'
    )
    monkeypatch.setattr(f"{__name__}.WEB", tmp_path)
    with pytest.raises(AssertionError) as failed:
        test_every_refusal_in_the_source_has_german()
    assert "new.py:1 LobbyError: no texts=" in str(failed.value)
    assert "new.py:2 refusal: code 'no_such_code' has no German" in str(failed.value)


def german(response: Any, status: int, words: str) -> None:
    """``response`` is a refusal with ``status`` whose German (not the catch-all) holds ``words``."""
    body = response.json()
    assert response.status_code == status, body
    assert body["texts"]["en"] == body["detail"], body
    assert body["texts"]["de"] != SERVER_ERROR_DE_DEFAULT and words in body["texts"]["de"], body


def test_every_http_refusal_names_its_code(client: TestClient, web: Any) -> None:
    """A program tells refusals apart by ``code`` (the websocket's codes), not by their English."""
    host = web.create(client, seats=2, name="Anna")
    code = host["code"]
    assert client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).status_code == 200
    refused = {
        "no_free_seat": client.post(f"/api/tables/{code}/join", json={"name": "Cem"}),
        "not_host": client.post(f"/api/tables/{code}/start", json={"token": "x" * 32}),
        "unknown_token": client.post(f"/api/tables/{code}/leave", json={"token": "x" * 32}),
        "no_table": client.post("/api/tables/ZZZZZZ/join", json={"name": "Dana"}),
        "no_such_preset": client.get("/api/presets/skat/rules"),
        "too_many_bots": client.post("/api/tables", json={"seats": 2, "bots": [{}, {}]}),
        "no_body": client.post("/api/tables"),
        "invalid": client.post(f"/api/tables/{code}/start", json={}),
        "unknown_bot": client.post("/api/tables", json={"seats": 2, "bots": [{"kind": "oracle"}]}),
        "rules": client.post("/api/tables", json={"overrides": {"opening_min_points": "abc"}}),
        "too_large": client.post("/api/tables", content=b"{" + b" " * 20_000 + b"}"),
    }
    for expected, response in refused.items():
        assert response.status_code >= 400 and response.json()["code"] == expected, response.json()


def test_the_refusals_of_the_lobby_come_in_german(client: TestClient, web: Any) -> None:
    host = web.create(client, preset="gin", seats=2, name="Anna", seed=4)
    code = host["code"]
    guest = client.post(f"/api/tables/{code}/join", json={"name": "Ben"}).json()
    ben, nobody = {"token": guest["token"]}, {"token": "nobody"}
    german(client.post(f"/api/tables/{code}/start", json=ben), 403, "Nur der Gastgeber (Platz 1) kann den")
    german(client.post(f"/api/tables/{code}/rematch", json=ben), 403, "eine Revanche eröffnen")
    german(client.post(f"/api/tables/{code}/leave", json=nobody), 403, "Unbekannter Platzschlüssel")
    assert client.post(f"/api/tables/{code}/start", json={"token": host["token"]}).status_code == 200
    german(client.post(f"/api/tables/{code}/retake", json=ben), 403, "kein Platz für dich freigehalten")
    german(client.get("/api/tables/ZZZZZZ"), 404, "Kein Tisch 'ZZZZZZ'")
    german(client.get("/api/tables/ZZZZZZ/rules"), 404, "Kein Tisch 'ZZZZZZ'")
    german(client.post("/api/tables", json={"seats": 2, "bots": [{}, {}]}), 400, "Höchstens 1 Bot an")
    german(client.post("/api/tables", json={"bots": [{"kind": "greedy:zz"}]}), 400, "Stufen: easy")
    unlimited = {"preset": "basic", "overrides": {"max_stock_rebuilds": None}}
    german(client.post("/api/tables", json=unlimited), 400, "unbegrenzt bietet dieser Server nicht")


def test_a_server_without_seeded_tables_says_so_in_german(make_client: Any) -> None:
    client = make_client(allow_seeded=False)
    german(client.post("/api/tables", json={"seed": 3}), 400, "keine Tische mit festem Startwert (Seed)")


def test_a_request_without_its_body_is_told_so(client: TestClient, web: Any) -> None:
    """FastAPI said ``Field required`` without naming the field: the body as a whole was missing."""
    code = web.create(client, seats=2)["code"]
    for path in ("/api/tables", f"/api/tables/{code}/join", f"/api/tables/{code}/start"):
        missing = client.post(path)
        assert missing.json()["detail"] == "the request needs a JSON body", path
        german(missing, 422, "Die Anfrage braucht einen JSON-Inhalt")
    json_headers = {"content-type": "application/json"}
    not_json = client.post(f"/api/tables/{code}/start", content=b"{", headers=json_headers)
    german(not_json, 422, "kein gültiges JSON")
    not_object = client.post(f"/api/tables/{code}/start", content=b"[1]", headers=json_headers)
    german(not_object, 422, "ein JSON-Objekt sein")
    field = client.post(f"/api/tables/{code}/start", json={})
    assert field.status_code == 422 and field.json() == {"detail": "token: Field required", "code": "invalid"}
    too_large = client.post("/api/tables", content=b"{" + b" " * 20_000 + b"}", headers=json_headers)
    german(too_large, 413, "höchstens 16.384 Bytes")
