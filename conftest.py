"""Test collection: the fuzz target (atheris, ``make fuzz``) is no test module, and the compiled
solver's wrapper module only imports where the extension is built."""

import importlib.util

BUILT = importlib.util.find_spec("rummykit.solver._native") is not None
collect_ignore = ["tests/fuzz_native.py"] + ([] if BUILT else ["src/rummykit/solver/native.py"])
