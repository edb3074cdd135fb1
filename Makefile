# Two commands set everything up on a fresh machine: `make run` and `make test`.
# Each one creates .venv and installs the project (editable, with the dev and cluster extras)
# when needed.

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install run test test-fast test-one-core lint generate docs bench bundle clean

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m game $(ARGS)

# The whole suite, on every core (pytest-xdist); `test-fast` leaves out the tests marked slow (over
# 2 s each), for the edit-and-test loop; `test-one-core` runs it all on one core that a busy loop
# shares, as on a weak laptop: no test may depend on how fast the machine is.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

# Python may keep the bytecode it compiles, even where the environment says not to: each test
# worker otherwise compiles (and rewrites the asserts of) every test module again, 6 s a run.
test test-fast test-one-core: export PYTHONDONTWRITEBYTECODE =

test-fast: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist worksteal -m "not slow" $(PYTEST_ARGS)

test-one-core: $(STAMP)
	tests/one_core.sh $(BIN)/python -m pytest -n auto --dist worksteal $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check timestep_lab game tests bench docs
	$(BIN)/ruff format --check timestep_lab game tests bench docs
	$(BIN)/mypy
	$(BIN)/mypy --strict docs/examples
	$(BIN)/python tests/typing/check.py
	$(BIN)/python -m game.knobs.generate --check
	$(BIN)/python -m game.config.default_file --check
	$(MAKE) --no-print-directory docs

# The files written from the knob table: the typed fields, and the shipped configs/default.toml.
generate: $(STAMP)
	$(BIN)/python -m game.knobs.generate --write
	$(BIN)/python -m game.config.default_file --write

# The documentation site (docs/*.md, Sphinx with MyST and Furo) into build/docs: every page read
# afresh (-E), warnings as errors (-W, all of them: --keep-going), every reference checked (-n).
# Then no page may load a script or a style sheet from another host: nothing is fetched.
docs: $(STAMP)
	rm -rf build/docs
	$(BIN)/sphinx-build -b html -E -W --keep-going -n -q -d build/docs.doctrees docs build/docs
	! grep -rlE '<(script|link)[^>]*(src|href)="(https?:)?//' build/docs --include='*.html'

bench: $(STAMP)
	$(BIN)/python -m bench $(ARGS)

# The one-file executable for this platform (dist/timestep-lab), then its smoke test: see
# docs/install.md for how long it takes, and for building it on Windows and macOS.
bundle: $(STAMP)
	$(BIN)/pyinstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/bundle \
		timestep-lab.spec
	tests/bundle_smoke.sh dist/timestep-lab

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build dist
