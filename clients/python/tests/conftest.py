"""Fixtures: a real ``caffe worker`` process on loopback ports it picks itself.

The binary is ``$CAFFE_BIN`` or the repository's ``.build/debug/caffe`` (what ``make test``
builds). A worker binds every endpoint to ``tcp://127.0.0.1:*`` and reports the ports it got in
its first log line, so tests never guess free ports.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import zmq

REPO = Path(__file__).resolve().parents[3]
CONFIG = REPO / "config"


def caffe_binary() -> Path:
    path = Path(os.environ.get("CAFFE_BIN", REPO / ".build/debug/caffe"))
    if not path.is_file():
        pytest.fail(f"no caffe binary at {path}: build it (swift build) or set CAFFE_BIN", pytrace=False)
    return path


@dataclass
class RunningWorker:
    """A ``caffe worker`` process and the endpoints it bound (``tcp://127.0.0.1:<port>``;
    ``metrics`` is ``host:port``)."""

    process: subprocess.Popen
    input: str
    output: str
    rpc: str
    metrics: str
    checkpoint: Path
    log: Path
    overrides: list[str] = field(default_factory=list)

    def log_lines(self) -> list[dict]:
        lines = []
        for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError:
                lines.append({"message": line})
        return lines

    def checkpoint_sources(self) -> dict[str, int]:
        """The checkpoint's marks: the snapshot, then the journal's later lines (docs/WIRE.md)."""
        sources: dict[str, int] = {}
        generation = 0
        if self.checkpoint.exists():
            snapshot = json.loads(self.checkpoint.read_text())
            sources = dict(snapshot["sources"])
            generation = snapshot.get("generation", 0)
        journal = self.checkpoint.with_name(self.checkpoint.name + ".journal")
        if journal.exists():
            lines = journal.read_text().split("\n")
            for line in lines[:-1]:  # the last piece is empty or a torn write
                if not line:
                    continue
                change = json.loads(line)
                if change["g"] <= generation:
                    continue
                for source, mark in change.get("s", {}).items():
                    sources[source] = max(mark, sources.get(source, 0))
        return sources

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 20) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(5)


def _endpoint(text: str) -> str:
    """``"sub @tcp://127.0.0.1:41234"`` → ``"tcp://127.0.0.1:41234"``."""
    return text.split()[-1].split(",")[0].lstrip("@>")


def start_worker(folder: Path, *overrides: str, name: str = "worker", wait: float = 20) -> RunningWorker:
    """Starts ``caffe worker`` with its endpoints on loopback wildcards plus ``overrides``
    (``key=value``), and waits for its "worker serving" line."""
    checkpoint = folder / f"{name}.checkpoint"
    log = folder / f"{name}.log"
    settings = [
        "input.endpoints=@tcp://127.0.0.1:*",
        # Not the same text as the input's: the worker refuses an output bound where its input is.
        "output.endpoints=@tcp://127.0.0.1:0",
        "rpc.endpoint=@tcp://127.0.0.1:*",
        "metrics.address=127.0.0.1:0",
        f"checkpoint.path={checkpoint}",
        "checkpoint.interval_ms=50",
        "render.threads=1",
        "log.format=json",
        *overrides,
    ]
    command = [str(caffe_binary()), "worker", "--config-file", str(CONFIG / "worker.yaml")]
    for setting in settings:
        command += ["--set", setting]
    environment = {key: value for key, value in os.environ.items() if not key.startswith("CAFFE_")}
    environment["CAFFE_CONFIG"] = str(CONFIG)
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=log.open("w"), env=environment, cwd=folder
    )
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        for line in log.read_text(errors="replace").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("message") == "worker serving":
                return RunningWorker(
                    process,
                    input=_endpoint(entry["input"]),
                    output=_endpoint(entry["output"]),
                    rpc=_endpoint(entry["rpc"]),
                    metrics=entry["metrics"].removeprefix("http://").removesuffix("/metrics"),
                    checkpoint=checkpoint,
                    log=log,
                    overrides=list(overrides),
                )
        if process.poll() is not None:
            raise RuntimeError(f"caffe worker exited with {process.returncode}: {log.read_text()}")
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"caffe worker did not start within {wait} s: {log.read_text()}")


@pytest.fixture
def workers(tmp_path):
    """Starts workers for one test (``workers(*overrides)``) and stops them after it."""
    started: list[RunningWorker] = []

    def make(*overrides: str, name: str | None = None) -> RunningWorker:
        worker = start_worker(tmp_path, *overrides, name=name or f"worker-{len(started) + 1}")
        started.append(worker)
        return worker

    yield make
    for worker in started:
        worker.stop()


@pytest.fixture(scope="module")
def worker(tmp_path_factory):
    """One worker shared by a module's tests (PUB output); tests use sources of their own."""
    running = start_worker(tmp_path_factory.mktemp("worker"))
    yield running
    assert running.stop() == 0, running.log.read_text()


@pytest.fixture
def context():
    context = zmq.Context()
    yield context
    context.destroy(linger=0)


_sources = iter(range(1, 1_000_000))


@pytest.fixture
def source_id(request) -> str:
    """A source id no other test uses (the worker de-duplicates order ids across sources)."""
    return f"{request.node.name.split('[')[0]}-{os.getpid()}-{next(_sources)}"
