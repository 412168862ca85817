# Everything runs from the project's own virtualenv, built on first use from plain python3.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test readme-example bench lint clean

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[postgres,test]'
	touch $@

demo: $(STAMP)
	rm -f demo.sqlite
	$(VENV)/bin/mtg-ledger demo --seed 7 --db demo.sqlite

test: export HYPOTHESIS_PROFILE := ci
test: $(STAMP)
	$(PY) -m pytest -q

readme-example: $(STAMP)
	$(PY) tests/readme_example.py

bench: $(STAMP)
	$(PY) -m benchmarks.run
	$(PY) -m benchmarks.timetravel
	$(PY) -m benchmarks.scaleout_store

lint: $(STAMP)
	$(PY) -m compileall -q core projections replays tests
	@if [ -x $(VENV)/bin/ruff ]; then $(VENV)/bin/ruff check .; \
	elif command -v ruff >/dev/null 2>&1; then ruff check .; \
	else echo "ruff not installed: skipped"; fi

clean:
	rm -rf demo.sqlite build dist *.egg-info .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +
