"""`bench api`: what durability costs. Submit on the product server with fsync turned off, and fsync timed.

A pick acknowledged with 200 is on the disk: the outcome is appended to the outcome journal, which is
flushed (fdatasync, shared by the appends of the moment) before the answer (docs/selection-handoff.md,
"Durability"). To show what that costs on the machine at hand, the bench runs the same submit row on
`python -m scene_bench.api_fsync`: `scene-agent serve`'s app, threads and tuning, in a process where every fsync
is a no-op (`_without_fsync`: this module replaces the os functions in its own processes, the server and the
delivery process it starts; the product has no such switch). It also times fsync itself, one writer at a time, in the directory
the servers use: an append of an outcome's size to a journal, as a delivery does; and, for comparison, what
flushing each outcome as a file of its own would take (the file's data, then its directory once the file is
linked in).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from scene_bench.api import HOST, ApiRow, announce_and_run, measure, server_process

SERVER = "waitress-no-fsync"
ARGV = ["-m", "scene_bench.api_fsync"]
FSYNC_SAMPLES = 40
OUTCOME_BYTES = 250  # about the size of an outcome record (a SessionOutcome)


@dataclass(frozen=True)
class FsyncCost:
    """fsync on this machine, timed directly: medians over `samples` new files, one writer at a time."""

    journal_ms: float  # an append to a journal, then fdatasync: what a delivery waits for (alone)
    file_ms: float  # the data of a new file
    directory_ms: float  # its directory, once the file is linked in under its name
    samples: int

    def as_json(self) -> dict[str, float | int]:
        """The `fsync` entry of the `--json` document."""
        return {"journal_ms": self.journal_ms, "file_ms": self.file_ms, "directory_ms": self.directory_ms,
                "samples": self.samples}


def time_fsync(directory: Path, samples: int = FSYNC_SAMPLES) -> FsyncCost:
    """Append `samples` records to a journal in `directory` (created if missing), fdatasync after each; write as many
    small files, fsync each, link it, fsync the directory."""
    directory.mkdir(parents=True, exist_ok=True)
    journal_s, data_s, dir_s = [], [], []
    journal = os.open(directory / "journal.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for _ in range(samples):
            began = time.perf_counter()
            os.write(journal, b"x" * OUTCOME_BYTES)
            os.fdatasync(journal)
            journal_s.append(time.perf_counter() - began)
    finally:
        os.close(journal)
    for i in range(samples):
        temp, final = directory / f".fsync-{i}.tmp", directory / f"fsync-{i}.json"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, b"x" * OUTCOME_BYTES)
            began = time.perf_counter()
            os.fsync(fd)
            data_s.append(time.perf_counter() - began)
        finally:
            os.close(fd)
        os.link(temp, final)
        os.unlink(temp)
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            began = time.perf_counter()
            os.fsync(dir_fd)
            dir_s.append(time.perf_counter() - began)
        finally:
            os.close(dir_fd)
    journal_ms, file_ms, directory_ms = (round(statistics.median(times) * 1000, 3) for times in (journal_s, data_s, dir_s))
    return FsyncCost(journal_ms, file_ms, directory_ms, samples)


def measure_without_fsync(root: Path, n: int, concurrency: int, examples: list[str]) -> ApiRow:
    """The submit row on the product server with every fsync a no-op."""
    with server_process(SERVER, ARGV, root) as server:
        return measure(server, "submit", n, concurrency, examples)


def _without_fsync() -> None:
    """Every fsync and fdatasync of this process a no-op (scene_agent/fileio.py calls them through `os`)."""
    def skipped(fd: object) -> None:
        return None

    os.fsync = skipped
    os.fdatasync = skipped


def _serve() -> None:
    """`scene-agent serve`'s app, threads and tuning with fsync turned off, on a free port, until SIGTERM; its delivery
    process is this module too (`_deliver`), so that its fsyncs are off as well."""
    from api_server.app import create_app
    from api_server.serve import SERVE_THREADS, make_server, stream_slots
    from scene_agent.config import load_settings
    from scene_agent.selection.channel import SelectionChannel
    from scene_agent.selection.files.backend import FileBackend

    _without_fsync()
    print("warning: fsync is off: picks this server acknowledges may be lost in a crash (benchmark only)", file=sys.stderr)
    settings = load_settings()
    channel = SelectionChannel(FileBackend(settings, child=(sys.executable, "-m", "scene_bench.api_fsync", "deliver")))
    app = create_app({"SCENE_PATH": None, "SETTINGS": settings, "CHANNEL": channel,
                      "MAX_EVENT_STREAMS": stream_slots(SERVE_THREADS), "DELIVER_IN_CHILD": True})
    announce_and_run(app, make_server(app, HOST, 0, SERVE_THREADS))


def _deliver(argv: list[str]) -> None:
    """The delivery process of that server: scene_agent/selection/files/deliverer.py's, with fsync turned off."""
    from scene_agent.selection.files.deliverer import main

    _without_fsync()
    main(argv)


if __name__ == "__main__":
    if sys.argv[1:2] == ["deliver"]:
        _deliver(sys.argv[2:])
    else:
        _serve()
