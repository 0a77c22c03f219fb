# Two entry points for a fresh Linux machine: `make run` and `make test`.
# Both create .venv (if missing or stale) and install the project from pyproject.toml.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test demo lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tablekeeper run --sim

test: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -q

demo: $(STAMP)
	$(BIN)/tablekeeper demo

lint: $(STAMP)
	$(BIN)/ruff check device vision games display tests
	$(BIN)/mypy device vision games display

clean:
	rm -rf $(VENV) build *.egg-info
