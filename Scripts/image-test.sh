#!/usr/bin/env bash
# Checks the OCI archive of Scripts/image.sh: its config (user, entrypoint, command, volume,
# ports, environment, labels) and its one layer (the release under /opt/caffe, config under
# /etc/caffe, the checkpoint folder owned by the user, nothing of the Swift toolchain), read from
# the archive's own JSON with skopeo and tar. Then runs it with podman when containers run on this
# machine: `--version`, and a worker that `caffe-sim load` (from the tarball) sends 3,000 orders
# to, every one delivered, then stopped with SIGTERM (exit 0). Usage: image-test.sh ARCHIVE TARBALL
#
# Where podman 4.3 cannot run containers as configured by default — crun refuses this VM's
# hybrid cgroups, and the default nofile/nproc limits exceed the VM's hard limits — the test uses
# runc with limits within the hard ones; if even that fails it says why and skips the run.
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(realpath "$1")
tarball=$(realpath "$2")
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/CaffeCore/CaffeVersion.swift)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"; podman rm --force caffe-image-test >/dev/null 2>&1 || true' EXIT

skopeo inspect --config "oci-archive:$archive" >"$scratch/config.json"
skopeo inspect "oci-archive:$archive" >"$scratch/manifest.json"
mkdir "$scratch/archive"
tar -C "$scratch/archive" -xf "$archive"
python3 - "$scratch" "$version" <<'EOF'
import json, os, sys, tarfile
scratch, version = sys.argv[1], sys.argv[2]
def fail(message):
    sys.exit(f"image-test: FAILED: {message}")
config = json.load(open(os.path.join(scratch, "config.json")))["config"]
expected = {
    "User": "10001:10001",
    "Entrypoint": ["/opt/caffe/bin/caffe"],
    "Cmd": ["worker", "--config-file", "/etc/caffe/worker.yaml"],
    "WorkingDir": "/var/lib/caffe",
    "Volumes": {"/var/lib/caffe": {}},
    "ExposedPorts": {"5561/tcp": {}, "5562/tcp": {}, "9464/tcp": {}},
    "StopSignal": "15",  # SIGTERM, which podman writes as its number
}
for key, value in expected.items():
    if config.get(key) != value:
        fail(f"config {key} is {config.get(key)!r}, not {value!r}")
if "CAFFE_CONFIG=/etc/caffe" not in config.get("Env", []):
    fail(f"Env lacks CAFFE_CONFIG=/etc/caffe: {config.get('Env')}")
if config.get("Labels", {}).get("org.opencontainers.image.version") != version:
    fail(f"label org.opencontainers.image.version is not {version}")
layers = json.load(open(os.path.join(scratch, "manifest.json")))["Layers"]
if len(layers) != 1:
    fail(f"{len(layers)} layers, not one")
blob = os.path.join(scratch, "archive", "blobs", *layers[0].split(":"))
members = {}
with tarfile.open(blob) as layer:
    for member in layer:
        members[member.name.lstrip("./")] = member
for path in ["opt/caffe/bin/caffe", "opt/caffe/bin/caffe-sim", "opt/caffe/bin/caffe_GrammarAgreement.resources",
             "etc/caffe/worker.yaml", "etc/caffe/menu.json", "etc/caffe/Localizations", "var/lib/caffe",
             "usr/lib/x86_64-linux-gnu/libzmq.so.5"]:
    if not any(name == path or name.startswith(path + "/") for name in members):
        fail(f"the layer has no {path}")
if any(name.startswith("opt/swift") for name in members):
    fail("the layer has /opt/swift")
state = members["var/lib/caffe"]
if (state.uid, state.gid) != (10001, 10001):
    fail(f"/var/lib/caffe belongs to {state.uid}:{state.gid}, not the user 10001")
size = sum(member.size for member in members.values())
print(f"image-test: config and layer as expected (user 10001, volume /var/lib/caffe, "
      f"{len(members)} files, {size / 1e6:.0f} MB unpacked)")
EOF

image=localhost/caffe-image-test:$version
podman rmi --force "$image" >/dev/null 2>&1 || true
podman load --quiet --input "$archive" >"$scratch/load.txt"
loaded=$(sed -n 's/^Loaded image.*: //p' "$scratch/load.txt" | tail -1)
podman tag "$loaded" "$image"
run=(podman run --runtime runc --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 --network host)
if ! probe=$("${run[@]}" --rm "$image" --version 2>&1); then
    echo "image-test: SKIPPED running the image: podman cannot start containers here: $probe"
    exit 0
fi
[ "$probe" = "$version" ] || { echo "image-test: FAILED: --version printed '$probe'"; exit 1; }
echo "image-test: podman run $image --version: $probe"
"${run[@]}" --detach --name caffe-image-test "$image" worker --config-file /etc/caffe/worker.yaml \
    --set 'input.endpoints=>tcp://127.0.0.1:5560' --set output.kind=pub \
    --set 'output.endpoints=@tcp://127.0.0.1:5561' --set 'rpc.endpoint=@tcp://127.0.0.1:5562' \
    --set metrics.address=127.0.0.1:9464 >/dev/null
mkdir "$scratch/release"
tar -C "$scratch/release" -xzf "$tarball"
sim=$(echo "$scratch"/release/*/bin/caffe-sim)
if ! "$sim" load --rate 1000 --count 3000 --threshold 'lost==0' >"$scratch/load.txt" 2>&1; then
    cat "$scratch/load.txt"
    podman logs caffe-image-test | tail -20
    echo "image-test: FAILED: caffe-sim load against the container"
    exit 1
fi
echo "image-test: load against the container: $(grep -m1 PASSED "$scratch/load.txt")"
podman stop --time 30 caffe-image-test >/dev/null
status=$(podman inspect --format '{{.State.ExitCode}}' caffe-image-test)
[ "$status" = 0 ] || { podman logs caffe-image-test | tail -20; echo "image-test: FAILED: the worker exited $status"; exit 1; }
echo "image-test: the container's worker drained on SIGTERM and exited 0"
