"""Hosts in Linux network namespaces for the multi-host tests (multihost.py, reshard.py): the
namespaces and their switch, the processes started in them, and a reader of JSON-line progress."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path


def run(*command: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")


class Network:
    """The namespaces, the bridge and one veth pair per host: ``hosts`` maps a name to the last
    byte of its address on ``subnet`` (``10.231.0``)."""

    def __init__(self, hosts: dict[str, int], subnet: str) -> None:
        self.hosts = hosts
        self.subnet = subnet
        self.tag = secrets.token_hex(2)
        self.switch = f"caffe-{self.tag}-switch"
        self.namespaces: list[str] = []

    def namespace(self, host: str) -> str:
        return f"caffe-{self.tag}-{host}"

    def port(self, host: str) -> str:
        return f"c{self.tag}p{self.hosts[host]}"  # at most 15 characters

    def address(self, host: str) -> str:
        return f"{self.subnet}.{self.hosts[host]}"

    def create(self) -> None:
        run("ip", "netns", "add", self.switch)
        self.namespaces.append(self.switch)
        run("ip", "-n", self.switch, "link", "add", "br0", "type", "bridge")
        run("ip", "-n", self.switch, "link", "set", "br0", "up")
        for host in self.hosts:
            namespace = self.namespace(host)
            run("ip", "netns", "add", namespace)
            self.namespaces.append(namespace)
            inner = f"c{self.tag}h{self.hosts[host]}"
            run("ip", "link", "add", inner, "type", "veth", "peer", "name", self.port(host))
            run("ip", "link", "set", inner, "netns", namespace)
            run("ip", "link", "set", self.port(host), "netns", self.switch)
            run("ip", "-n", namespace, "link", "set", inner, "name", "eth0")
            run("ip", "-n", namespace, "addr", "add", f"{self.address(host)}/24", "dev", "eth0")
            run("ip", "-n", namespace, "link", "set", "lo", "up")
            run("ip", "-n", namespace, "link", "set", "eth0", "up")
            run("ip", "-n", self.switch, "link", "set", self.port(host), "master", "br0")
            run("ip", "-n", self.switch, "link", "set", self.port(host), "up")

    def unplug(self, host: str) -> None:
        run("ip", "-n", self.switch, "link", "set", self.port(host), "down")

    def plug(self, host: str) -> None:
        run("ip", "-n", self.switch, "link", "set", self.port(host), "up")

    def destroy(self) -> None:
        for namespace in reversed(self.namespaces):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def can_make_namespaces() -> str | None:
    """Why namespaces cannot be made here, or ``None``."""
    if os.geteuid() != 0:
        return "not root (network namespaces need CAP_SYS_ADMIN and CAP_NET_ADMIN)"
    probe = f"caffe-probe-{secrets.token_hex(3)}"
    done = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    if done.returncode != 0:
        return f"ip netns add failed: {done.stderr.strip() or done.returncode}"
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return None


class Fleet:
    """The processes, by host, each started inside its host's namespace."""

    def __init__(self, network: Network, folder: Path) -> None:
        self.network = network
        self.folder = folder
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str, host: str, command: list[str], **options) -> subprocess.Popen:
        log = (self.folder / f"{name}.log").open("w")
        process = subprocess.Popen(
            ["ip", "netns", "exec", self.network.namespace(host), *command],
            stderr=log,
            stdout=options.pop("stdout", log),
            **options,
        )
        self.processes[name] = process
        return process

    def stop(self, name: str, sig: int = signal.SIGTERM, wait: float = 15) -> int | None:
        process = self.processes.get(name)
        if process is None or process.poll() is not None:
            return None if process is None else process.returncode
        process.send_signal(sig)
        try:
            return process.wait(wait)
        except subprocess.TimeoutExpired:
            process.kill()
            return process.wait(5)

    def stop_all(self) -> None:
        for name in reversed(list(self.processes)):
            self.stop(name, wait=10)


class Progress:
    """The consumer's JSON lines, read on a thread."""

    def __init__(self, stream) -> None:
        self.latest: dict = {}
        self.lines: list[dict] = []
        self.thread = threading.Thread(target=self.read, args=(stream,), daemon=True)
        self.thread.start()

    def read(self, stream) -> None:
        for line in stream:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            self.lines.append(entry)
            self.latest = entry


REPO = Path(__file__).resolve().parents[2]


def binaries(folder: str, test: str) -> tuple[Path, Path] | None:
    """`caffe` and `caffe-sim` in `folder`, or None after saying which is missing."""
    caffe = Path(folder).resolve() / "caffe"
    sim = Path(folder).resolve() / "caffe-sim"
    for binary in (caffe, sim):
        if not binary.is_file():
            print(f"{test}: {binary} is missing; build it first (make {test} does)", file=sys.stderr)
            return None
    return caffe, sim


def journal(sim: Path, path: Path, orders: int, rate: float, seed: int, source: str) -> set[str]:
    """Generates a journal of `orders` from `source` and returns their order ids."""
    subprocess.run(
        [str(sim), "generate", "-o", str(path), "--orders", str(orders), "--rate", str(rate),
         "--seed", str(seed), "--source", source, "--config", str(REPO / "config")],
        check=True, capture_output=True,
    )
    exported = subprocess.run(
        [str(sim), "journal", "export", "--jsonl", str(path)], check=True, capture_output=True, text=True
    ).stdout
    return {json.loads(line)["body"]["orderId"] for line in exported.splitlines() if line.strip()}


def worker_command(caffe: Path, here: str, proxy: str, checkpoint: Path, *settings: str) -> list[str]:
    """`caffe worker` with deploy/worker.yaml on host address `here`: input from the proxy's
    backend, acked output on :5561, RPC on :5562, metrics on :9464, one render thread."""
    base = [
        f"input.endpoints=>tcp://{proxy}:5570", f"output.endpoints=@tcp://{here}:5561",
        f"rpc.endpoint=@tcp://{here}:5562", f"metrics.address={here}:9464", f"checkpoint.path={checkpoint}",
        f"config_dir={REPO / 'config'}", "render.threads=1",
    ]
    command = [str(caffe), "worker", "--config-file", str(REPO / "deploy/worker.yaml")]
    for setting in base + list(settings):
        command += ["--set", setting]
    return command


def clean_environment() -> dict[str, str]:
    """The environment without CAFFE_ variables (the workers take only their --set values)."""
    return {key: value for key, value in os.environ.items() if not key.startswith("CAFFE_")}


class Timeline:
    """Lines `t=  12.3s  what happened`, printed as they come and kept for the report."""

    def __init__(self, test: str) -> None:
        self.test = test
        self.started = time.monotonic()
        self.lines: list[str] = []

    def note(self, text: str) -> None:
        line = f"t={time.monotonic() - self.started:6.1f}s  {text}"
        self.lines.append(line)
        print(f"{self.test}: {line}", flush=True)
