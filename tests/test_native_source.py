"""A compiled extension built from other sources than the C++ beside it is not used."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from rummykit.native_source import source_digest, stale_reason
from rummykit.solver import backend


def test_the_loaded_extensions_were_built_from_the_sources_here() -> None:
    if backend.native is None:
        pytest.skip(f"the compiled solver is not in use here: {backend.native_status}")
    from rummykit.envs import compiled
    from rummykit.solver import _native as solver_native  # type: ignore[attr-defined]

    built = source_digest(Path(backend.__file__).with_name("_native.cpp"))
    assert built == solver_native.SOURCE_DIGEST
    if compiled.NATIVE is not None:
        built = source_digest(Path(compiled.__file__).with_name("_native.cpp"))
        assert built == compiled.NATIVE.SOURCE_DIGEST


def test_a_module_built_from_other_sources_is_refused_with_its_reason(tmp_path: Path) -> None:
    source = tmp_path / "_native.cpp"
    source.write_text("int answer() { return 42; }\n")
    module = types.ModuleType("rummykit.solver._native")
    module.SOURCE_DIGEST = source_digest(source)  # type: ignore[attr-defined]
    assert stale_reason(module, source) is None
    source.write_text("int answer() { return 41; }\n")  # edited since the build
    reason = stale_reason(module, source)
    assert reason is not None and "other sources than _native.cpp" in reason and "make native" in reason
    del module.SOURCE_DIGEST  # a build from before the digest
    assert stale_reason(module, source) is not None
    assert stale_reason(module, tmp_path / "absent.cpp") is None  # an installed wheel has no source
