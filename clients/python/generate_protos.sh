#!/usr/bin/env bash
# Regenerates the committed protobuf modules of the Python client from the wire schema.
#
#   clients/python/generate_protos.sh            # or: make protos (Swift and Python)
#   clients/python/generate_protos.sh --check    # exit 1 if the committed modules are stale
#
# protoc comes from Debian's protobuf-compiler (3.21.12, installed here if missing); its modules
# need the protobuf runtime 4.21.12 or later. protoc names the imports after the .proto paths
# (`from caffe.v1 import order_pb2`, `grpc.health.v1`), which would clash with other top-level
# packages (grpcio's `grpc`), so they are rewritten to live under caffe_client.proto.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
proto_root="$repo/Sources/CaffeProtocol/Proto"
target="$here/caffe_client/proto"

if ! command -v protoc >/dev/null; then
    echo "generate_protos: installing protobuf-compiler (apt-get)"
    sudo=$([ "$(id -u)" = "0" ] || echo sudo)
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq protobuf-compiler
fi

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$proto_root" && protoc -I . --python_out="$scratch" --pyi_out="$scratch" caffe/v1/*.proto grpc/health/v1/*.proto)
for package in "$scratch" "$scratch/caffe" "$scratch/caffe/v1" "$scratch/grpc" "$scratch/grpc/health" \
    "$scratch/grpc/health/v1"; do
    printf '"""Generated from Sources/CaffeProtocol/Proto by clients/python/generate_protos.sh."""\n' \
        >"$package/__init__.py"
done
find "$scratch" -name '*_pb2.py*' -exec sed -i -E \
    -e 's/^from (caffe\.v1|grpc\.health\.v1) import /from caffe_client.proto.\1 import /' \
    -e "s/'(caffe\.v1|grpc\.health\.v1)\.([a-z_]+_pb2)'/'caffe_client.proto.\1.\2'/" {} +

if [ "${1:-}" = "--check" ]; then
    if ! diff -r -q "$scratch" "$target" >/dev/null; then
        diff -r "$scratch" "$target" | head -n 20 >&2
        echo "generate_protos: $target is stale; run clients/python/generate_protos.sh" >&2
        exit 1
    fi
    echo "generate_protos: $target is up to date"
    exit 0
fi
rm -rf "$target"
cp -r "$scratch" "$target"
echo "generate_protos: wrote $(find "$target" -name '*_pb2.py' | wc -l) modules to ${target#"$repo"/}"
