# Everything runs from the project's own virtualenv, built on first use from plain python3.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast fault readme-example docs bench lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[postgres,test,lint,docs]'
	touch $@

# Adds a game to the default store (./mtg-ledger.sqlite), which the next commands read; a second run adds another.
demo: $(STAMP)
	$(VENV)/bin/mtg-ledger demo --seed 7 --deck selesnya-counters --deck rakdos-aggro
	@echo
	@echo "The game is stored in ./mtg-ledger.sqlite. Run mtg-ledger from the project's virtual environment:"
	@echo "  .venv/bin/mtg-ledger games        (or first: source .venv/bin/activate)"

test: export HYPOTHESIS_PROFILE := ci
test: $(STAMP)
	bash .ci/services
	$(PY) -m pytest -q

# The rules and unit tests alone (tests/rules, tests/unit), with few examples per property: no PostgreSQL, no
# browser, no server process, on two cores (pytest-xdist), keeping compiled modules between runs (even where the
# environment sets PYTHONDONTWRITEBYTECODE). `make test` runs them all, with more examples.
test-fast: export HYPOTHESIS_PROFILE := fast
test-fast: export PYTHONDONTWRITEBYTECODE :=
test-fast: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "not postgres" tests/rules tests/unit

# The fault test: serve --workers 2 on the loopback PostgreSQL under load, workers killed with SIGKILL and the
# cluster restarted once (other test runs on the machine notice it for a second or so); about 25 s
fault: $(STAMP)
	$(PY) -m pytest -q -s tests/fault_service.py

readme-example: $(STAMP)
	$(PY) tests/readme_example.py

# The docs site (mkdocs.yml) into site/; --strict fails on a broken link or a page left out of the nav.
# docs/hooks.py writes the reference pages from the code as it builds.
docs: $(STAMP)
	$(VENV)/bin/mkdocs build --strict

bench: $(STAMP)
	rm -f benchmarks/results.json
	$(PY) -m benchmarks.quiet
	$(PY) -m benchmarks.machine
	$(PY) -m benchmarks.run
	$(PY) -m benchmarks.storage
	$(PY) -m benchmarks.quiet
	$(PY) -m benchmarks.timetravel
	$(PY) -m benchmarks.quiet
	$(PY) -m benchmarks.service
	$(PY) -m benchmarks.scaleout_store
	$(PY) -m benchmarks.quiet
	$(PY) -m benchmarks.scaleout
	$(PY) -m benchmarks.postgres_import
	$(PY) -m benchmarks.quiet
	$(PY) -m benchmarks.cli
	$(PY) -m benchmarks.audit
	$(PY) -m benchmarks.receipts
	$(PY) -m benchmarks.cards
	$(PY) -m benchmarks.machine --last
	$(PY) -m benchmarks.targets

# mypy can't follow setuptools' package-dir mapping (core/ is mtg_ledger.core): it reads the packages
# through a tree of links named as they install. Strict on core, mypy's defaults elsewhere (pyproject).
MYPY_SRC := $(VENV)/mypy-src
lint: $(STAMP)
	$(PY) -m compileall -q core projections replays tests
	$(VENV)/bin/ruff check .
	mkdir -p $(MYPY_SRC)/mtg_ledger
	for p in core projections replays; do ln -sfn ../../../$$p $(MYPY_SRC)/mtg_ledger/$$p; done
	MYPYPATH=$(MYPY_SRC) $(VENV)/bin/mypy -p mtg_ledger.core -p mtg_ledger.projections -p mtg_ledger.replays

clean:
	rm -rf demo.sqlite site build dist *.egg-info .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
