#!/usr/bin/env python3
"""Checks what deploy/ gives operators, offline (make deploy-check, in CI).

- Grafana dashboards (deploy/grafana/*.json) against deploy/grafana/dashboard.schema.json, with
  panels inside the 24-column grid and not overlapping, ids unique.
- Every metric a dashboard or an alert rule queries is one the worker or proxy exports: the
  families docs/OPERATIONS.md lists (a test compares that list with a real worker's /metrics).
- Prometheus alert rules with `promtool check rules` and their unit tests with
  `promtool test rules` (Debian's prometheus package).
- Kubernetes manifests (deploy/kubernetes/base): rendered with `kubectl kustomize`, validated
  with `kubernetes-validate --strict` against the API's schemas (offline; the ServiceMonitor is a
  CRD it has no schema for, checked here instead), and Caffe's own rules: replicas equal SHARDS
  and the partitioning proxy's SHARDS, the shard flag uses the pod index, the grace period exceeds the drain timeout, probes on
  /readyz and /healthz, the checkpoint on the claimed volume, scrape jobs the alerts expect.

Prints one line per check and exits 1 on the first file that fails.
"""

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

import jsonschema
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRIC = re.compile(r"\b((?:caffe|process)_[a-z0-9_]+)\b")
HISTOGRAM_SUFFIXES = ("_bucket", "_sum", "_count")


def fail(message):
    print(f"check-deploy: FAILED: {message}")
    sys.exit(1)


def documented_metrics():
    """The metric families docs/OPERATIONS.md names (its table, and the proxy's in backticks)."""
    with open(os.path.join(ROOT, "docs", "OPERATIONS.md"), encoding="utf-8") as handle:
        text = handle.read()
    names = set(re.findall(r"`((?:caffe|process)_[a-z0-9_]*[a-z0-9])(?:\{[^`]*\})?`", text))
    if len(names) < 20:
        fail(f"docs/OPERATIONS.md lists only {len(names)} metrics; the table was not found")
    return names


def unknown_metrics(expressions, known):
    """Metric names in PromQL expressions that no family exports."""
    unknown = set()
    for expression in expressions:
        for name in METRIC.findall(expression):
            family = name
            for suffix in HISTOGRAM_SUFFIXES:
                if name.endswith(suffix) and name[: -len(suffix)] in known:
                    family = name[: -len(suffix)]
            if family not in known:
                unknown.add(name)
    return unknown


def check_dashboard(path, schema, known):
    with open(path, encoding="utf-8") as handle:
        dashboard = json.load(handle)
    try:
        jsonschema.validate(dashboard, schema)
    except jsonschema.ValidationError as error:
        where = "/".join(str(part) for part in error.absolute_path)
        fail(f"{path}: {where}: {error.message}")
    ids = [panel["id"] for panel in dashboard["panels"]]
    if len(ids) != len(set(ids)):
        fail(f"{path}: panel ids repeat")
    cells = {}
    for panel in dashboard["panels"]:
        grid = panel["gridPos"]
        if grid["x"] + grid["w"] > 24:
            fail(f"{path}: panel '{panel['title']}' runs past the 24 columns")
        for row in range(grid["y"], grid["y"] + grid["h"]):
            for column in range(grid["x"], grid["x"] + grid["w"]):
                if (row, column) in cells:
                    fail(f"{path}: panels '{cells[(row, column)]}' and '{panel['title']}' overlap")
                cells[(row, column)] = panel["title"]
    expressions = [target["expr"] for panel in dashboard["panels"] for target in panel.get("targets", [])]
    expressions += [item.get("query", "") for item in dashboard["templating"]["list"] if item["type"] == "query"]
    unknown = unknown_metrics(expressions, known)
    if unknown:
        fail(f"{path}: queries metrics no worker or proxy exports: {', '.join(sorted(unknown))}")
    print(f"check-deploy: {os.path.relpath(path, ROOT)}: {len(dashboard['panels'])} panels, "
          f"{len(expressions)} queries, every metric exported")


def check_rules(path, known, promtool):
    with open(path, encoding="utf-8") as handle:
        rules = yaml.safe_load(handle)
    expressions = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    unknown = unknown_metrics(expressions, known)
    if unknown:
        fail(f"{path}: alerts on metrics no worker or proxy exports: {', '.join(sorted(unknown))}")
    for arguments in (["check", "rules", path], ["test", "rules", path.replace(".yaml", ".test.yaml")]):
        if arguments[0] == "test" and not os.path.exists(arguments[2]):
            fail(f"{path}: no unit tests ({os.path.basename(arguments[2])})")
        result = subprocess.run([promtool] + arguments, capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"promtool {' '.join(arguments)}:\n{result.stdout}{result.stderr}")
    print(f"check-deploy: {os.path.relpath(path, ROOT)}: {len(expressions)} alerts, promtool check and test pass")


def check_kubernetes(folder, validator):
    if shutil.which("kubectl") is None:
        fail("kubectl is not installed (it renders the Kustomize manifests)")
    rendered = subprocess.run(["kubectl", "kustomize", folder], capture_output=True, text=True)
    if rendered.returncode != 0:
        fail(f"kubectl kustomize {folder}:\n{rendered.stderr}")
    objects = [item for item in yaml.safe_load_all(rendered.stdout) if item]
    manifest = os.path.join(ROOT, ".build", "deploy-check-kubernetes.yaml")
    os.makedirs(os.path.dirname(manifest), exist_ok=True)
    with open(manifest, "w", encoding="utf-8") as handle:
        handle.write(rendered.stdout)
    result = subprocess.run([validator, "--strict", "--quiet", manifest], capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if line.strip() and "Couldn't find schema for kind ServiceMonitor" not in line]
    if result.returncode != 0 or problems:
        fail("kubernetes-validate:\n" + "\n".join(problems))

    def one(kind, name):
        found = [item for item in objects if item["kind"] == kind and item["metadata"]["name"] == name]
        if len(found) != 1:
            fail(f"{folder}: expected one {kind} {name}, found {len(found)}")
        return found[0]

    workers = one("StatefulSet", "caffe-worker")
    pod = workers["spec"]["template"]["spec"]
    container = pod["containers"][0]
    env = {item["name"]: item for item in container.get("env", [])}
    shards = int(env["SHARDS"]["value"])
    if workers["spec"]["replicas"] != shards:
        fail(f"StatefulSet replicas {workers['spec']['replicas']} but SHARDS {shards}: a shard would be missing")
    if env["POD_INDEX"]["valueFrom"]["fieldRef"]["fieldPath"] != "metadata.labels['apps.kubernetes.io/pod-index']":
        fail("POD_INDEX does not come from the pod-index label")
    if "--set=input.shard=$(POD_INDEX)/$(SHARDS)" not in container["args"]:
        fail("the worker is not given input.shard=$(POD_INDEX)/$(SHARDS)")
    proxy = one("Deployment", "caffe-proxy")["spec"]["template"]["spec"]["containers"][0]
    proxy_env = {item["name"]: item for item in proxy.get("env", [])}
    if "--kind=partition" not in proxy["args"] or "--shards=$(SHARDS)" not in proxy["args"]:
        fail("the proxy is not caffe proxy --kind=partition --shards=$(SHARDS)")
    if int(proxy_env.get("SHARDS", {}).get("value", -1)) != shards:
        fail(f"the proxy routes among SHARDS {proxy_env.get('SHARDS', {}).get('value')}, the workers are {shards}")
    config_maps = [item for item in objects if item["kind"] == "ConfigMap"
                   and item["metadata"]["name"].startswith("caffe-worker-config")]
    config = yaml.safe_load(config_maps[0]["data"]["worker.yaml"])
    drain = config["shutdown"]["drain_timeout_ms"] / 1000
    if pod["terminationGracePeriodSeconds"] <= drain:
        fail(f"terminationGracePeriodSeconds {pod['terminationGracePeriodSeconds']} is not above the drain timeout {drain:g} s")
    probes = (container["readinessProbe"]["httpGet"]["path"], container["livenessProbe"]["httpGet"]["path"])
    if probes != ("/readyz", "/healthz"):
        fail(f"probes are {probes}, not /readyz and /healthz")
    state = os.path.dirname(config["checkpoint"]["path"])
    claims = {claim["metadata"]["name"] for claim in workers["spec"]["volumeClaimTemplates"]}
    if not any(mount["mountPath"] == state and mount["name"] in claims for mount in container["volumeMounts"]):
        fail(f"the checkpoint folder {state} is not a claimed volume")
    budget = one("PodDisruptionBudget", "caffe-worker")
    if budget["spec"]["selector"]["matchLabels"] != workers["spec"]["selector"]["matchLabels"]:
        fail("the PodDisruptionBudget does not select the workers")
    jobs = set()
    for monitor in (item for item in objects if item["kind"] == "ServiceMonitor"):
        label = monitor["spec"]["jobLabel"]
        jobs.add(monitor["spec"]["selector"]["matchLabels"][label])
    if jobs != {"caffe-worker", "caffe-proxy"}:
        fail(f"ServiceMonitors make the jobs {sorted(jobs)}, not the caffe-worker and caffe-proxy the alerts use")
    print(f"check-deploy: {os.path.relpath(folder, ROOT)}: {len(objects)} objects valid, {shards} shards, "
          f"grace {pod['terminationGracePeriodSeconds']} s > drain {drain:g} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--promtool", default="promtool")
    parser.add_argument("--kubernetes-validate", default="kubernetes-validate")
    arguments = parser.parse_args()
    known = documented_metrics() | {"up"}
    with open(os.path.join(ROOT, "deploy", "grafana", "dashboard.schema.json"), encoding="utf-8") as handle:
        schema = json.load(handle)
    dashboards = sorted(glob.glob(os.path.join(ROOT, "deploy", "grafana", "*.json")))
    dashboards = [path for path in dashboards if not path.endswith(".schema.json")]
    if not dashboards:
        fail("no dashboards in deploy/grafana")
    for path in dashboards:
        check_dashboard(path, schema, known)
    rule_files = sorted(glob.glob(os.path.join(ROOT, "deploy", "prometheus", "*.yaml")))
    rule_files = [path for path in rule_files if not path.endswith(".test.yaml")]
    if not rule_files:
        fail("no alert rules in deploy/prometheus")
    for path in rule_files:
        check_rules(path, known, arguments.promtool)
    check_kubernetes(os.path.join(ROOT, "deploy", "kubernetes", "base"), arguments.kubernetes_validate)


if __name__ == "__main__":
    main()
