# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Each one creates .venv and installs the project (editable, with the dev extras) when needed.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench bundle clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m game $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check game tests bench
	$(BIN)/ruff format --check game tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python -m bench $(ARGS)

# The one-file executable for this platform (dist/timestep-lab), then its smoke test: see the
# README's "Install" for how long it takes, and for building it on Windows and macOS.
bundle: $(STAMP)
	$(BIN)/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/bundle \
		timestep-lab.spec
	tests/bundle_smoke.sh dist/timestep-lab

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
