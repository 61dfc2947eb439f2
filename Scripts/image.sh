#!/usr/bin/env bash
# make image: an OCI image of make dist's tarball, built without a registry or a Dockerfile.
#
# The root file system is the minimal Debian root of Scripts/make-rootfs.sh (minbase plus
# libzmq5) with the release under /opt/caffe, config and catalogs under /etc/caffe
# (deploy/worker.yaml as worker.yaml), a non-root user caffe (10001) and the checkpoint folder
# /var/lib/caffe as a volume. `podman import` makes it one layer and sets the image config;
# `podman save` writes it as an OCI archive. Usage: image.sh TARBALL; prints the archive's path
# on the last line. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$(realpath "$1")
root=$(Scripts/make-rootfs.sh | tail -1)
version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/CaffeCore/CaffeVersion.swift)
release=$(basename "$tarball" .tar.gz)
image=localhost/caffe:$version
out=.build/image
stage=$out/rootfs
uid=10001

rm -rf "$stage"
mkdir -p "$out"
cp -a "$root" "$stage"
rm -f "$stage/.complete"
tar -C "$stage/opt" -xzf "$tarball"
mv "$stage/opt/$release" "$stage/opt/caffe"
mkdir -p "$stage/etc/caffe"
cp -R "$stage/opt/caffe/etc/caffe/Localizations" "$stage/opt/caffe/etc/caffe/menu.json" \
    "$stage/opt/caffe/etc/caffe/traffic.json" "$stage/etc/caffe/"
cp deploy/worker.yaml "$stage/etc/caffe/worker.yaml"
rm -rf "$stage/opt/caffe/etc"
echo "caffe:x:$uid:$uid:Caffe worker:/var/lib/caffe:/usr/sbin/nologin" >>"$stage/etc/passwd"
echo "caffe:x:$uid:" >>"$stage/etc/group"
mkdir -p "$stage/var/lib/caffe"
chown "$uid:$uid" "$stage/var/lib/caffe"
# What a container does not need: documentation and locales of the base system.
rm -rf "$stage/usr/share/doc" "$stage/usr/share/man" "$stage/usr/share/info" "$stage/var/log/"*

podman rmi --force "$image" >/dev/null 2>&1 || true
tar -C "$stage" --numeric-owner -c . | podman import \
    --change "USER $uid:$uid" \
    --change "WORKDIR /var/lib/caffe" \
    --change "ENV PATH=/opt/caffe/bin:/usr/bin:/bin" \
    --change "ENV CAFFE_CONFIG=/etc/caffe" \
    --change "ENV LANG=C.UTF-8" \
    --change 'ENTRYPOINT ["/opt/caffe/bin/caffe"]' \
    --change 'CMD ["worker", "--config-file", "/etc/caffe/worker.yaml"]' \
    --change "VOLUME /var/lib/caffe" \
    --change "EXPOSE 5561/tcp" \
    --change "EXPOSE 5562/tcp" \
    --change "EXPOSE 9464/tcp" \
    --change "STOPSIGNAL SIGTERM" \
    --change "LABEL org.opencontainers.image.title=caffe" \
    --change "LABEL org.opencontainers.image.version=$version" \
    --change "LABEL org.opencontainers.image.description=Caffe workers: localized order confirmations, receipts and complications over ZeroMQ" \
    - "$image" >&2
rm -f "$out/caffe-$version.oci.tar"
podman save --format oci-archive -o "$out/caffe-$version.oci.tar" "$image" >&2
rm -rf "$stage"
echo "image: $image, $(du -h "$out/caffe-$version.oci.tar" | cut -f1) $out/caffe-$version.oci.tar" >&2
echo "$out/caffe-$version.oci.tar"
