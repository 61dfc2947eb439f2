#!/usr/bin/env python3
"""Run every shell command in README.md as written; `make readme-test` runs it in CI.

Every line of every ```sh block is a command (a trailing backslash continues it on the next line;
a line holding only a comment is not one). Each runs with bash in a scratch copy of the
repository (the files git knows, so nothing is written into the checkout), with the release
products' folder (--bin, default .build/release; the CI builds them just before) first on PATH so
that `caffe …` and `caffe-sim …` resolve, and linked as the copy's .build/release. `swift run NAME
args` runs the built product `NAME args`: a bash function `swift` stands in for the toolchain's
and passes everything other than `run` to the real swift.

A command passes when it exits 0, or with the status its line declares by a comment ending in
`exit N` (`caffe-sim complications --check-fit   # en-XA overflows: exit 1`). Some commands need
a running worker: NEEDS_WORKER starts `caffe worker` (config/worker.yaml, a fresh checkpoint,
the overrides listed) before them and stops it with SIGTERM after, and the command fails unless
the worker exits 0. Commands that serve until stopped (SERVES) pass when they are still running
after SERVE_SECONDS and then exit 0 on SIGTERM. COVERED_ELSEWHERE lists what is not run here,
with the reason; an entry that no longer matches a README command fails the run, so the table
cannot go stale.

Prints one line per command (PASS, FAIL or COVERED, seconds, exit status) and, for a failure,
the last lines of its output; exits 1 when a command failed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parent.parent

# Commands not run here (a regular expression searched in the command), and why.
COVERED_ELSEWHERE = {
    r"^make demo\b": "make readme-test runs it first (it builds the release products used here)",
    r"^make test\b": "CI itself (.ci/run); here it would run this test again",
    r"^make multihost\b": ".ci/run runs it (five hosts in network namespaces, ~2 min)",
    r"^make reshard-test\b": ".ci/run runs it (seven hosts in network namespaces, under a minute)",
    r"^make deploy-check\b": ".ci/run runs it",
    r"^podman (load|run)\b": "make image-test loads and runs the image (.ci/run)",
    r"^docker run\b": "no docker on the CI machine; make image-test runs the same image with podman",
    r"^make bench\b": "its benchmarks run below one by one, with --json",
    r"\bcaffe-sim chaos\b": "~3 min; make chaos runs it",
    r"\bcaffe-sim bench pipeline\b": "~20 min; run by hand before quoting its figures",
    r"^make image$": ".ci/run's make image-test builds the image and inspects and runs it",
    r"^skopeo (copy|inspect) .*docker://registry\.example\.com": "needs a registry; make image-test inspects the archive",
    r"^kubectl (apply|-n)\b": "needs a cluster; make deploy-check renders and validates every manifest these apply",
    r"^deploy/kubernetes/jobs/reshard/reshard\.sh\b": "needs a cluster; make reshard-test runs its steps against a recording kubectl that runs the Job",
}

# Commands that need a worker running, and its --set overrides; the first match decides
# (None: no worker).
NEEDS_WORKER = [
    (r"\bcaffe-sim record\b", None),
    (r"\bcaffe-sim replay\b.*--dry-run", None),
    (r"\bcaffe-sim replay\b.*--socket push", ["input.kind=pull", "input.endpoints=@tcp://127.0.0.1:5560"]),
    (r"\bcaffe-sim replay\b", []),
    (r"\bcaffe-sim load\b.*--output-kind acked", ["output.kind=acked"]),
    (r"\bcaffe-sim load\b.*--config shop\b", ["config_dir=shop"]),
    (r"\bcaffe-sim load\b", []),
    (r"\bcurl\b.*127\.0\.0\.1:9464", []),
    (r"^kill -HUP\b", []),
    (r"\bcaffe (redrive|health)\b", []),
]

# Commands that serve until SIGTERM: a worker started with nothing after it but --set flags.
SERVES = r"\bcaffe worker( --set \S+)*$"
SERVE_SECONDS = 3
COMMAND_TIMEOUT_SECONDS = 600
WORKER_READY_SECONDS = 30
STOP_SECONDS = 30
METRICS_PORT = 9464  # metrics.address in config/worker.yaml
HEALTH_URL = f"http://127.0.0.1:{METRICS_PORT}/healthz"
EXPECTED_STATUS = re.compile(r"\bexit (\d+)$")
TAIL_LINES = 20


@dataclass
class Command:
    """One README command: its text without the comment, and the status it should end with."""

    text: str
    expected_status: int


@dataclass
class Outcome:
    """How a command went: its verdict, seconds, exit status and what to show on failure."""

    verdict: str
    seconds: float | None = None
    status: int | None = None
    detail: str = ""


def split_comment(line: str) -> tuple[str, str]:
    """Splits a shell line into the command and its trailing comment (without the `#`).

    A `#` starts a comment where bash would take it for one: at the start of a word, outside
    quotes and outside `$(…)`.
    """
    contexts = [""]  # "", "'", '"', "$(" or "(" (nested in "$(")
    index = 0
    while index < len(line):
        character, context = line[index], contexts[-1]
        following = line[index + 1 : index + 2]
        if context == "'":
            if character == "'":
                contexts.pop()
        elif character == "\\":
            index += 1
        elif character == "$" and following == "(":
            contexts.append("$(")
            index += 1
        elif context == '"':
            if character == '"':
                contexts.pop()
        elif character in "'\"":
            contexts.append(character)
        elif character == "(" and context:
            contexts.append("(")
        elif character == ")" and context:
            contexts.pop()
        elif character == "#" and not context and (index == 0 or line[index - 1].isspace()):
            return line[:index].rstrip(), line[index + 1 :].strip()
        index += 1
    return line.rstrip(), ""


def readme_commands(readme: Path) -> list[Command]:
    """Every command of the ```sh blocks of `readme`, continuation lines joined."""
    commands: list[Command] = []
    in_block = False
    pending = ""
    for line in readme.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_block = line.strip() == "```sh"
            continue
        if not in_block:
            continue
        if line.endswith("\\"):
            pending += line[:-1]  # bash drops the backslash and the newline
            continue
        text, comment = split_comment(pending + line)
        pending = ""
        if text.strip():
            expected = EXPECTED_STATUS.search(comment)
            commands.append(Command(text.strip(), int(expected.group(1)) if expected else 0))
    return commands


def make_scratch_copy(scratch: Path, binaries: Path) -> None:
    """Copies the files git knows (as they are in the working tree) into `scratch`, and links
    `binaries` as its .build/release."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPOSITORY,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listing.split("\0")):
        source = REPOSITORY / name
        if source.is_file():
            (scratch / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, scratch / name, follow_symlinks=False)
    (scratch / ".build").mkdir(exist_ok=True)
    (scratch / ".build" / "release").symlink_to(binaries)


def shell_script(command: str, binaries: Path) -> str:
    """The bash script that runs `command`: the `swift run` stand-in, then the command.

    `trap : TERM` makes bash outlive a SIGTERM sent to the whole group and end with the status of
    the command it was waiting for (a trapped signal is reset to the default in children).
    """
    return (
        "trap : TERM\n"
        "swift() {\n"
        '    if [ "$1" = run ]; then shift; local product=$1; shift; '
        f'"{binaries}/$product" "$@"; else command swift "$@"; fi\n'
        "}\n"
        f"{command}\n"
    )


def command_environment(binaries: Path, work: Path) -> dict[str, str]:
    """This process's environment without CAFFE_* settings, `binaries` first on PATH and `work`
    as TMPDIR."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("CAFFE_")}
    environment["PATH"] = f"{binaries}{os.pathsep}{environment.get('PATH', '')}"
    environment["TMPDIR"] = str(work)
    return environment


def tail(path: Path, lines: int = TAIL_LINES) -> str:
    """The last `lines` lines of the file at `path`."""
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    return "\n".join(text.splitlines()[-lines:])


def stop_group(process: subprocess.Popen) -> int:
    """Sends SIGTERM to `process`'s group (its own session: it and what it started), SIGKILL
    after STOP_SECONDS; returns its exit status."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        return process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        return process.wait()


def health_is_serving() -> bool:
    """Whether something answers 200 on the default worker's /healthz."""
    try:
        with urllib.request.urlopen(HEALTH_URL, timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


def port_in_use(port: int) -> bool:
    """Whether something listens on 127.0.0.1:`port`."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


class Worker:
    """A `caffe worker` on the default configuration started for a command, with a fresh
    checkpoint and the given overrides."""

    def __init__(
        self, scratch: Path, binaries: Path, overrides: list[str], log: Path, environment: dict[str, str]
    ) -> None:
        """Starts the worker and waits until its /healthz says SERVING."""
        if port_in_use(METRICS_PORT):
            raise RuntimeError(f"127.0.0.1:{METRICS_PORT} is taken already (another worker?); no worker started")
        self.log = log
        arguments = [str(binaries / "caffe"), "worker", "--set", f"checkpoint.path={log.with_suffix('.checkpoint')}"]
        for override in overrides:
            arguments += ["--set", override]
        with log.open("wb") as output:
            self.process = subprocess.Popen(
                arguments,
                cwd=scratch,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=output,
                start_new_session=True,
            )
        try:
            self.wait_until_serving()
        except BaseException:
            stop_group(self.process)
            raise

    def wait_until_serving(self) -> None:
        """Returns once /healthz says SERVING; raises RuntimeError when the worker stops first or
        takes longer than WORKER_READY_SECONDS."""
        deadline = time.monotonic() + WORKER_READY_SECONDS
        while not health_is_serving():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the worker did not start serving:\n{tail(self.log)}")
            time.sleep(0.1)

    def stop(self) -> str:
        """Stops the worker with SIGTERM; returns what went wrong, or an empty string."""
        if self.process.poll() is not None:
            return f"the worker had stopped by itself (exit {self.process.returncode}):\n{tail(self.log)}"
        status = stop_group(self.process)
        return "" if status == 0 else f"the worker exited {status} on SIGTERM:\n{tail(self.log)}"


def run_script(script: Path, log: Path, scratch: Path, environment: dict[str, str], serves: bool) -> tuple[int, str]:
    """Runs `script` with bash in `scratch`, its output into `log`; returns its exit status and
    what went wrong with its timing (an empty string when nothing did).

    A command that `serves` is stopped with SIGTERM after SERVE_SECONDS; any other gets
    COMMAND_TIMEOUT_SECONDS. Whatever the script leaves running is stopped too.
    """
    with log.open("wb") as output:
        process = subprocess.Popen(
            ["bash", str(script)],
            cwd=scratch,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        status = process.wait(SERVE_SECONDS if serves else COMMAND_TIMEOUT_SECONDS)
        return status, f"stopped by itself within {SERVE_SECONDS} s" if serves else ""
    except subprocess.TimeoutExpired:
        status = stop_group(process)
        return status, "" if serves else f"still running after {COMMAND_TIMEOUT_SECONDS} s"
    finally:
        stop_group(process)


def run_command(command: Command, number: int, scratch: Path, binaries: Path, work: Path) -> Outcome:
    """Runs one command in `scratch`, with a worker around it when NEEDS_WORKER says so."""
    script = work / f"command-{number}.sh"
    script.write_text(shell_script(command.text, binaries), encoding="utf-8")
    log = work / f"command-{number}.log"
    overrides = next((needs for pattern, needs in NEEDS_WORKER if re.search(pattern, command.text)), None)
    environment = command_environment(binaries, work)
    started = time.monotonic()
    try:
        worker = (
            None
            if overrides is None
            else Worker(scratch, binaries, overrides, work / f"worker-{number}.log", environment)
        )
    except RuntimeError as error:
        return Outcome("FAIL", time.monotonic() - started, None, str(error))
    worker_problem = ""
    try:
        status, problem = run_script(script, log, scratch, environment, re.search(SERVES, command.text) is not None)
    finally:
        if worker is not None:
            worker_problem = worker.stop()
    seconds = time.monotonic() - started
    expected = "" if status == command.expected_status else f"expected exit {command.expected_status}"
    problems = "\n".join(filter(None, [expected, problem, worker_problem]))
    if problems:
        return Outcome("FAIL", seconds, status, f"{problems}\n{tail(log)}")
    return Outcome("PASS", seconds, status)


def report(outcome: Outcome, command: Command) -> None:
    """Prints the outcome's line (and its detail, indented)."""
    seconds = "-" if outcome.seconds is None else f"{outcome.seconds:.1f}s"
    status = "-" if outcome.status is None else str(outcome.status)
    text = " ".join(command.text.split())
    print(f"{outcome.verdict:<8} {seconds:>7}  exit {status:<4} {text}", flush=True)
    for line in outcome.detail.splitlines():
        print(f"         | {line}", flush=True)


def main() -> int:
    """Runs the README's commands; returns the process's exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--bin", default=".build/release", help="the folder holding caffe and caffe-sim (relative to the repository)"
    )
    parser.add_argument("--only", help="run only the commands this regular expression finds")
    options = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    binaries = (REPOSITORY / options.bin).resolve()
    for product in ("caffe", "caffe-sim"):
        if not os.access(binaries / product, os.X_OK):
            print(f"readme-commands: no {product} in {binaries} (swift build -c release --product {product})")
            return 1
    commands = readme_commands(REPOSITORY / "README.md")
    stale = [pattern for pattern in COVERED_ELSEWHERE if not any(re.search(pattern, c.text) for c in commands)]
    for pattern in stale:
        print(f"readme-commands: COVERED_ELSEWHERE entry {pattern!r} matches no README command; remove it")
    failed = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="caffe-readme-") as temporary:
        scratch, work = Path(temporary) / "repository", Path(temporary) / "work"
        scratch.mkdir()
        work.mkdir()
        make_scratch_copy(scratch, binaries)
        for number, command in enumerate(commands, start=1):
            if options.only and not re.search(options.only, command.text):
                continue
            reason = next((why for pattern, why in COVERED_ELSEWHERE.items() if re.search(pattern, command.text)), None)
            if reason is not None:
                outcome = Outcome("COVERED", detail=reason)
            else:
                outcome = run_command(command, number, scratch, binaries, work)
            failed += outcome.verdict == "FAIL"
            report(outcome, command)
    print(f"{len(commands)} README commands, {failed} failed, {time.monotonic() - started:.0f} s")
    return 1 if failed or stale else 0


if __name__ == "__main__":
    sys.exit(main())
