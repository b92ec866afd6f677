# Quick start: `make play` starts the game, `make test` runs every test. Both create or reuse ./.venv and
# reinstall the package only when pyproject.toml, setup.py or a compiled core's source changed (the stamp file
# inside .venv remembers). The install builds the compiled cores (src/taash/seep/_core.c, the Seep engine's, and
# src/taash/rummy/_solver.c, the Rummy hand solver's) in place when a C compiler is at hand, and each game falls
# back to its pure-Python code when not; the last lines say which.
# The interpreter of a new .venv: PYTHON=... chooses one; otherwise scripts/pick-python prefers the
# distribution's optimised build of Python 3.11 (see there).
VENV := .venv
STAMP := $(VENV)/.installed
BIN := $(VENV)/bin

.PHONY: play tui test test-long lint docs docs-serve i18n bench venv clean pyodide

venv: $(STAMP)

$(STAMP): pyproject.toml setup.py src/taash/seep/_core.c src/taash/rummy/_solver.c package-lock.json
	@test -x $(BIN)/python || "$$(scripts/pick-python)" -m venv $(VENV)
	-$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,docs,env,openspiel,ray,learn]'
	@$(BIN)/python -c 'from taash.seep.core import CORE; print(f"taash: the Seep engine runs on its {CORE} core")'
	@$(BIN)/python -c 'from taash.rummy.core import CORE; print(f"taash: the Rummy solver runs on its {CORE} core")'
	@$(MAKE) --no-print-directory pyodide
	@touch $(STAMP)

# Pyodide for the browser's offline game (docs/offline.md), from the npm registry as package-lock.json pins it,
# into node_modules/ (git-ignored); the server serves it under /pyodide/. Without npm the offline game is missing.
# The same install brings allprofanity, whose Hindi list gives the chat's word filter its Devanagari words.
pyodide:
	@if command -v npm >/dev/null; then npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && \
		echo "taash: Pyodide $$(node -p 'require("./node_modules/pyodide/package.json").version') installed for offline play"; \
	else echo "taash: npm not found: the offline game (Pyodide) is not installed"; fi

# The game: the web server (it prints its address); ARGS="--port 8080" passes options on (taash serve --help).
play: $(STAMP)
	@$(BIN)/taash serve $(ARGS)

# The game in the terminal: a 4-player match, you and a bot partner against two bots (taash play --help).
tui: $(STAMP)
	@$(BIN)/taash play $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

# Every test, then the Seep engine's tests and the Rummy solver's again on their pure cores (the fallback where the
# compiled ones are not built).
test: lint docs
	@scripts/ensure-chromium
	@scripts/ensure-axe
	@scripts/ensure-redis
	@scripts/ensure-haproxy
	$(BIN)/python -m pytest -q -n auto --durations=25
	TAASH_PURE=1 $(BIN)/python -m pytest -q -n auto tests/seep tests/rummy/test_solver.py tests/rummy/test_solver_core.py \
		tests/env/test_seep_batch.py

# The long versions of checks the suite runs short (TAASH_SLOW_TESTS=1: the staked matches' server killed 20 times
# instead of 5, the cluster's failover ten times in a row); separate from `make test`, as benchmarks are.
test-long: $(STAMP)
	@scripts/ensure-redis
	TAASH_SLOW_TESTS=1 $(BIN)/python -m pytest -q -n auto tests/web/test_stakes_kill.py tests/web/test_cluster.py

# The documentation site (mkdocs.yml, docs/): built strictly (a broken link or a missing page fails), into
# site/; `make docs-serve` serves it with live reload on http://127.0.0.1:8001/.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

docs-serve: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --dev-addr 127.0.0.1:8001

# The message catalogues: the messages players read, extracted from the code into taash.pot, and each language's
# catalogue updated from it (new messages then need their translations: tests/test_i18n.py says which).
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg --no-location --sort-output --project taash \
		--copyright-holder "taash contributors" -o src/taash/i18n/locale/taash.pot src/taash
	$(BIN)/pybabel update -i src/taash/i18n/locale/taash.pot -d src/taash/i18n/locale -D taash \
		--no-fuzzy-matching --ignore-obsolete --width 120

bench: $(STAMP)
	$(BIN)/taash seep bench
	$(BIN)/taash rummy bench

clean:
	rm -rf $(VENV) node_modules site .pytest_cache .mypy_cache .ruff_cache .hypothesis
