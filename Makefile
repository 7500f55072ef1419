# `make run` and `make test` create .venv on first use and install the package there.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bytecode lint format generate clean neovim chromium

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,fast,web]'
	touch $(STAMP)

# The package's bytecode, made as an installer makes it, so that every command starts
# without compiling the package again (even where PYTHONDONTWRITEBYTECODE is set).
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q rulesdsl

# The main job: check the shipped profiles, then measure what the rules sheet's variants
# change in play, on the same 20,000 deals.
run: bytecode
	$(BIN)/rulesdsl validate profiles
	$(BIN)/rulesdsl compare equal-hands instant-elimination opening-trumps seven-card-hands --hands 20000

# The editor test drives headless Neovim: installed from the distribution where it can be,
# else that test is skipped.
neovim:
	@sh .ci/install-neovim || echo "make: Neovim is not installed; the editor test is skipped" >&2

# The page's end-to-end tests drive headless Chromium: installed from the distribution where
# it can be, else they are skipped (under CI=true they fail instead).
chromium:
	@sh .ci/install-chromium || echo "make: Chromium is not installed; the browser tests are skipped" >&2

# Every tier of tests on every core (pytest-xdist: a worker a core, each taking work from the
# others when it runs out), then the linter. One tier: .venv/bin/python -m pytest -m unit;
# the long runs: HYPOTHESIS_PROFILE=thorough make test (docs/developing.md).
test: bytecode neovim chromium
	$(BIN)/python -m pytest -n auto --dist worksteal
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Every file the repository keeps that is made from the code: the JSON Schema, the editors'
# grammars, the options table of docs/profiles.md (a test fails while one is stale).
generate: $(STAMP)
	$(BIN)/python -m rulesdsl.words.generate

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) build dist .pytest_cache .ruff_cache .hypothesis
