#!/usr/bin/env python3
"""Checks what deploy/ gives operators, offline (make deploy-check, in CI).

- Grafana dashboards (deploy/grafana/*.json) against deploy/grafana/dashboard.schema.json, with
  panels inside the 24-column grid and not overlapping, ids unique.
- Every metric a dashboard or an alert rule queries is one the worker or proxy exports: the
  families docs/OPERATIONS.md lists (a test compares that list with a real worker's /metrics).
- Prometheus alert rules with `promtool check rules` and their unit tests with
  `promtool test rules` (Debian's prometheus package).
- Every alert has a `runbook_url` to its section of docs/RUNBOOK.md, and the PrometheusRule in the
  Kustomize base is what Scripts/prometheus-rule.py makes of the rules (one source).
- Kubernetes manifests (deploy/kubernetes/overlays/dev and production): rendered with `kubectl
  kustomize`, validated with `kubernetes-validate --strict` against the API's schemas (offline;
  the ServiceMonitor and PrometheusRule are CRDs it has no schema for, checked here instead), and
  Caffe's own rules: replicas equal SHARDS and the partitioning proxy's SHARDS, the shard flag uses
  the pod index, the grace period exceeds the drain timeout, probes on /readyz and /healthz, the
  checkpoint on the claimed volume, the catalog mounted whole from the ConfigMap that
  Scripts/catalog-configmap.py makes of config/, a --check-config init container, scrape jobs the
  alerts expect; every pod within the "restricted" Pod Security Standard and with a read-only root.
  Production also: the image by digest, CPU limits, the CURVE Secret required, NetworkPolicies for
  the workers and the proxy, the namespace enforcing "restricted", and checkov's Kubernetes checks
  (0 failed; a skipped check must say why, in an annotation beside a comment).

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
    with open(os.path.join(ROOT, "docs", "RUNBOOK.md"), encoding="utf-8") as handle:
        sections = set(re.findall(r"^## (\S+)$", handle.read(), re.M))
    for rule in (rule for group in rules["groups"] for rule in group["rules"] if "alert" in rule):
        url = rule.get("annotations", {}).get("runbook_url", "")
        anchor = url.partition("docs/RUNBOOK.md#")[2]
        if anchor != rule["alert"].lower() or anchor not in sections:
            fail(f"{path}: {rule['alert']} has no runbook_url to its section of docs/RUNBOOK.md ({url or 'none'})")
    for arguments in (["check", "rules", path], ["test", "rules", path.replace(".yaml", ".test.yaml")]):
        if arguments[0] == "test" and not os.path.exists(arguments[2]):
            fail(f"{path}: no unit tests ({os.path.basename(arguments[2])})")
        result = subprocess.run([promtool] + arguments, capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"promtool {' '.join(arguments)}:\n{result.stdout}{result.stderr}")
    print(f"check-deploy: {os.path.relpath(path, ROOT)}: {len(expressions)} rules, promtool check and test pass, runbook links")


def generated_in_step():
    """The catalog ConfigMap and the PrometheusRule are what their scripts make of their sources."""
    for script in ("catalog-configmap.py", "prometheus-rule.py"):
        result = subprocess.run([sys.executable, os.path.join(ROOT, "Scripts", script), "--check"],
                                capture_output=True, text=True)
        if result.returncode != 0:
            fail(result.stderr.strip() or result.stdout.strip())
        print("check-deploy: " + result.stdout.strip().splitlines()[-1])


def pods(objects):
    """(kind/name, pod spec) of every object with a pod template."""
    for item in objects:
        template = item.get("spec", {}).get("template", {})
        if item["kind"] in ("Deployment", "StatefulSet", "DaemonSet", "Job") and "spec" in template:
            yield f"{item['kind']}/{item['metadata']['name']}", template["spec"]
        elif item["kind"] == "CronJob":
            yield f"CronJob/{item['metadata']['name']}", item["spec"]["jobTemplate"]["spec"]["template"]["spec"]


def check_restricted(objects, folder):
    """The "restricted" Pod Security Standard's fields (Kubernetes docs, Pod Security Standards),
    and a read-only root file system, on every pod and container."""
    for name, pod in pods(objects):
        context = pod.get("securityContext", {})
        for field in ("hostNetwork", "hostPID", "hostIPC"):
            if pod.get(field):
                fail(f"{folder}: {name} sets {field}")
        if any("hostPath" in volume for volume in pod.get("volumes", [])):
            fail(f"{folder}: {name} mounts a hostPath volume")
        for container in pod.get("initContainers", []) + pod["containers"]:
            own = container.get("securityContext", {})
            where = f"{name} container {container['name']}"
            if own.get("privileged"):
                fail(f"{folder}: {where} is privileged")
            if own.get("allowPrivilegeEscalation") is not False:
                fail(f"{folder}: {where} does not set allowPrivilegeEscalation: false")
            if "ALL" not in own.get("capabilities", {}).get("drop", []):
                fail(f"{folder}: {where} does not drop ALL capabilities")
            if set(own.get("capabilities", {}).get("add", [])) - {"NET_BIND_SERVICE"}:
                fail(f"{folder}: {where} adds capabilities")
            if not (own.get("runAsNonRoot") or context.get("runAsNonRoot")) or own.get("runAsUser") == 0:
                fail(f"{folder}: {where} may run as root")
            seccomp = own.get("seccompProfile", context.get("seccompProfile", {})).get("type")
            if seccomp not in ("RuntimeDefault", "Localhost"):
                fail(f"{folder}: {where} has no RuntimeDefault seccomp profile")
            if own.get("readOnlyRootFilesystem") is not True:
                fail(f"{folder}: {where} can write its root file system")
            if any(port.get("hostPort") for port in container.get("ports", [])):
                fail(f"{folder}: {where} uses a hostPort")


def check_overlay(folder, validator, checkov=None):
    """Renders one overlay and checks it; with `checkov`, the production rules too."""
    if shutil.which("kubectl") is None:
        fail("kubectl is not installed (it renders the Kustomize manifests)")
    rendered = subprocess.run(["kubectl", "kustomize", folder], capture_output=True, text=True)
    if rendered.returncode != 0:
        fail(f"kubectl kustomize {folder}:\n{rendered.stderr}")
    objects = [item for item in yaml.safe_load_all(rendered.stdout) if item]
    manifest = os.path.join(ROOT, ".build", f"deploy-check-{os.path.basename(folder)}.yaml")
    os.makedirs(os.path.dirname(manifest), exist_ok=True)
    with open(manifest, "w", encoding="utf-8") as handle:
        handle.write(rendered.stdout)
    result = subprocess.run([validator, "--strict", "--quiet", manifest], capture_output=True, text=True)
    problems = [line for line in (result.stdout + result.stderr).splitlines()
                if line.strip() and "Couldn't find schema for kind ServiceMonitor" not in line
                and "Couldn't find schema for kind PrometheusRule" not in line]
    if result.returncode != 0 or problems:
        fail("kubernetes-validate:\n" + "\n".join(problems))
    folder = os.path.relpath(folder, ROOT)

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
        fail(f"{folder}: StatefulSet replicas {workers['spec']['replicas']} but SHARDS {shards}: a shard would be missing")
    if env["POD_INDEX"]["valueFrom"]["fieldRef"]["fieldPath"] != "metadata.labels['apps.kubernetes.io/pod-index']":
        fail(f"{folder}: POD_INDEX does not come from the pod-index label")
    if "--set=input.shard=$(POD_INDEX)/$(SHARDS)" not in container["args"]:
        fail(f"{folder}: the worker is not given input.shard=$(POD_INDEX)/$(SHARDS)")
    checks = [item for item in pod.get("initContainers", []) if "--check-config" in item.get("args", [])]
    if len(checks) != 1 or checks[0]["args"][:-1] != container["args"] or checks[0]["env"] != container["env"] \
            or checks[0]["volumeMounts"] != container["volumeMounts"]:
        fail(f"{folder}: no --check-config init container with the worker's arguments, environment and mounts")
    if int({item["name"]: item for item in checks[0]["env"]}["SHARDS"]["value"]) != shards:
        fail(f"{folder}: the init container's SHARDS differs")
    proxy = one("Deployment", "caffe-proxy")["spec"]["template"]["spec"]["containers"][0]
    proxy_env = {item["name"]: item for item in proxy.get("env", [])}
    if "--kind=partition" not in proxy["args"] or "--shards=$(SHARDS)" not in proxy["args"]:
        fail(f"{folder}: the proxy is not caffe proxy --kind=partition --shards=$(SHARDS)")
    if int(proxy_env.get("SHARDS", {}).get("value", -1)) != shards:
        fail(f"{folder}: the proxy routes among SHARDS {proxy_env.get('SHARDS', {}).get('value')}, the workers are {shards}")
    config_maps = [item for item in objects if item["kind"] == "ConfigMap"
                   and item["metadata"]["name"].startswith("caffe-worker-config")]
    config = yaml.safe_load(config_maps[0]["data"]["worker.yaml"])
    drain = config["shutdown"]["drain_timeout_ms"] / 1000
    if pod["terminationGracePeriodSeconds"] <= drain:
        fail(f"{folder}: terminationGracePeriodSeconds {pod['terminationGracePeriodSeconds']} is not above the drain timeout {drain:g} s")
    probes = (container["readinessProbe"]["httpGet"]["path"], container["livenessProbe"]["httpGet"]["path"])
    if probes != ("/readyz", "/healthz"):
        fail(f"{folder}: probes are {probes}, not /readyz and /healthz")
    state = os.path.dirname(config["checkpoint"]["path"])
    claims = {claim["metadata"]["name"] for claim in workers["spec"]["volumeClaimTemplates"]}
    if not any(mount["mountPath"] == state and mount["name"] in claims for mount in container["volumeMounts"]):
        fail(f"{folder}: the checkpoint folder {state} is not a claimed volume")
    # The catalog: the whole ConfigMap volume at config_dir (a subPath mount never updates).
    catalog = one("ConfigMap", "caffe-catalog")
    volume = next((item for item in pod["volumes"] if item.get("configMap", {}).get("name") == "caffe-catalog"), None)
    mount = next((item for item in container["volumeMounts"] if volume and item["name"] == volume["name"]), None)
    if not mount or mount.get("subPath") or mount["mountPath"] != config.get("config_dir"):
        fail(f"{folder}: the caffe-catalog ConfigMap is not mounted whole at config_dir ({config.get('config_dir')})")
    if {item["key"] for item in volume["configMap"]["items"]} != set(catalog["data"]):
        fail(f"{folder}: the catalog volume's items are not the ConfigMap's keys")
    if not config.get("catalog_watch_ms", 1000):
        fail(f"{folder}: catalog_watch_ms is 0: a ConfigMap update would not be reloaded")
    budget = one("PodDisruptionBudget", "caffe-worker")
    if budget["spec"]["selector"]["matchLabels"] != workers["spec"]["selector"]["matchLabels"]:
        fail(f"{folder}: the PodDisruptionBudget does not select the workers")
    jobs = set()
    for monitor in (item for item in objects if item["kind"] == "ServiceMonitor"):
        label = monitor["spec"]["jobLabel"]
        jobs.add(monitor["spec"]["selector"]["matchLabels"][label])
    if jobs != {"caffe-worker", "caffe-proxy"}:
        fail(f"{folder}: ServiceMonitors make the jobs {sorted(jobs)}, not the caffe-worker and caffe-proxy the alerts use")
    one("PrometheusRule", "caffe")
    check_restricted(objects, folder)
    summary = (f"check-deploy: {folder}: {len(objects)} objects valid, {shards} shards, "
               f"grace {pod['terminationGracePeriodSeconds']} s > drain {drain:g} s, pods restricted")
    if checkov is None:
        print(summary)
        return
    # Production.
    namespace = one("Namespace", workers["metadata"]["namespace"])
    if namespace["metadata"].get("labels", {}).get("pod-security.kubernetes.io/enforce") != "restricted":
        fail(f"{folder}: the namespace does not enforce the restricted Pod Security Standard")
    for name, spec in pods(objects):
        for item in spec.get("initContainers", []) + spec["containers"]:
            if "@sha256:" not in item["image"]:
                fail(f"{folder}: {name} runs {item['image']}, not an image by digest")
            if "cpu" not in item.get("resources", {}).get("limits", {}):
                fail(f"{folder}: {name} container {item['name']} has no CPU limit (render.threads: 0 follows it)")
            for source in item.get("envFrom", []):
                if source.get("secretRef", {}).get("name") == "caffe-curve" and source["secretRef"].get("optional", False):
                    fail(f"{folder}: {name} starts without the caffe-curve Secret: CURVE would be off")
    if "--set=curve.required=true" not in container["args"]:
        fail(f"{folder}: the workers do not set curve.required: an empty key would run them without CURVE")
    policies = {item["spec"]["podSelector"]["matchLabels"].get("app.kubernetes.io/name")
                for item in objects if item["kind"] == "NetworkPolicy"}
    if not {"caffe-worker", "caffe-proxy"} <= policies:
        fail(f"{folder}: NetworkPolicies select {sorted(p for p in policies if p)}, not the workers and the proxy")
    environment = dict(os.environ, BC_SKIP_MAPPING="TRUE", CHECKOV_NO_OUTPUT_COLOR="1")
    result = subprocess.run([checkov, "-f", manifest, "--framework", "kubernetes", "--compact", "--quiet",
                             "--skip-download", "--output", "json"], capture_output=True, text=True, env=environment)
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        fail(f"checkov gave no report:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    summary_counts = report["summary"]
    failed = report["results"].get("failed_checks", [])
    if failed:
        fail(f"{folder}: checkov: " + "; ".join(f"{item['check_id']} {item['check_name']} ({item['resource']})"
                                                 for item in failed))
    for skipped in report["results"].get("skipped_checks", []):
        reason = (skipped.get("check_result") or {}).get("suppress_comment", "")
        if len(reason.strip()) < 20:
            fail(f"{folder}: checkov check {skipped['check_id']} skipped without a reason")
    print(summary + f"; checkov {summary_counts['passed']} passed, {summary_counts['failed']} failed, "
          f"{summary_counts['skipped']} skipped with reasons")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--promtool", default="promtool")
    parser.add_argument("--kubernetes-validate", default="kubernetes-validate")
    parser.add_argument("--checkov", default="checkov")
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
    generated_in_step()
    overlays = os.path.join(ROOT, "deploy", "kubernetes", "overlays")
    check_overlay(os.path.join(overlays, "dev"), arguments.kubernetes_validate)
    check_overlay(os.path.join(overlays, "production"), arguments.kubernetes_validate, arguments.checkov)


if __name__ == "__main__":
    main()
