# The two commands of the README: `make run` and `make test`. Both install what is missing first
# (system library, virtual environment, Python packages) and are quick when it is all there.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# libusb-1.0-0: open3d links against it. chromium: the real browser the web page is tested in (Playwright
# cannot download its own browsers here, so it drives Debian's).
APT_PACKAGES := libusb-1.0-0 chromium

.PHONY: run test setup system-deps viewer clean

run: setup viewer
	$(BIN)/scene-agent scene info
	$(BIN)/scene-agent chat --serve

test: setup viewer
	$(BIN)/python -m pytest -q

setup: system-deps $(STAMP)

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

# The web page (TypeScript + three.js, built by Vite into viewer/dist, which `serve` serves at /):
# npm ci when the lock file changed, a build when a source changed.
VIEWER_SOURCES := $(shell find viewer/src -type f 2>/dev/null) viewer/index.html viewer/vite.config.ts viewer/tsconfig.json

viewer: viewer/dist/index.html

viewer/node_modules/.package-lock.json: viewer/package-lock.json
	cd viewer && npm ci --no-audit --no-fund
	@touch $@

viewer/dist/index.html: viewer/node_modules/.package-lock.json $(VIEWER_SOURCES)
	cd viewer && npm run build

clean:
	rm -rf $(VENV) build *.egg-info manifests/demo viewer/dist viewer/node_modules
