"""``docs/protocol.md`` is the reference for programs that talk to the server: every message type,
endpoint and refusal code the server's source uses is named there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rummykit.web import app as web_app
from rummykit.web.app import BODY_PROBLEMS, create_app
from rummykit.web.practice import UNDO_MESSAGES

WEB = Path(web_app.__file__).parent
DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
CODE_AT = {"refusal": 1, "error_json": 0, "notice_json": 0, "_error": 0}
"""Where the refusal code is among the arguments of the functions that make refusals."""


def _source_names() -> tuple[set[str], set[str]]:
    """The message types (``"type": "…"`` and ``Literal["…"]`` of ``type`` fields) and the refusal
    codes written in the web package's source."""
    types: set[str] = set()
    codes: set[str] = set(BODY_PROBLEMS) | set(UNDO_MESSAGES)
    for path in WEB.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    typed = isinstance(key, ast.Constant) and key.value == "type"
                    if typed and isinstance(value, ast.Constant):
                        types.add(value.value)
            elif isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == "type":
                literal = node.annotation
                if isinstance(literal, ast.Subscript) and isinstance(literal.slice, ast.Constant):
                    types.add(literal.slice.value)
            elif isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", "")
                at = CODE_AT.get(name)
                if at is not None and len(node.args) > at and isinstance(node.args[at], ast.Constant):
                    codes.add(node.args[at].value)
                for keyword in node.keywords:
                    named = name == "LobbyError" and keyword.arg == "error"
                    if named and isinstance(keyword.value, ast.Constant):
                        codes.add(keyword.value.value)
    return types, codes


def _named(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w/-]){re.escape(word)}(?![\w-])", text) is not None


def test_every_message_type_and_refusal_code_is_documented() -> None:
    doc = DOC.read_text()
    types, codes = _source_names()
    assert {"act", "hello", "notice", "evaluation", "chat"} <= types  # the scan finds them
    types.add("state")  # written as text (rummykit.web.protocol), not as a dict
    assert {"not_your_turn", "storage_slow", "no_free_seat", "no_body", "undo_rate"} <= codes
    types = {t for t in types if "." not in t}  # ASGI's own messages (http.request …) are not ours
    missing = sorted(f"type {t}" for t in types if f'"type": "{t}"' not in doc)
    missing += sorted(f"code {c}" for c in codes if not _named(c, doc))
    assert not missing, f"docs/protocol.md does not name: {', '.join(missing)}"


def test_every_endpoint_is_documented(tmp_path: Path) -> None:
    doc = DOC.read_text()
    app = create_app(f"sqlite:///{tmp_path / 'doc.db'}")
    paths = {route.path for route in app.routes if route.path.startswith(("/api/", "/ws/"))}  # type: ignore[attr-defined]
    assert "/api/tables/{code}/join" in paths and "/ws/{code}" in paths
    missing = sorted(p for p in paths if p not in doc)
    assert not missing, f"docs/protocol.md does not name: {', '.join(missing)}"
