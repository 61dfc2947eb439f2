#!/usr/bin/env python3
"""Checks that the production overlay can be rolled out over the last released one.

    Scripts/check-upgrade.py              compare deploy/kubernetes/released/production.yaml with the overlay now
    Scripts/check-upgrade.py --release    make the overlay as it is now the released one (at a release)

Renders deploy/kubernetes/overlays/production with `kubectl kustomize`, prints what changed per
object (a unified diff of each), and fails on what would break a rolling upgrade:
- a field Kubernetes does not let `kubectl apply` change: the StatefulSet's selector, serviceName,
  podManagementPolicy and volumeClaimTemplates, a Deployment's selector;
- the number of shards (replicas, SHARDS): that is a reshard (deploy/kubernetes/jobs/reshard), not
  an upgrade — the workers' books would be split wrong;
- the checkpoint path or the catalog's place (config_dir): the new pods would start from nothing;
- the rollout order: the StatefulSet must roll one pod at a time (RollingUpdate, no maxUnavailable
  above 1), the PodDisruptionBudget must allow one worker down, the grace period must exceed the
  drain timeout, so each worker drains before the next is replaced.
The released file is a rendering committed at each release (like the schema's released.binpb): a
CI clone need not carry tags or history.
"""

import argparse
import difflib
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OVERLAY = os.path.join(ROOT, "deploy", "kubernetes", "overlays", "production")
RELEASED = os.path.join(ROOT, "deploy", "kubernetes", "released", "production.yaml")


def render():
    done = subprocess.run(["kubectl", "kustomize", OVERLAY], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"check-upgrade: kubectl kustomize failed:\n{done.stderr}")
    return done.stdout


def index(text):
    return {(item["kind"], item["metadata"]["name"]): item for item in yaml.safe_load_all(text) if item}


def worker_settings(objects):
    config = next(item for (kind, name), item in objects.items()
                  if kind == "ConfigMap" and name.startswith("caffe-worker-config"))
    return yaml.safe_load(config["data"]["worker.yaml"])


def shards(objects):
    workers = objects[("StatefulSet", "caffe-worker")]
    env = {item["name"]: item.get("value") for item in workers["spec"]["template"]["spec"]["containers"][0]["env"]}
    return workers["spec"]["replicas"], env.get("SHARDS")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", action="store_true", help="record the overlay as released")
    arguments = parser.parse_args()
    now = render()
    if arguments.release:
        with open(RELEASED, "w", encoding="utf-8") as handle:
            handle.write(now)
        print(f"check-upgrade: {os.path.relpath(RELEASED, ROOT)} written")
        return
    with open(RELEASED, encoding="utf-8") as handle:
        before_text = handle.read()
    before, after = index(before_text), index(now)
    problems = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        name = f"{key[0]}/{key[1]}"
        if old is None or new is None:
            print(f"check-upgrade: {name} {'added' if old is None else 'removed'}")
            continue
        diff = difflib.unified_diff(yaml.safe_dump(old).splitlines(), yaml.safe_dump(new).splitlines(),
                                    f"released {name}", f"now {name}", lineterm="", n=1)
        print("\n".join(diff))
    workers_before, workers = before[("StatefulSet", "caffe-worker")], after[("StatefulSet", "caffe-worker")]
    for field in ("selector", "serviceName", "podManagementPolicy", "volumeClaimTemplates"):
        if workers_before["spec"].get(field) != workers["spec"].get(field):
            problems.append(f"the StatefulSet's {field} changed: kubectl apply cannot change it (delete with "
                            "--cascade=orphan and apply, keeping the volumes)")
    proxy_before, proxy = before[("Deployment", "caffe-proxy")], after[("Deployment", "caffe-proxy")]
    if proxy_before["spec"]["selector"] != proxy["spec"]["selector"]:
        problems.append("the proxy's selector changed: kubectl apply cannot change it")
    if shards(before) != shards(after):
        problems.append(f"the shards changed {shards(before)} -> {shards(after)}: that is a reshard "
                        "(deploy/kubernetes/jobs/reshard/reshard.sh), not an upgrade")
    settings_before, settings = worker_settings(before), worker_settings(after)
    for key in ("checkpoint", "config_dir"):
        old = settings_before.get(key, {}).get("path") if key == "checkpoint" else settings_before.get(key)
        new = settings.get(key, {}).get("path") if key == "checkpoint" else settings.get(key)
        if old != new:
            problems.append(f"{key} moved from {old} to {new}: the upgraded workers would not find it")
    strategy = workers["spec"].get("updateStrategy", {"type": "RollingUpdate"})
    if strategy.get("type") != "RollingUpdate" or strategy.get("rollingUpdate", {}).get("maxUnavailable", 1) not in (1, "1"):
        problems.append(f"the StatefulSet's updateStrategy {strategy} does not replace one worker at a time")
    budget = after[("PodDisruptionBudget", "caffe-worker")]["spec"]
    if budget.get("maxUnavailable") != 1:
        problems.append(f"the PodDisruptionBudget allows {budget.get('maxUnavailable')} workers down, not 1")
    drain = settings["shutdown"]["drain_timeout_ms"] / 1000
    grace = workers["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
    if grace <= drain:
        problems.append(f"the grace period {grace} s does not exceed the drain timeout {drain:g} s")
    for problem in problems:
        print(f"check-upgrade: FAILED: {problem}")
    if problems:
        sys.exit(1)
    print(f"check-upgrade: the production overlay rolls out over {os.path.relpath(RELEASED, ROOT)}: "
          f"one worker at a time (PodDisruptionBudget 1, grace {grace} s > drain {drain:g} s), "
          f"shards, checkpoint and immutable fields unchanged")


if __name__ == "__main__":
    main()
