"""The arena and self-play on a multi-node Ray cluster on this machine (head and two worker nodes).

One cluster serves the whole module (starting one takes 10–20 s); its temporary files live in a
folder of its own, its ports are picked free by Ray, and everything is shut down at the end. One
worker node is bare: its Python cannot import this checkout's rummykit, so it runs only what the
job ships.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from rummykit.arena import ArenaConfig, run_arena
from rummykit.cli import app
from rummykit.cluster import BackendError, Runner, code_identity
from rummykit.record import Record
from rummykit.selfplay import SelfPlayConfig, read_records, run_selfplay

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

CONFIG = ArenaConfig("viennese", ("greedy", "random"), rounds=24, seed=5)
BARE_SITE = """import sys

# A bare Ray node: the checkout's source folder (the editable install) is not on the path.
sys.path[:] = [p for p in sys.path if p.rstrip("/") != {src!r}]
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A head and two worker nodes of one CPU each, with Ray's files under a private folder."""
    temp = tempfile.mkdtemp(prefix="rk", dir="/tmp")  # Ray's socket paths must stay short
    os.mkdir(os.path.join(temp, "ray"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("RAY_TMPDIR", temp)  # where Ray notes the current cluster's address
        mp.delenv("RAY_ADDRESS", raising=False)
        c = cluster_utils.Cluster(
            initialize_head=True,
            head_node_args={
                "num_cpus": 1,
                "include_dashboard": False,
                "temp_dir": os.path.join(temp, "ray"),
                # A killed node is declared dead after about 2 s instead of 15.
                "_system_config": {"health_check_period_ms": 500, "health_check_failure_threshold": 4},
            },
        )
        try:
            c.add_node(num_cpus=1)
            bare_site = os.path.join(temp, "bare")
            os.mkdir(bare_site)
            src = str(Path(__file__).resolve().parents[1] / "src")
            Path(bare_site, "sitecustomize.py").write_text(BARE_SITE.format(src=src))
            c.bare = c.add_node(num_cpus=1, env_vars={"PYTHONPATH": bare_site})
            yield c
        finally:
            if ray.is_initialized():
                ray.shutdown()
            c.shutdown()
            shutil.rmtree(temp, ignore_errors=True)


def test_cli_arena_connects_by_ray_address_and_spreads_over_nodes(
    cluster: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAY_ADDRESS", cluster.address)  # as Ray's own tools: no --ray-address needed
    args = ["arena", "--rules", "viennese", "--bots", "greedy,random", "--rounds", "24", "--seed", "5"]
    result = CliRunner().invoke(app, [*args, "--backend", "ray", "--batch", "2", "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["workers"] == 3  # the cluster's CPUs, not a local instance's
    nodes = data.pop("nodes")
    assert len(nodes) >= 2, nodes  # more than one node ran batches
    assert sum(n["games"] for n in nodes.values()) == 24
    for fig in data["bots"].values():
        del fig["seconds_per_move"]  # timing: the only machine-dependent figure
    local = run_arena(CONFIG, workers=1).to_dict(timing=False)
    assert {k: v for k, v in data.items() if k in local} == local


def test_workers_run_the_shipped_package_even_on_a_bare_node(cluster: Any) -> None:
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    def where_is_rummykit() -> str:  # local: shipped by value, so the bare node need not import this file
        try:
            import rummykit
        except ImportError:
            return "missing"
        return str(Path(rummykit.__file__).parent)

    ray.init(address=cluster.address, log_to_driver=False)  # no runtime_env: what the node has itself
    try:
        on_bare = ray.remote(where_is_rummykit).options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(cluster.bare.node_id, soft=False)
        )
        assert ray.get(on_bare.remote()) == "missing"
    finally:
        ray.shutdown()
    with Runner("ray", ray_address=cluster.address) as runner:
        assert runner.cpus == 3
        remotes = runner.remote_identities
    assert len(remotes) == 3  # checked on every node
    here = code_identity()
    for remote in remotes:
        assert remote["digest"] == here["digest"]
        # Imported from the package shipped with the job, not from this checkout.
        assert remote["file"] != here["file"] and "runtime_resources" in remote["file"]


def test_selfplay_on_the_cluster_writes_the_same_files_as_locally(cluster: Any, tmp_path: Path) -> None:
    config = SelfPlayConfig("viennese", ("greedy", "random"), games=12, seed=3, batch=2)
    on_ray = run_selfplay(config, tmp_path / "ray", backend="ray", ray_address=cluster.address)
    assert on_ray.played == 12 and len(on_ray.nodes) >= 2
    run_selfplay(config, tmp_path / "local", workers=1)
    files = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "ray").iterdir())
    for name in files:
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name
    records = list(read_records(tmp_path / "ray"))
    assert len(records) == 12
    for rec in records:
        assert rec.replay().is_over
        assert Record.loads(rec.dumps()).replay().is_over


def test_version_mismatch_is_one_line(cluster: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import ray._private.utils as ray_utils

    real = ray_utils.compute_version_info()
    monkeypatch.setattr(ray_utils, "compute_version_info", lambda: ("0.0.1", real[1]))
    wanted = r"runs Ray .* this process has Ray 0\.0\.1"
    with pytest.raises(BackendError, match=wanted) as info, Runner("ray", ray_address=cluster.address):
        pass
    assert "\n" not in str(info.value)
    args = ["arena", "--bots", "greedy,random", "--rounds", "2", "--ray-address", cluster.address]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "this process has Ray 0.0.1" in result.stderr
    assert "Traceback" not in result.output
    assert not ray.is_initialized()


def test_a_node_lost_mid_run_loses_and_duplicates_no_game(cluster: Any) -> None:
    doomed = cluster.add_node(num_cpus=1)
    removed: list[int] = []

    def remove_a_node(done: int, total: int) -> None:
        # Every node holds batches by now (SPREAD, two per CPU in flight): kill one for good.
        if not removed:
            removed.append(done)
            cluster.remove_node(doomed, allow_graceful=False)

    config = ArenaConfig("viennese", ("greedy", "random"), rounds=40, seed=9)
    res = run_arena(config, backend="ray", ray_address=cluster.address, batch=2, progress=remove_a_node)
    assert removed and removed[0] < 40
    assert [r.index for r in res.results] == list(range(40))  # every game exactly once
    assert sum(n.games for n in res.nodes.values()) == 40
    assert res.to_dict(timing=False) == run_arena(config, workers=1).to_dict(timing=False)


def test_ray_address_in_the_environment_picks_the_ray_backend(monkeypatch: pytest.MonkeyPatch) -> None:
    """``RAY_ADDRESS`` names a cluster as ``--ray-address`` does: without ``--backend`` the run went
    local, silently, on a machine set up to use a cluster."""
    from rummykit.cli.arena import pick_backend

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert pick_backend(None, None) == "local" and pick_backend(None, "10.0.0.1:6379") == "ray"
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert pick_backend(None, None) == "ray" and pick_backend("local", None) == "local"
