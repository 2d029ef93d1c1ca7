# The two commands of the README: `make run` and `make test`. Both install what is missing first
# (system library, virtual environment, Python packages) and are quick when it is all there.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# libusb-1.0-0: open3d links against it. chromium: the real browser the web page is tested in (Playwright
# cannot download its own browsers here, so it drives Debian's). redis-server: the tests and benchmarks of the
# selection channel across machines start their own (it is not started as a service).
APT_PACKAGES := libusb-1.0-0 chromium redis-server

.PHONY: run test lint types setup system-deps viewer mcp-clients clean

run: setup viewer
	$(BIN)/scene-agent scene info
	$(BIN)/scene-agent chat --serve

# Lint and types first: they take seconds and fail fast; then every test, one worker per CPU (pytest-xdist).
test: setup viewer mcp-clients lint types
	$(BIN)/python -m pytest -q -n auto

lint: setup
	$(BIN)/ruff check .

types: setup
	$(BIN)/mypy

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
# npm ci when the lock file changed, a build when a source changed. Its API and event types are generated
# from the server's OpenAPI document (api_server/openapi_dump.py, then openapi-typescript into
# viewer/src/generated), so the build needs the virtual environment and runs again when a model it reads
# changed: a model and the page that drifted apart fail the build.
VIEWER_SOURCES := $(shell find viewer/src -path viewer/src/generated -prune -o -type f -print 2>/dev/null) \
	viewer/index.html viewer/mcp-app.html viewer/vite.config.ts viewer/vite.mcp-app.config.ts viewer/tsconfig.json viewer/package.json
API_MODEL_SOURCES := $(wildcard api_server/*.py scene_agent/tools/*.py scene_agent/selection/*.py) \
	scene_agent/agent/events.py scene_agent/agent/results.py scene_agent/agent/records.py \
	scene_agent/agent/disambiguation.py scene_agent/scene/manifest.py

viewer: setup viewer/dist/index.html

viewer/node_modules/.package-lock.json: viewer/package-lock.json
	cd viewer && npm ci --no-audit --no-fund
	@touch $@

viewer/dist/index.html: viewer/node_modules/.package-lock.json $(VIEWER_SOURCES) $(API_MODEL_SOURCES) | $(STAMP)
	cd viewer && SCENE_AGENT_PYTHON=$(abspath $(BIN))/python npm run build

# The official MCP clients the MCP server is tested with (the TypeScript SDK, and a test MCP Apps host page built
# from app_host/host.ts with the ext-apps app-bridge): npm ci when the lock file changed, a build when the host changed.
mcp-clients: tests/mcp_clients/app_host/dist/host.js

tests/mcp_clients/node_modules/.package-lock.json: tests/mcp_clients/package-lock.json
	cd tests/mcp_clients && npm ci --no-audit --no-fund
	@touch $@

tests/mcp_clients/app_host/dist/host.js: tests/mcp_clients/node_modules/.package-lock.json tests/mcp_clients/app_host/host.ts
	cd tests/mcp_clients && npm run build

clean:
	rm -rf $(VENV) build *.egg-info manifests/demo viewer/dist viewer/node_modules tests/mcp_clients/node_modules tests/mcp_clients/app_host/dist
