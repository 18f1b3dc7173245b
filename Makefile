# `make run` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORE := src/rummykit
# Every install also builds the compiled solver (optional: without a C++ compiler the pure-Python
# twin runs); a changed C++ source reinstalls.
NATIVE_SRC := $(CORE)/solver/_native.cpp $(CORE)/envs/_native.cpp setup.py

.PHONY: run serve play test lint typecheck bench clean native asan fuzz compare

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml $(NATIVE_SRC) | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[cli]'
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(NATIVE_SRC) | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# The main job: the web server with its defaults (SQLite in the user's data folder); prints its URL.
run: serve

# The terminal game: you against two bots.
play: $(VENV)/.installed-run
	$(BIN)/rummykit play

$(VENV)/.installed-web: pyproject.toml $(NATIVE_SRC) | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[web]'
	touch $@

# Play in the browser: prints the URL (http://127.0.0.1:8000/ unless HOST/PORT are given).
HOST ?= 127.0.0.1
PORT ?= 8000
serve: $(VENV)/.installed-web
	$(BIN)/rummykit serve --host $(HOST) --port $(PORT)

# Which solver backend runs; NATIVE_REQUIRED=1 (CI) fails when the compiled one could not be built.
native: $(VENV)/.installed-dev
	@$(BIN)/python -c "from rummykit.solver import backend; print(backend.describe())"
	@$(BIN)/python -c "from rummykit.envs import compiled; print(compiled.describe())"
	@if [ "$(NATIVE_REQUIRED)" = 1 ]; then $(BIN)/python -c "from rummykit.solver import backend; \
		assert backend.native is not None, backend.native_status; \
		from rummykit.envs import compiled; assert compiled.NATIVE is not None, compiled.describe()"; fi

# The whole suite with the compiled extensions, then the solver, bot, inference and env-observation suites
# again on the pure twins.
PURE_SUITES := tests/test_solver.py tests/test_solver_options.py tests/test_solver_backend.py \
	tests/test_race.py tests/test_gin_duel.py tests/test_bots.py tests/test_tactics.py tests/test_rollout.py \
	tests/test_envs_obs.py tests/test_envs_native.py tests/test_inference.py tests/test_particles.py \
	tests/test_gin_particles.py tests/test_knock_duel.py tests/test_calibrated.py tests/test_envs_records.py
# The tests run in parallel, one worker per core (at most 4), a whole file per worker at a time (its
# browser and server are set up once); TEST_WORKERS=0 runs them in this process.
TEST_WORKERS ?= auto
PARALLEL := -n $(TEST_WORKERS) --maxprocesses 4 --dist loadfile
test: native
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy --strict $(CORE)
	RUMMYKIT_REQUIRE_NATIVE=$(NATIVE_REQUIRED) $(BIN)/python -m pytest $(PARALLEL) src tests README.md
	RUMMYKIT_PURE=1 $(BIN)/python -m pytest $(PARALLEL) $(PURE_SUITES)

# Differential tests of the compiled solver and env encoder built with AddressSanitizer and UBSan (a copy
# in build/asan).
ASAN_DIR := build/asan
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1
asan: $(VENV)/.installed-dev
	rm -rf $(ASAN_DIR) && mkdir -p $(ASAN_DIR)
	cp -r src tests setup.py pyproject.toml conftest.py README.md $(ASAN_DIR)/
	rm -f $(ASAN_DIR)/$(CORE)/solver/*.so $(ASAN_DIR)/$(CORE)/envs/*.so
	cd $(ASAN_DIR) && RUMMYKIT_NATIVE_CFLAGS="$(SANITIZE)" $(abspath $(BIN))/python setup.py -q build_ext --inplace
	cd $(ASAN_DIR) && LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 RUMMYKIT_REQUIRE_NATIVE=1 \
		$(abspath $(BIN))/python -m pytest -p no:cacheprovider tests/test_solver_native.py tests/test_solver.py \
		tests/test_envs_native.py

# Fuzz the compiled entry points against the pure twin (atheris; FUZZ_SECONDS, default 600).
FUZZ_SECONDS ?= 600
fuzz: $(VENV)/.installed-dev
	$(BIN)/pip install --quiet 'atheris>=2.3'
	$(BIN)/python tests/fuzz_native.py -max_total_time=$(FUZZ_SECONDS)

# 100,000 random hands on both backends; fails on any difference.
compare: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/compare_backends.py

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/solver.py
	$(BIN)/python benchmarks/playout.py

clean:
	rm -rf $(VENV) build dist *.egg-info src/*.egg-info $(CORE)/solver/*.so $(CORE)/envs/*.so .pytest_cache .mypy_cache .ruff_cache
