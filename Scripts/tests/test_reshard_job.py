"""deploy/kubernetes/jobs/reshard/reshard.sh, step by step, against a kubectl that records its calls
and runs the Job for real on folders standing for the volumes (fake-kubectl.py): three shards'
checkpoints become four with the real `caffe checkpoint reshard`, each source's mark on the volume
of the shard that owns it, the old files kept, SHARDS set on the workers and the proxy before they
scale up. Run by `make test` (docs-test) and `make reshard-test`; needs .build/debug/caffe.
"""
import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
JOB = ROOT / "deploy" / "kubernetes" / "jobs" / "reshard"
# The documented shard function, from the Python client's module (which needs nothing else).
_spec = importlib.util.spec_from_file_location("shards", ROOT / "clients" / "python" / "caffe_client" / "shards.py")
_shards = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shards)
shard_of = _shards.shard_of

SOURCES = {f"store-{index}": 10 + index for index in range(40)}


class ReshardJobTest(unittest.TestCase):
    def setUp(self):
        self.caffe = ROOT / ".build" / "debug" / "caffe"
        if not self.caffe.exists():
            self.skipTest("no .build/debug/caffe: swift build --product caffe")
        self.folder = tempfile.TemporaryDirectory(prefix="reshard-job-")
        self.root = pathlib.Path(self.folder.name)
        (self.root / "state.json").write_text(
            json.dumps({"replicas": 3, "image": "registry.example.com/caffe@sha256:ab", "storage": "1Gi", "shards": "3"})
        )
        for shard in range(3):
            volume = self.root / "volumes" / f"state-caffe-worker-{shard}"
            volume.mkdir(parents=True)
            owned = {source: mark for source, mark in SOURCES.items() if shard_of(source, 3) == shard}
            checkpoint = {"version": 3, "generation": 0, "sources": owned, "given_up": {}, "endpoints": {},
                          "endpoint_identities": {}}
            (volume / "worker.checkpoint").write_text(json.dumps(checkpoint))
            (volume / "worker.checkpoint.journal").write_text("")

    def tearDown(self):
        self.folder.cleanup()

    def reshard(self, *arguments):
        kubectl = self.root / "kubectl"
        kubectl.write_text(f"#!/bin/sh\nexec {sys.executable} {JOB / 'fake-kubectl.py'} \"$@\"\n")
        kubectl.chmod(0o755)
        environment = dict(os.environ, FAKE_KUBE=str(self.root), KUBECTL=str(kubectl), TMPDIR=str(self.root),
                           PATH=f"{self.caffe.parent}:{os.environ['PATH']}")
        return subprocess.run(["bash", str(JOB / "reshard.sh"), "--namespace", "caffe", *arguments],
                              capture_output=True, text=True, env=environment)

    def test_three_shards_become_four(self):
        done = self.reshard("--to", "4")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        calls = [line.split(" ", 2)[2] for line in (self.root / "calls.log").read_text().splitlines()]
        verbs = [call.split(" ")[0] + (" " + call.split(" ")[1] if call.startswith(("set", "get", "delete")) else "")
                 for call in calls]
        self.assertEqual(verbs, [
            "get statefulset", "get statefulset", "get statefulset",
            "scale", "wait",                       # every worker drains and stops first
            "apply",                               # the fourth shard's volume
            "delete job", "apply", "wait", "logs",  # the Job, to completion
            "set env", "set env", "set env",       # SHARDS on the workers, their check, the proxy…
            "scale", "rollout",                    # …before they scale up
        ])
        self.assertIn("scale statefulset caffe-worker --replicas=0", calls[3])
        self.assertIn("--replicas=4", calls[13])
        state = json.loads((self.root / "state.json").read_text())
        self.assertEqual(state["env"], {"statefulset/caffe-worker/worker": "4",
                                        "statefulset/caffe-worker/check-config": "4",
                                        "deployment/caffe-proxy/proxy": "4"})
        for shard in range(4):
            volume = self.root / "volumes" / f"state-caffe-worker-{shard}"
            installed = json.loads((volume / "worker.checkpoint").read_text())
            expected = {source: mark for source, mark in SOURCES.items() if shard_of(source, 4) == shard}
            self.assertEqual(installed["sources"], expected, f"shard {shard}")
            self.assertTrue(expected, f"no source moves to shard {shard}: the test would show nothing")
            self.assertEqual((volume / "worker.checkpoint.journal").read_text(), "")
            if shard < 3:
                kept = json.loads((volume / "worker.checkpoint.before-reshard-3-to-4").read_text())
                self.assertEqual(set(kept["sources"]), {s for s in SOURCES if shard_of(s, 3) == shard})
        self.assertIn("shard 3:", done.stdout)
        # The Job it ran is a restricted pod mounting the four volumes.
        job = yaml.safe_load((self.root / "job.yaml").read_text())
        pod = job["spec"]["template"]["spec"]
        self.assertEqual([v["persistentVolumeClaim"]["claimName"] for v in pod["volumes"] if "persistentVolumeClaim" in v],
                         [f"state-caffe-worker-{i}" for i in range(4)])
        self.assertEqual(pod["securityContext"]["seccompProfile"]["type"], "RuntimeDefault")
        self.assertTrue(pod["containers"][0]["securityContext"]["readOnlyRootFilesystem"])
        self.assertEqual(pod["containers"][0]["image"], "registry.example.com/caffe@sha256:ab")

    def test_a_failed_job_leaves_the_workers_stopped(self):
        # A checkpoint the reshard refuses: the Job fails, nothing scales up.
        (self.root / "volumes" / "state-caffe-worker-1" / "worker.checkpoint").write_text("not a checkpoint")
        done = self.reshard("--to", "4")
        self.assertEqual(done.returncode, 1)
        self.assertIn("the Job failed; the workers stay at 0", done.stdout)
        state = json.loads((self.root / "state.json").read_text())
        self.assertEqual((state["replicas"], state["shards"]), (0, "3"))

    def test_a_second_run_neither_overwrites_the_backups_nor_claims_success_with_no_workers(self):
        self.assertEqual(self.reshard("--to", "4").returncode, 0)
        # Stopped again by hand after the new count was set: the rerun finishes step 5.
        state = json.loads((self.root / "state.json").read_text())
        state["replicas"] = 0
        (self.root / "state.json").write_text(json.dumps(state))
        resumed = self.reshard("--to", "4")
        self.assertEqual(resumed.returncode, 0, resumed.stdout + resumed.stderr)
        self.assertIn("resuming at step 5", resumed.stdout)
        self.assertEqual(json.loads((self.root / "state.json").read_text())["replicas"], 4)
        # From 4 back to 3 and again from 3 to 4: the 3-to-4 backups exist, the Job refuses.
        self.assertEqual(self.reshard("--to", "3").returncode, 0)
        again = self.reshard("--to", "4")
        self.assertEqual(again.returncode, 1)
        self.assertIn("already has a before-reshard-3-to-4 backup", again.stdout)

    def test_arguments(self):
        self.assertEqual(self.reshard().returncode, 64)
        self.assertEqual(self.reshard("--to", "0").returncode, 64)
        same = self.reshard("--to", "3")
        self.assertEqual((same.returncode, same.stdout.strip()), (0, "reshard: already 3 shards; nothing to do"))


if __name__ == "__main__":
    unittest.main()
