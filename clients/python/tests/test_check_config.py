"""``caffe worker --check-config``: the configuration a worker would start with, checked without
starting it — file, ``CAFFE_*`` variables and ``--set`` flags, then the catalog, the menu and the
checkpoint."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from conftest import CONFIG, caffe_binary


def check(*arguments: str, environment: dict[str, str] | None = None, cwd=None):
    env = {key: value for key, value in os.environ.items() if not key.startswith("CAFFE_")}
    env.update(environment or {})
    return subprocess.run(
        [str(caffe_binary()), "worker", "--check-config", *arguments],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=60,
    )


def test_the_shipped_configuration_is_valid(tmp_path):
    done = check("--config-file", str(CONFIG / "worker.yaml"), "--set", f"checkpoint.path={tmp_path}/cp", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "caffe worker: configuration OK"
    assert "  input       sub >tcp://127.0.0.1:5560" in lines
    assert "  output      pub @tcp://127.0.0.1:5561" in lines
    assert f"  checkpoint  {tmp_path}/cp (a first start)" in lines


def test_the_production_example_is_valid(tmp_path):
    example = CONFIG.parent / "deploy/worker.yaml"
    done = check(
        "--config-file",
        str(example),
        "--set",
        f"checkpoint.path={tmp_path}/cp",
        "--set",
        f"config_dir={CONFIG}",
        environment={"CAFFE_REPLAY_ENDPOINTS": "pos-1=tcp://10.0.0.5:5563"},
    )
    assert done.returncode == 0, done.stderr
    assert "  environment replay.endpoints" in done.stdout.splitlines()


@pytest.mark.parametrize(
    ("arguments", "environment", "message"),
    [
        (["--set", "render.threads=two"], {}, "render.threads (from --set): 'two' is not a whole number"),
        ([], {"CAFFE_OUTPUT_KIND": "fanout"}, "output.kind (from CAFFE_OUTPUT_KIND): 'fanout' is not pub or push or acked"),
        (["--set", "input.endpoints=tcp-127.0.0.1"], {}, "input.endpoints (from --set): 'tcp-127.0.0.1' is not an endpoint"),
        (["--set", "curve.server_key=abc"], {}, "curve.server_key (from --set): not a CURVE key"),
        (["--set", "catalog=/nonexistent"], {}, "catalog: unreadable-catalog: cannot list the catalog folder /nonexistent"),
    ],
    ids=["flag", "environment", "endpoint", "curve-key", "catalog"],
)
def test_a_bad_value_is_refused_with_its_key(tmp_path, arguments, environment, message):
    done = check("--set", f"checkpoint.path={tmp_path}/cp", *arguments, environment=environment)
    assert done.returncode == 1
    assert done.stderr.startswith("caffe worker: configuration refused: " + message), done.stderr
    assert done.stdout == ""


def test_an_unknown_key_in_the_file_is_refused(tmp_path):
    (tmp_path / "worker.yaml").write_text("input:\n  kindd: pull\n")
    done = check("--config-file", str(tmp_path / "worker.yaml"))
    assert done.returncode == 1
    assert done.stderr.startswith(f"caffe worker: configuration refused: input.kindd (from {tmp_path}/worker.yaml): unknown key")


def test_an_unreadable_checkpoint_is_refused(tmp_path):
    (tmp_path / "cp").write_text('{"version": 9}')
    done = check("--set", f"checkpoint.path={tmp_path}/cp")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"caffe worker: configuration refused: checkpoint.path: checkpoint {tmp_path}/cp: format version 9; "
        "this worker reads 1 through 3"
    )


def test_the_systemd_unit_verifies(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    unit = (CONFIG.parent / "deploy/caffe-worker.service").read_text()
    path = tmp_path / "caffe-worker.service"
    path.write_text(unit.replace("/usr/local/bin/caffe", str(caffe_binary())))
    done = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def start(*arguments: str, cwd):
    env = {key: value for key, value in os.environ.items() if not key.startswith("CAFFE_")}
    return subprocess.run(
        [str(caffe_binary()), "worker", *arguments], capture_output=True, text=True, env=env, cwd=cwd, timeout=60
    )


def test_a_refused_configuration_at_start_names_its_key_without_usage(tmp_path):
    done = start("--set", f"checkpoint.path={tmp_path}/cp", "--set", "render.threads=two", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == "caffe worker: configuration refused: render.threads (from --set): 'two' is not a whole number\n"


def test_a_failure_at_run_time_gives_its_code_key_and_cause_without_usage(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = start(
            "--set", f"checkpoint.path={tmp_path}/cp",
            "--set", f"input.endpoints=@tcp://127.0.0.1:{port}",
            "--set", "output.endpoints=@tcp://127.0.0.1:0",
            "--set", "rpc.endpoint=", "--set", "metrics.address=",
            cwd=tmp_path,
        )
    assert done.returncode == 1
    assert "Usage:" not in done.stderr
    assert (
        f"caffe worker: failed (endpoint): input.endpoints: cannot bind tcp://127.0.0.1:{port}: "
        f"zmq_bind(tcp://127.0.0.1:{port}) failed: Address already in use (errno 98)\n"
    ) in done.stderr, done.stderr
