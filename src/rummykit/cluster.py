"""Where seeded batches of games run: in this process, a local process pool, or a Ray cluster.

A :class:`Runner` is opened for one run and maps a pure function over batches, yielding each
batch's result as it finishes (completion order, which depends on the machine; callers key every
result by its batch so that figures and files never do).

Ray (the ``[ray]`` extra):

* **Address.** ``ray_address`` or else the ``RAY_ADDRESS`` environment variable (as Ray's own tools)
  names an existing cluster (``host:port``, ``auto``, ``ray://host:port``); only when neither is
  given does a private local instance start here, with ``workers`` CPUs. An already initialised Ray
  in this process is used as it is.
* **Code.** On a cluster the ``rummykit`` package of this process is shipped with the job
  (``runtime_env`` ``py_modules``), so worker nodes need Ray only, not rummykit. A probe task checks
  that the workers run exactly this code (version and a digest of the package's sources).
* **Errors.** An unreachable cluster, or one whose Ray or Python version differs from this process,
  is a :class:`BackendError` with a one-line message.
* **Lost workers.** Every task is a pure function of its batch, so Ray retries a task whose worker
  or node died (``max_retries``) and the retry gives the same result; a batch counts once, when its
  result arrives, and the caller checks that every game came back exactly once.
* **Spread.** Tasks use the ``SPREAD`` strategy so that every node of the cluster takes batches, and
  at most :data:`IN_FLIGHT_PER_CPU` tasks per CPU are submitted at a time, so a long run keeps a
  bounded number of results in memory and streams them as they finish.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Generic, Literal, TypeVar

import rummykit
from rummykit import __version__
from rummykit.errors import RummyError
from rummykit.solver import backend as solver_backend
from rummykit.web.runtime import follow_parent  # standard library only: no web extra needed

Backend = Literal["local", "ray"]
BACKENDS: Final = ("local", "ray")
TASK_RETRIES: Final = 8
"""How often Ray re-runs a batch whose worker or node died before the run gives up."""
IN_FLIGHT_PER_CPU: Final = 2
"""Tasks submitted ahead per CPU of the cluster (keeps every CPU busy between round trips)."""
CONNECT_TIMEOUT: Final = 5.0
"""Seconds to wait for the cluster's address to accept a connection."""
PROBE_TIMEOUT: Final = 300.0
"""Seconds for every node to set up the shipped package and answer the probe."""

T = TypeVar("T")
R = TypeVar("R")


class BackendError(RummyError, ValueError):
    """The backend cannot run: unknown name, Ray missing, cluster unreachable or of another version."""


@dataclass(frozen=True, slots=True)
class Done(Generic[R]):
    """One finished batch: its position in the input, its result, where and at what CPU cost it ran."""

    batch: int
    result: R
    node: str
    """The host (local backend) or Ray node id that ran the batch."""
    cpu_seconds: float
    """CPU time of the worker process spent on the batch."""


def resolve_address(ray_address: str | None) -> str | None:
    """The cluster to connect to: ``ray_address``, else ``RAY_ADDRESS``, else ``None`` (start locally).

    >>> resolve_address("10.0.0.5:6379")
    '10.0.0.5:6379'
    """
    address = ray_address if ray_address is not None else os.environ.get("RAY_ADDRESS")
    address = (address or "").strip()
    return address or None


def package_digest() -> str:
    """SHA-256 over the Python sources of the ``rummykit`` package (names and contents, sorted)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def code_identity() -> dict[str, str]:
    """What must agree between this process and the workers: rummykit's version and sources, Python,
    and the C++ source of the compiled solver where both run one (``compiled``; pure Python gives
    the same results, so a worker without the compiled solver is welcome)."""
    return {
        "rummykit": __version__,
        "digest": package_digest(),
        "python": f"{sys.version_info.major}.{sys.version_info.minor}",
        "file": str(Path(__file__).resolve().parent),
        "compiled": solver_backend.compiled_source(),
    }


def check_identity(local: dict[str, str], remote: dict[str, str], address: str) -> None:
    """Refuse workers that run other code than this process.

    Raises:
        BackendError: one line naming what differs.

    >>> me = {"rummykit": "0.1.0", "digest": "ab", "python": "3.11", "file": "/x"}
    >>> check_identity(me, dict(me, file="/y"), "head:6379")
    >>> check_identity(me, dict(me, rummykit="0.0.9"), "head:6379")
    Traceback (most recent call last):
    ...
    rummykit.cluster.BackendError: the Ray cluster at head:6379 runs rummykit 0.0.9, this is rummykit 0.1.0
    >>> check_identity(dict(me, compiled="c1"), dict(me, compiled=""), "head:6379")  # pure Python there
    >>> check_identity(dict(me, compiled="c1"), dict(me, compiled="c2"), "head:6379")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummykit.cluster.BackendError: the Ray cluster at head:6379 runs a compiled solver built from other C++...
    """
    for key, what in (("python", "Python"), ("rummykit", "rummykit")):
        if remote.get(key) != local[key]:
            raise BackendError(
                f"the Ray cluster at {address} runs {what} {remote.get(key)}, this is {what} {local[key]}"
            )
    if remote.get("digest") != local["digest"]:
        raise BackendError(
            f"the Ray cluster at {address} runs other rummykit {local['rummykit']} sources than this "
            "process (the shipped package was not used)"
        )
    mine, theirs = local.get("compiled", ""), remote.get("compiled", "")
    if mine and theirs and mine != theirs:
        raise BackendError(
            f"the Ray cluster at {address} runs a compiled solver built from other C++ sources than "
            "this process's (rebuild it: make native, or pip install the same release)"
        )


_VERSIONS = re.compile(r"Ray:\s*(\S+)\s*Python:\s*(\S+)", re.S)


def explain_init_error(exc: BaseException, address: str, token_file: Path | None = None) -> str:
    """One line for a failed ``ray.init`` on ``address`` (Ray's own messages span several lines);
    ``token_file``: where ``ray start`` finds a token (default ``~/.ray/auth_token``).

    >>> msg = ("Version mismatch: The cluster was started with:\\n    Ray: 2.9.0\\n    Python: 3.10.4\\n"
    ...        "This process on node 10.0.0.2 was started with:\\n    Ray: 2.40.0\\n    Python: 3.11.2\\n")
    >>> print(explain_init_error(RuntimeError(msg), "head:6379").replace("; ", ";\\n"))
    the Ray cluster at head:6379 runs Ray 2.9.0 with Python 3.10.4;
    this process has Ray 2.40.0 with Python 3.11.2
    """
    text = str(exc)
    if "Version mismatch" in text:
        found = _VERSIONS.findall(text)
        if len(found) == 2:
            (c_ray, c_py), (p_ray, p_py) = found
            return (
                f"the Ray cluster at {address} runs Ray {c_ray} with Python {c_py}; "
                f"this process has Ray {p_ray} with Python {p_py}"
            )
    first = " ".join(text.split())[:300] or type(exc).__name__
    hint = ""
    token = token_file or Path.home() / ".ray" / "auth_token"
    if "Failed to connect" in text and not os.environ.get("RAY_AUTH_MODE") and token.exists():
        # ray start turns token authentication on where a token file exists; a driver without
        # RAY_AUTH_MODE=token is then turned away with a message about the address only.
        hint = (
            f" (a cluster started with token authentication, as ray start does where {token} exists, "
            "needs RAY_AUTH_MODE=token here too)"
        )
    return f"cannot connect to the Ray cluster at {address}: {first}{hint}"


def _host_port(address: str) -> tuple[str, int] | None:
    """The TCP endpoint of ``host:port`` or ``ray://host:port`` (``None`` for ``auto`` and the like)."""
    text = address.removeprefix("ray://")
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast when ``address`` accepts no TCP connection (Ray itself retries for a minute).

    Raises:
        BackendError: one line with the reason.
    """
    endpoint = _host_port(address)
    if endpoint is None:
        return
    try:
        with socket.create_connection(endpoint, timeout=timeout) as connection:
            speaks_grpc = _answers_http2(connection, timeout)
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise BackendError(f"cannot reach the Ray cluster at {address}: {reason}") from None
    if not speaks_grpc:
        # Ray's head (its GCS, and the Ray Client server) speaks gRPC; ray.init would retry for ever.
        raise BackendError(f"{address} answers, but not as a Ray cluster (no gRPC): check the port")


HTTP2_PREFACE: Final = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
"""A client's HTTP/2 connection preface and an empty SETTINGS frame."""


def _answers_http2(connection: socket.socket, timeout: float) -> bool:
    """Whether the server on ``connection`` answers an HTTP/2 preface with a SETTINGS frame, as every
    gRPC server does at once (an HTTP/1 server answers with text, or closes)."""
    try:
        connection.settimeout(timeout)
        connection.sendall(HTTP2_PREFACE)
        header = b""
        while len(header) < 9:
            chunk = connection.recv(9 - len(header))
            if not chunk:
                return False
            header += chunk
    except OSError:
        return False
    return header[3] == 4  # the frame type: SETTINGS


def _timed(fn: Callable[[T], R], item: T, node: str) -> tuple[str, float, R]:
    t0 = time.process_time()
    result = fn(item)
    return node, time.process_time() - t0, result


def _local_task(fn: Callable[[T], R], item: T) -> tuple[str, float, R]:
    return _timed(fn, item, socket.gethostname())


def _ray_task(fn: Callable[[T], R], item: T) -> tuple[str, float, R]:
    import ray

    return _timed(fn, item, ray.get_runtime_context().get_node_id())


def _cluster_cpus(ray: Any) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def _probe() -> dict[str, str]:
    return code_identity()


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's worker processes now. ``shutdown(cancel_futures=True)`` cancels only the tasks
    not yet handed to a worker; each worker would still play the game it holds and the one queued
    for it (a whole game of a slow bot after Ctrl-C). Python 3.14 has ``terminate_workers``; before,
    the executor's process table is the only handle on them."""
    terminate = getattr(pool, "terminate_workers", None)
    if callable(terminate):
        terminate()
        return
    processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):  # already gone
            process.terminate()


def _start_worker(parent: int) -> None:
    """A pool worker's start: SIGTERM ends it at once, whatever handler the parent had installed
    when it forked (Ray's driver, a command turning SIGTERM into Ctrl-C), since the pool stops its
    workers with SIGTERM and a worker that caught it would play out its queued games first; and it
    ends with its parent (:func:`~rummykit.web.runtime.follow_parent`)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    follow_parent(parent, False)


class Runner:
    """Runs batches on one backend; open it with ``with`` (connects to or starts Ray on entry)."""

    def __init__(self, backend: str = "local", workers: int | None = None, ray_address: str | None = None):
        if backend not in BACKENDS:
            raise BackendError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
        self.backend: Backend = "ray" if backend == "ray" else "local"
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.address = resolve_address(ray_address) if self.backend == "ray" else None
        self.cpus = self.workers
        """CPUs that run batches (for Ray: the cluster's CPUs once connected)."""
        self._pool: ProcessPoolExecutor | None = None
        self._ray: Any = None
        self._started_ray = False
        self.remote_identities: list[dict[str, str]] = []
        """What the probe reported from every node of the cluster (:func:`code_identity`)."""

    # Context --------------------------------------------------------------------------------------
    def __enter__(self) -> Runner:
        if self.backend == "ray":
            self._connect()
        elif self.workers > 1:
            # A worker ends with this process, also when it is killed (SIGKILL, the OOM killer), rather
            # than play on as an orphan holding its share of the machine.
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, initializer=_start_worker, initargs=(os.getpid(),)
            )
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._pool is not None:
            if kind is not None:  # stopped (Ctrl-C, an error): the games the workers hold are dropped
                _stop_workers(self._pool)
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        if self._started_ray:
            self._ray.shutdown()
            self._started_ray = False

    def _connect(self) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError("the ray backend needs Ray: pip install 'rummykit[ray]'") from None
        self._ray = ray
        if ray.is_initialized():
            self.cpus = _cluster_cpus(ray)
            return
        quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
        if self.address is None:
            ray.init(address="local", num_cpus=self.workers, include_dashboard=False, **quiet)
            self._started_ray = True
            return
        check_reachable(self.address)

        try:
            ray.init(address=self.address, runtime_env={"py_modules": [rummykit]}, **quiet)
        except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError …
            raise BackendError(explain_init_error(exc, self.address)) from None
        self._started_ray = True
        try:
            self._check_nodes(ray)
        except BaseException:
            self.__exit__(None, None, None)
            raise

    def _check_nodes(self, ray: Any) -> None:
        """Run the probe once on every node with CPUs: each must run this very code (this also starts
        a worker on every node, so the first batches spread at once). The probe needs no CPU, so a
        busy cluster answers at once.

        Raises:
            BackendError: a node runs other code, cannot set up the shipped package, or does not
                answer within :data:`PROBE_TIMEOUT` seconds.
        """
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        nodes = [n["NodeID"] for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU")]
        probe = ray.remote(_probe)
        refs = [
            probe.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=True),
                max_retries=TASK_RETRIES,
                num_cpus=0,
            ).remote()
            for node_id in nodes
        ]
        try:
            remotes = ray.get(refs, timeout=PROBE_TIMEOUT)
        except ray.exceptions.GetTimeoutError:
            raise BackendError(
                f"the nodes of the Ray cluster at {self.address} did not start rummykit "
                f"within {PROBE_TIMEOUT:.0f} s"
            ) from None
        except ray.exceptions.RayError as exc:
            cause = exc.cause if isinstance(exc, ray.exceptions.RayTaskError) else exc
            first = " ".join(str(cause).split())[:300]
            raise BackendError(
                f"a node of the Ray cluster at {self.address} cannot run rummykit: {first}"
            ) from None
        here = code_identity()
        for remote in remotes:
            self.remote_identities.append(remote)
            check_identity(here, remote, str(self.address))
        self.cpus = _cluster_cpus(ray)

    # Work -----------------------------------------------------------------------------------------
    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[Done[R]]:
        """Run ``fn`` on every item; yield each result as it finishes (any order).

        ``fn`` must be a module-level function (workers import it by name) and pure: a retried
        item gives the same result.
        """
        if self.backend == "ray":
            yield from self._map_ray(fn, items)
        elif self._pool is None:
            for i, item in enumerate(items):
                node, cpu, result = _local_task(fn, item)
                yield Done(i, result, node, cpu)
        else:
            yield from self._map_pool(self._pool, fn, items)

    def _map_pool(
        self, pool: ProcessPoolExecutor, fn: Callable[[T], R], items: Sequence[T]
    ) -> Iterator[Done[R]]:
        ahead = IN_FLIGHT_PER_CPU * self.workers
        pending: dict[Future[tuple[str, float, R]], int] = {}
        nxt = 0
        while nxt < len(items) or pending:
            while nxt < len(items) and len(pending) < ahead:
                pending[pool.submit(_local_task, fn, items[nxt])] = nxt
                nxt += 1
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                node, cpu, result = fut.result()
                yield Done(pending.pop(fut), result, node, cpu)

    def _map_ray(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[Done[R]]:
        ray = self._ray
        task = ray.remote(_ray_task).options(
            max_retries=TASK_RETRIES, retry_exceptions=False, scheduling_strategy="SPREAD"
        )
        ahead = IN_FLIGHT_PER_CPU * self.cpus
        pending: dict[Any, int] = {}
        nxt = 0
        try:
            while nxt < len(items) or pending:
                while nxt < len(items) and len(pending) < ahead:
                    pending[task.remote(fn, items[nxt])] = nxt
                    nxt += 1
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    batch = pending.pop(ref)
                    try:
                        node, cpu, result = ray.get(ref)
                    except ray.exceptions.RayTaskError as exc:
                        cause = exc.cause
                        if not isinstance(cause, ray.exceptions.RayError):
                            # The batch's own error as raised (its notes name the bot, seat and game),
                            # not Ray's wrapper, whose text repeats the remote traceback.
                            own = cause if isinstance(cause, Exception) else exc.as_instanceof_cause()
                            raise own from None
                        raise BackendError(_lost(batch, exc.cause)) from None
                    except ray.exceptions.RayError as exc:
                        raise BackendError(_lost(batch, exc)) from None
                    yield Done(batch, result, node, cpu)
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)


def _lost(batch: int, exc: BaseException) -> str:
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
    return f"batch {batch} was lost ({type(exc).__name__}: {first[:200]})"


def batches_of(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into consecutive batches of ``size`` (the last may be shorter)."""
    size = max(1, size)
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "Done",
    "Runner",
    "batches_of",
    "check_identity",
    "check_reachable",
    "code_identity",
    "explain_init_error",
    "resolve_address",
]
