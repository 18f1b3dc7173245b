"""Fixtures for the web tests: the app on SQLite, a real server process, a PostgreSQL server.

Locally, tests that need PostgreSQL or Chromium skip when the binaries are missing; under ``CI=true``
they fail instead, because ``.ci/run`` installs both.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("sqlalchemy", reason="the web extra is not installed")
pytest.importorskip("httpx", reason="the dev extra (httpx) is not installed")

with warnings.catch_warnings():
    # Starlette's test client asks for the httpx2 fork; httpx still works and is what [dev] installs.
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    import fastapi.testclient  # noqa: F401

from rummykit.web.app import create_app
from rummykit.web.limits import ServerSettings
from tests.web.pages import Pages

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])[CDHS](?![A-Za-z0-9])|(?<![A-Za-z0-9])JK(?![A-Za-z0-9])")


def missing(what: str) -> None:
    """Skip locally, fail in CI: ``.ci/run`` installs what the web tests need."""
    if IN_CI:
        pytest.fail(f"{what} is missing, but CI must provide it (.ci/run installs it)")
    pytest.skip(f"{what} is not installed here")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_settings(**changes: Any) -> ServerSettings:
    """Settings for tests that are not about limits: rates and caps a test never reaches."""
    generous: dict[str, Any] = {
        "creations_per_second": 1000.0,
        "creations_burst": 1000,
        "requests_per_second": 1000.0,
        "requests_burst": 1000,
        "messages_per_second": 1000.0,
        "messages_burst": 1000,
        "http_per_second": 10000.0,
        "http_burst": 10000,
        "max_tables_per_address": 1000,
        "max_tables_per_network": 1000,
        "max_seats_per_address": 1000,
        "max_seats_per_network": 1000,
        "bot_processes": 0,  # bots think in a thread: no process to start per test
    }
    return ServerSettings(**{**generous, **changes})


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rummykit.db'}"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    from fastapi.testclient import TestClient

    app = create_app(sqlite_url, settings=test_settings(bot_delay=0, takeover_seconds=30))
    with TestClient(app) as c:
        yield c


def create(client: TestClient, **spec: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=spec)
    assert response.status_code == 201, response.text
    grant: dict[str, Any] = response.json()
    return grant


@contextlib.contextmanager
def connect(client: TestClient, code: str, token: str | None = None) -> Iterator[Any]:
    """A websocket to table ``code`` that has said hello: with a seat token, or watching."""
    with client.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": token})
        yield ws


def receive_state(ws: Any, *, until: Any = None, limit: int = 200) -> dict[str, Any]:
    """The next state message (skipping welcomes, pongs …) for which ``until(state)`` holds."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state" and (until is None or until(msg)):
            return msg
    raise AssertionError("no matching state message")


def away(client: TestClient, code: str, seat: int = 0) -> bool:
    """Whether the lobby shows ``seat`` of table ``code`` as away (a bot plays for its person)."""
    return bool(client.get(f"/api/tables/{code}").json()["seats"][seat]["away"])


def table_of(client: TestClient, code: str) -> Any:
    """The server's :class:`~rummykit.web.tables.Table` ``code`` (a TestClient app's)."""
    return client.app.state.manager.tables[code]  # type: ignore[attr-defined]


def next_of(ws: Any, kind: str, limit: int = 200) -> dict[str, Any]:
    """The next message of type ``kind`` (skipping others)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


# A real server process ---------------------------------------------------------------------------
START_SECONDS = 60
"""How long a test server may take to answer its health check (a loaded two-core machine has taken
more than 30 s to start two at once)."""
ADDRESS_KEY_FILE = Path(tempfile.mkdtemp(prefix="rummykit-key-")) / "address.key"
"""The address key of every server process of the session (made by the first), not the user's; its
folder goes when the session's process ends."""
atexit.register(shutil.rmtree, ADDRESS_KEY_FILE.parent, ignore_errors=True)


class Server:
    """``rummykit serve`` in a subprocess on a free port."""

    def __init__(
        self,
        database_url: str,
        *,
        bot_delay: float = 0.0,
        takeover: float = 60.0,
        extra: tuple[str, ...] = (),
        port: int | None = None,
    ) -> None:
        self.database_url = database_url
        self.bot_delay = bot_delay
        self.takeover = takeover
        self.extra = extra
        """More ``rummykit serve`` options (limits a module's tests would otherwise reach)."""
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        code = "import sys; from rummykit.cli import main; sys.argv[0] = 'rummykit'; main()"
        args = [
            sys.executable, "-c", code, "serve", "--host", "127.0.0.1", "--port", str(self.port),
            "--database-url", self.database_url, "--bot-delay", str(self.bot_delay),
            "--takeover", str(self.takeover), "--address-key-file", str(ADDRESS_KEY_FILE), *self.extra,
        ]  # fmt: skip
        self.log = tempfile.NamedTemporaryFile(prefix="rummykit-serve-", suffix=".log", delete=False)  # noqa: SIM115
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        import httpx

        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.output()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not answer in {START_SECONDS} s: {self.output()[-2000:]}")

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def server_factory() -> Iterator[Any]:
    servers: list[Server] = []

    def make(database_url: str, **options: Any) -> Server:
        server = Server(database_url, **options)
        servers.append(server)
        return server.start()

    yield make
    for server in servers:
        server.stop()
        output = server.output()
        if output.count("\n") > 1:
            print(f"--- output of the server on port {server.port} ---\n{output}")
        os.unlink(server.log.name)


@pytest.fixture(scope="module")
def module_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One real server for a whole test module (browser tests share it and one Chromium).

    A module may set ``SERVER_ARGS`` (more ``rummykit serve`` options), e.g. to open more tables
    from one address than a public server allows.
    """
    folder = tmp_path_factory.mktemp("server")
    extra = tuple(getattr(request.module, "SERVER_ARGS", ()))
    server = Server(f"sqlite:///{folder / 'rummykit.db'}", bot_delay=0.05, extra=extra).start()
    try:
        yield server
    finally:
        server.stop()
        os.unlink(server.log.name)


# PostgreSQL --------------------------------------------------------------------------------------
def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    for folder in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (folder / name).exists():
            return str(folder / name)
    return None


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server of its own for the session (as the ``postgres`` user when run as root)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed")
    initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
    if initdb is None or pg_ctl is None:
        missing("PostgreSQL (initdb, pg_ctl)")
    assert initdb is not None and pg_ctl is not None
    folder = tempfile.mkdtemp(prefix="rummykit-pg-")
    data = os.path.join(folder, "data")
    port = free_port()
    as_root = os.geteuid() == 0

    def run(args: list[str]) -> None:
        if as_root:
            import shlex

            args = ["su", "postgres", "-c", shlex.join(args)]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)

    if as_root:
        shutil.chown(folder, user="postgres")
    run([initdb, "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"])
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    run([pg_ctl, "-D", data, "-o", options, "-l", os.path.join(folder, "log"), "start", "-w", "-t", "60"])
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        try:
            run([pg_ctl, "-D", data, "stop", "-m", "fast", "-w"])
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def fresh_database(postgres_url: str, name: str) -> str:
    """The URL of database ``name`` on the session's PostgreSQL server, made anew (dropped if there)."""
    from sqlalchemy import create_engine, text

    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        connection.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return postgres_url.rsplit("/", 1)[0] + "/" + name


def chromium_path() -> str:
    for path in (os.environ.get("RUMMYKIT_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if path and os.path.exists(path):
            return path
    missing("Chromium (/usr/bin/chromium)")
    raise AssertionError("unreachable")


CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright, one per test module (tests open their own contexts)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    path = chromium_path()
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def _policy_violation(page: Any, message: Any) -> None:
    """Chromium reports what the server's Content Security Policy refused on the console."""
    if "Content Security Policy" in message.text:
        page.errors.append(message.text)


@pytest.fixture
def open_page(browser: Any, module_server: Any) -> Iterator[Any]:
    """``open_page(viewport, locale, has_touch=False)``: a page of its own browser context on the module's
    server (``page.base`` is its address, ``page.errors`` collects uncaught page errors and anything
    the Content Security Policy refused). Each context is closed afterwards, and a page error fails
    the test. Pages bypass the server's Content Security Policy unless ``bypass_csp=False``: Playwright's
    ``wait_for_function`` evaluates strings in the page, which the policy refuses."""
    opened: list[tuple[Any, Any]] = []

    def make(
        viewport: dict[str, int],
        locale: str,
        *,
        has_touch: bool = False,
        timeout_ms: int | None = None,
        bypass_csp: bool = True,
    ) -> Any:
        context = browser.new_context(
            viewport=viewport, locale=locale, has_touch=has_touch, bypass_csp=bypass_csp
        )
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.on("console", lambda msg: _policy_violation(page, msg))
        if timeout_ms is not None:
            page.set_default_timeout(timeout_ms)
        page.base = module_server.url
        opened.append((context, page))
        return page

    yield make
    errors = [e for _, page in opened for e in page.errors]
    for context, _ in opened:
        context.close()
    assert not errors, errors


PERSON_PACE = 0.25
"""Seconds between two moves of a scripted player in the browser tests. The server takes at most 10
websocket messages a second from a connection (burst 30, ``ServerSettings.messages_per_second``) and
turns the rest away with ``rate_limited``; a hinted move is two messages (the hint, the move), so a
script that plays as fast as the bots answer runs out of the burst after a dozen turns."""


def hinted_action(page: Any) -> str:
    """The hint for the seat to move: the ``h`` key, then the hint the server sends back."""
    page.evaluate("S.hint = null")
    page.keyboard.press("h")
    page.wait_for_function("S.hint !== null")
    return str(page.evaluate("S.hint"))


def first_turn(page: Any, action: str = "draw") -> None:
    """Wait until the page's seat may play ``action``. A bot moving before the person can end the hand
    on its first turn (RULES.md §3.12); the page then shows the hand's result, and the person
    continues past it to the next hand, as anybody at the table would."""
    page.wait_for_function("a => S.state && S.state.legal.includes(a)", arg=action)
    if page.locator("#overlay:not(.hidden) #round-over").count():
        page.click("#btn-overlay")
        page.locator("#overlay").wait_for(state="hidden")


def act_and_wait(page: Any, action: str) -> None:
    """Play ``action`` at a person's pace (:data:`PERSON_PACE` after the previous one) and wait for the
    state it makes; if none comes, fail with the error the page shows."""
    wait = getattr(page, "last_act", 0.0) + PERSON_PACE - time.monotonic()
    if wait > 0:
        time.sleep(wait)
    version = page.evaluate("S.state.version")
    page.evaluate("a => act(a)", action)
    page.last_act = time.monotonic()
    try:
        page.wait_for_function("v => S.state.version > v", arg=version, timeout=10000)
    except Exception:
        shown = page.inner_text("#game-error")
        pytest.fail(f"{action!r} at version {version} made no new state in 10 s; the page shows {shown!r}")


def landed(page: Any) -> None:
    """Wait until a card drawn into the hand has landed: it flies in (a transform of 0.28 s), and boxes
    measured meanwhile are the moving card's, higher and smaller than where it lies (on a loaded
    machine a measured hand had a third row)."""
    page.wait_for_function(
        "document.getAnimations().every((a) => a.animationName !== 'card-in' || a.playState !== 'running')"
    )


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the browser tests' screenshots go to: ``RUMMYKIT_SCREENSHOTS``, or a temporary one."""
    folder = Path(os.environ.get("RUMMYKIT_SCREENSHOTS") or tmp_path_factory.mktemp("shots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def clients(tmp_path: Path, prefix: str = "db", middleware: Any = None) -> Iterator[Any]:
    """Yield a maker of test clients, each of a fresh app on a database of its own with the given
    settings (others as :func:`test_settings`), with ``middleware`` added (test_security's names the
    client address); the clients are closed afterwards."""
    from fastapi.testclient import TestClient

    made: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        app = create_app(
            f"sqlite:///{tmp_path / f'{prefix}{len(made)}.db'}", settings=test_settings(**settings)
        )
        if middleware is not None:
            app.add_middleware(middleware)
        client = TestClient(app)
        client.__enter__()
        made.append(client)
        return client

    yield make
    for client in made:
        client.__exit__(None, None, None)


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Any]:
    """A maker of test clients (:func:`clients`)."""
    yield from clients(tmp_path)


@pytest.fixture
def web() -> Any:
    """The helpers above, for test modules (conftest is not importable under importlib mode)."""
    import types

    return types.SimpleNamespace(
        create=create,
        connect=connect,
        settings=test_settings,
        receive_state=receive_state,
        table_of=table_of,
        away=away,
        next_of=next_of,
        CARD=CARD,
        missing=missing,
        chromium_path=chromium_path,
        CHROMIUM_ARGS=CHROMIUM_ARGS,
        IN_CI=IN_CI,
        hinted_action=hinted_action,
        first_turn=first_turn,
        act_and_wait=act_and_wait,
        landed=landed,
        ADDRESS_KEY_FILE=ADDRESS_KEY_FILE,
        clients=clients,
        fresh_database=fresh_database,
    )


@pytest.fixture
def pages(browser: Any, module_server: Any) -> Iterator[Pages]:
    made = Pages(browser, module_server.url)
    yield made
    for context in made.contexts:
        context.close()
    assert not made.errors, made.errors
