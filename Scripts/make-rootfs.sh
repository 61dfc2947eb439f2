#!/usr/bin/env bash
# A minimal Debian root folder with libzmq5 and nothing of the Swift toolchain: where make dist's
# tarball is tested (Scripts/dist-test.sh) and what the OCI image is made of. Built once with
# debootstrap (--variant=minbase, from the machine's apt mirror) and kept in .build/rootfs;
# prints its path on the last line. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
suite=${SUITE:-bookworm}
mirror=${MIRROR:-$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)}
mirror=${mirror:-http://deb.debian.org/debian}
root=.build/rootfs/$suite-minbase-libzmq5
if [ ! -e "$root/.complete" ]; then
    rm -rf "$root"
    mkdir -p "$(dirname "$root")"
    echo "rootfs: debootstrap --variant=minbase --include=libzmq5 $suite from $mirror" >&2
    debootstrap --variant=minbase --include=libzmq5 "$suite" "$root" "$mirror" >&2
    rm -rf "$root/var/cache/apt/archives/"*.deb "$root/var/lib/apt/lists/"*
    touch "$root/.complete"
fi
echo "$(cd "$root" && pwd)"
