#!/usr/bin/env bash
# make dist: a release that runs on a Linux host without the Swift toolchain.
#
# The binaries are linked with the static Swift standard library and Foundation
# (--static-swift-stdlib; ICU's data is inside _FoundationICU), so what they need from the host
# is glibc, libstdc++ and libzmq5 — checked below from their dynamic section, whose run path
# may only be $ORIGIN (nothing into the toolchain). The grammar lexicons are a resource folder that Bundle
# finds beside the executable. Layout (relative, so the tarball unpacks anywhere):
#   bin/caffe, bin/caffe-sim, bin/caffe_GrammarAgreement.resources/
#   etc/caffe/            config/ as the tree has it (worker.yaml on loopback, menu.json, traffic.json,
#                         Localizations/): the default configuration folder of bin/caffe
#   share/doc/caffe/worker.production.yaml   deploy/worker.yaml, the template for a host
#   lib/systemd/system/caffe-worker.service
#   share/doc/caffe/      LICENSE, NOTICE, INSTALL
# Prints the tarball's path on the last line.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/CaffeCore/CaffeVersion.swift)
name="caffe-$version-linux-$(uname -m)"
scratch=.build/dist-build
out=.build/dist
stage="$out/$name"

for product in caffe caffe-sim; do
    "$SWIFT" build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product"
done
bin=$("$SWIFT" build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)

rm -rf "$stage" "$out/$name.tar.gz"
mkdir -p "$stage/bin" "$stage/etc/caffe" "$stage/lib/systemd/system" "$stage/share/doc/caffe"
install -m 0755 "$bin/caffe" "$bin/caffe-sim" "$stage/bin/"
cp -R "$bin/caffe_GrammarAgreement.resources" "$stage/bin/"
cp -R config/Localizations config/menu.json config/traffic.json config/worker.yaml "$stage/etc/caffe/"
install -m 0644 deploy/worker.yaml "$stage/share/doc/caffe/worker.production.yaml"
install -m 0644 deploy/caffe-worker.service "$stage/lib/systemd/system/"
install -m 0644 LICENSE NOTICE "$stage/share/doc/caffe/"
cat > "$stage/share/doc/caffe/INSTALL" <<EOF
Caffe $version for Linux ($(uname -m)).

Needs from the host: glibc 2.34 or later, libstdc++ and libzmq 4.3 (Debian and Ubuntu: apt-get
install libzmq5). Nothing else: the Swift runtime and Foundation are inside the binaries.

  tar -xzf $name.tar.gz && $name/bin/caffe --version

Installed as a service (deploy/caffe-worker.service explains each step):
  cp -R $name/bin/. /usr/local/bin/                 # caffe, caffe-sim and the lexicons beside them
  mkdir -p /etc/caffe && cp -R $name/etc/caffe/. /etc/caffe/
  cp $name/share/doc/caffe/worker.production.yaml /etc/caffe/worker.yaml   # then edit the endpoints
  cp $name/lib/systemd/system/caffe-worker.service /etc/systemd/system/

Run from the unpacked folder, bin/caffe reads its configuration from ../etc/caffe (a worker on
loopback, as in the source tree) unless --config, \$CAFFE_CONFIG or ./config say otherwise.
EOF

# What the binaries need from the host: nothing from the toolchain.
for binary in "$stage/bin/caffe" "$stage/bin/caffe-sim"; do
    dynamic=$(readelf -d "$binary")
    # SwiftPM writes $ORIGIN (the binary's own folder); a path into the toolchain would be a defect.
    runpath=$(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' <<<"$dynamic")
    if [ -n "$runpath" ] && [ "$runpath" != '$ORIGIN' ]; then
        echo "dist: $binary has the run path $runpath" >&2
        exit 1
    fi
    needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic" | sort | tr '\n' ' ')
    for library in $needed; do
        case "$library" in
            libc.so.6 | libm.so.6 | libstdc++.so.6 | libgcc_s.so.1 | libzmq.so.5 | ld-linux-x86-64.so.2 | ld-linux-aarch64.so.1) ;;
            *)
                echo "dist: $binary needs $library, which a host without the toolchain may lack" >&2
                exit 1
                ;;
        esac
    done
    echo "dist: $(basename "$binary") needs $needed"
done

tar -C "$out" -czf "$out/$name.tar.gz" --owner=0 --group=0 "$name"
echo "dist: $(du -h "$out/$name.tar.gz" | cut -f1) $out/$name.tar.gz"
echo "$out/$name.tar.gz"
