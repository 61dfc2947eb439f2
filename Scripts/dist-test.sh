#!/usr/bin/env bash
# Runs make dist's tarball where the Swift toolchain and the source tree do not exist: unpacked
# into a minimal Debian root (Scripts/make-rootfs.sh: minbase plus libzmq5) and started with
# chroot, in its own mount and PID namespaces, with an empty environment. Checks
# `caffe --version`, the default configuration found beside the binary (a render), then a worker
# and `caffe-sim load` against it: every order delivered. Needs root. Usage: dist-test.sh TARBALL
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$(realpath "$1")
root=$(Scripts/make-rootfs.sh | tail -1)
name=$(basename "$tarball" .tar.gz)
scratch="$root/opt/dist-test"
rm -rf "$scratch"
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT
tar -C "$scratch" -xzf "$tarball"
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/CaffeCore/CaffeVersion.swift)

# The checks, as the root's own /bin/sh runs them.
cat > "$scratch/check.sh" <<EOF
set -eu
cd /opt/dist-test/$name
fail() { echo "dist-test: FAILED: \$*"; exit 1; }
[ ! -e /opt/swift ] || fail "the root has /opt/swift"
[ ! -e "$PWD" ] || fail "the root has the source tree"
version=\$(bin/caffe --version)
[ "\$version" = "$version" ] || fail "caffe --version printed '\$version', not $version"
[ "\$(bin/caffe-sim --version)" = "$version" ] || fail "caffe-sim --version"
echo "dist-test: caffe --version: \$version"
bin/caffe string --catalog etc/caffe/Localizations --locale es-MX "Add %lld %@ %@ to your order" 2 pequeño ensalada \
    > /tmp/string.txt || fail "caffe string"
[ "\$(cat /tmp/string.txt)" = "Añadir 2 ensaladas pequeñas a tu pedido" ] || fail "caffe string printed '\$(cat /tmp/string.txt)'"
echo "dist-test: agreement from the bundled lexicons: \$(cat /tmp/string.txt)"
bin/caffe worker --set checkpoint.path=/tmp/worker.checkpoint > /tmp/worker.log 2>&1 &
worker=\$!
bin/caffe-sim load --rate 1000 --count 3000 --threshold 'lost==0' > /tmp/load.txt 2>&1 || {
    cat /tmp/load.txt /tmp/worker.log; fail "caffe-sim load"; }
grep -q PASSED /tmp/load.txt || { cat /tmp/load.txt; fail "the load did not pass"; }
echo "dist-test: load: \$(grep -m1 PASSED /tmp/load.txt)"
kill -TERM \$worker
wait \$worker || { cat /tmp/worker.log; fail "the worker exited \$? after SIGTERM"; }
echo "dist-test: the worker drained and exited 0"
EOF

unshare --mount --pid --fork --mount-proc="$root/proc" \
    chroot "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 /bin/sh /opt/dist-test/check.sh
echo "dist-test: $name runs without the toolchain"
