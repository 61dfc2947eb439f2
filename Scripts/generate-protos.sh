#!/usr/bin/env bash
# Regenerates the committed Swift code for Caffe's wire schema.
#
# Needs protoc (Debian: protobuf-compiler, installed here if missing) and builds protoc-gen-swift
# once, from the swift-protobuf version the package resolves, into .build-protoc/.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v protoc >/dev/null; then
    echo "generate-protos: installing protobuf-compiler (apt-get)"
    SUDO=$([ "$(id -u)" = "0" ] || echo sudo)
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq protobuf-compiler
fi

swift package resolve
PLUGIN_PACKAGE=.build/checkouts/swift-protobuf
[ -x .build-protoc/release/protoc-gen-swift ] || swift build -c release --product protoc-gen-swift --package-path "$PLUGIN_PACKAGE" --scratch-path .build-protoc

PROTO_ROOT=Sources/CaffeProtocol/Proto
OUT=Sources/CaffeProtocol/Generated
rm -f "$OUT"/*.pb.swift
protoc \
    --plugin=protoc-gen-swift=.build-protoc/release/protoc-gen-swift \
    --swift_opt=Visibility=Public \
    --swift_opt=FileNaming=PathToUnderscores \
    --swift_out="$OUT" \
    -I "$PROTO_ROOT" \
    "$PROTO_ROOT"/caffe/v1/*.proto "$PROTO_ROOT"/grpc/health/v1/*.proto
echo "generate-protos: wrote $(ls "$OUT" | wc -l) files to $OUT"
