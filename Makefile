# The two commands of the README: `make run` and `make test`. Both install what is missing first
# (system library, virtual environment, Python packages) and are quick when it is all there.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := libusb-1.0-0

.PHONY: run test setup system-deps viewer clean

run: setup viewer
	$(BIN)/scene-agent scene info
	$(BIN)/scene-agent chat --serve

test: setup
	$(BIN)/python -m pytest -q

setup: system-deps $(STAMP)

# open3d's native library links against libusb-1.0; Debian's package provides it.
system-deps:
	@missing=""; for pkg in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing system packages:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	@touch $@

# The web viewer (TypeScript + three.js, built by Vite into viewer/dist, which `serve` serves at /),
# once the checkout has one.
viewer:
	@if [ -f viewer/package.json ]; then \
	  [ -d viewer/node_modules ] || (cd viewer && npm ci --no-audit --no-fund); \
	  (cd viewer && npm run build); \
	fi

clean:
	rm -rf $(VENV) build *.egg-info manifests/demo
