"""Test collection: the fuzz target (atheris, ``make fuzz``) is no test module, the compiled
solver's wrapper module only imports where the extension is built, and the migrations' Alembic
environment runs only inside Alembic."""

import importlib.util

BUILT = importlib.util.find_spec("rummykit.solver._native") is not None
collect_ignore = ["tests/fuzz_native.py", "src/rummykit/web/migrations/env.py"] + (
    [] if BUILT else ["src/rummykit/solver/native.py"]
)
