#!/usr/bin/env python3
"""A kubectl for testing reshard.sh without a cluster (make reshard-test, test_reshard_job.py).

It keeps the StatefulSet's replicas, image, storage and SHARDS in $FAKE_KUBE/state.json, records
every call in $FAKE_KUBE/calls.log, makes a folder $FAKE_KUBE/volumes/<claim> for each
PersistentVolumeClaim applied, and runs an applied Job for real: its container's script, with
each mount path (/shards/<i>) a link to the folder of the claim mounted there and /tmp a fresh folder, and `caffe`
from $PATH. Anything else it is asked is an error, so a new step in the script must be taught here.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.environ["FAKE_KUBE"]
STATE = os.path.join(ROOT, "state.json")


def state():
    with open(STATE, encoding="utf-8") as handle:
        return json.load(handle)


def save(value):
    with open(STATE, "w", encoding="utf-8") as handle:
        json.dump(value, handle)


def run_job(job):
    pod = job["spec"]["template"]["spec"]
    container = pod["containers"][0]
    claims = {volume["name"]: volume["persistentVolumeClaim"]["claimName"]
              for volume in pod["volumes"] if "persistentVolumeClaim" in volume}
    scratch = tempfile.mkdtemp(prefix="fake-job-tmp-")
    # /tmp first: the volumes' folders may themselves be under /tmp.
    script = re.sub(r"/tmp(?=/|\s|$)", scratch, container["args"][0])
    # Each mount as a link under one folder, and the script's paths read under it.
    mounts = tempfile.mkdtemp(prefix="fake-job-mounts-")
    roots = set()
    for mount in container["volumeMounts"]:
        if mount["name"] in claims:
            folder = os.path.join(ROOT, "volumes", claims[mount["name"]])
            if not os.path.isdir(folder):
                return 1, f"volume {claims[mount['name']]} does not exist\n"
            link = os.path.join(mounts, mount["mountPath"].lstrip("/"))
            os.makedirs(os.path.dirname(link), exist_ok=True)
            os.symlink(folder, link)
            roots.add("/" + mount["mountPath"].lstrip("/").split("/")[0])
    for root in roots:
        script = re.sub(re.escape(root) + r"(?=/)", mounts + root, script)
    done = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def main(arguments):
    with open(os.path.join(ROOT, "calls.log"), "a", encoding="utf-8") as log:
        log.write(" ".join(arguments) + "\n")
    if arguments[:1] == ["--namespace"]:
        arguments = arguments[2:]
    current = state()
    verb = arguments[0]
    if verb == "get" and arguments[1:3] == ["statefulset", "caffe-worker"]:
        path = arguments[-1].removeprefix("jsonpath=")
        answers = {
            "{.spec.replicas}": current["replicas"],
            "{.spec.template.spec.containers[0].image}": current["image"],
            "{.spec.volumeClaimTemplates[0].spec.resources.requests.storage}": current["storage"],
            '{.spec.template.spec.containers[0].env[?(@.name=="SHARDS")].value}': current["shards"],
        }
        print(answers[path], end="")
        return 0
    if verb == "scale":
        current["replicas"] = int(arguments[-1].split("=")[1])
        save(current)
        return 0
    if verb in ("wait", "rollout") and "job/caffe-reshard" not in arguments:
        return 0
    if verb == "wait":
        return current.get("job_status", 1)
    if verb == "logs":
        print(current.get("job_log", ""), end="")
        return 0
    if verb == "delete" and arguments[1:3] == ["job", "caffe-reshard"]:
        return 0
    if verb == "apply":
        source = arguments[arguments.index("-f") + 1]
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
        for item in yaml.safe_load_all(text):
            if item["kind"] == "PersistentVolumeClaim":
                os.makedirs(os.path.join(ROOT, "volumes", item["metadata"]["name"]), exist_ok=True)
            elif item["kind"] == "Job":
                with open(os.path.join(ROOT, "job.yaml"), "w", encoding="utf-8") as handle:
                    handle.write(text)
                current["job_status"], current["job_log"] = run_job(item)
                save(current)
            else:
                print(f"fake kubectl: cannot apply a {item['kind']}", file=sys.stderr)
                return 1
        return 0
    if verb == "set" and arguments[1] == "env":
        # kubectl's rule: --containers is one container name or a shell pattern; an unmatched name
        # is only a warning (exit 0), so it changes nothing.
        import fnmatch
        names = {"statefulset/caffe-worker": ["worker", "check-config"], "deployment/caffe-proxy": ["proxy"]}
        pattern = next((a.split("=", 1)[1] for a in arguments if a.startswith("--containers=")), "*")
        matched = [name for name in names.get(arguments[2], []) if fnmatch.fnmatchcase(name, pattern)]
        if not matched:
            print(f"warning: {arguments[2]} does not have any containers matching {pattern!r}", file=sys.stderr)
        value = arguments[-1].split("=")[1]
        for name in matched:
            current.setdefault("env", {})[f"{arguments[2]}/{name}"] = value
        if all(current.get("env", {}).get(f"statefulset/caffe-worker/{name}") == value for name in ("worker", "check-config")):
            current["shards"] = value
        save(current)
        return 0
    print(f"fake kubectl: not taught: {' '.join(arguments)}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
