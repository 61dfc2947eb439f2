#!/usr/bin/env bash
# Changes the number of worker shards of a Caffe deployment on Kubernetes.
#
#   deploy/kubernetes/jobs/reshard/reshard.sh --namespace caffe --to 4 [--image IMAGE] [--overlay DIR]
#
# The steps (README "Kubernetes", "Resharding"):
#   1. read the current shard count (the StatefulSet's replicas) and the image;
#   2. scale the StatefulSet to 0 and wait until every worker has drained and exited (SIGTERM: each
#      writes its final checkpoint);
#   3. when growing, create the new shards' volumes (state-caffe-worker-<i>, as the StatefulSet's
#      claim template would) so the Job can write their checkpoints;
#   4. run the Job caffe-reshard: one pod mounting every shard's volume at /shards/<i>, which keeps
#      each old checkpoint (snapshot and journal) as *.before-reshard, runs `caffe checkpoint
#      reshard --to N` over them and installs shard i's result on volume i;
#   5. set SHARDS to the new count on the workers and the proxy, and scale the StatefulSet up;
#   6. with --overlay, write the new count into that overlay's `replicas:` so the next
#      `kubectl apply -k` agrees (otherwise it says to).
# Sources keep sending meanwhile: what arrives while no worker runs is fetched from their replay
# endpoints afterwards. Volumes of shards that no longer exist are left, named, for you to delete.
# The volumes are ReadWriteOnce: the Job's pod needs every one attached to its node, so a storage
# class bound to one node per volume cannot be resharded this way (copy the checkpoints out
# instead: README "Backups").
#
# KUBECTL (default kubectl) and CAFFE_RESHARD_TIMEOUT (seconds, default 600) may be set;
# make reshard-test runs these steps against a kubectl that records them and runs the Job locally.
set -euo pipefail

namespace=caffe
to=""
image=""
overlay=""
while [ $# -gt 0 ]; do
  case "$1" in
    --namespace) namespace=$2; shift 2 ;;
    --to) to=$2; shift 2 ;;
    --image) image=$2; shift 2 ;;
    --overlay) overlay=$2; shift 2 ;;
    *) echo "reshard: unknown argument $1" >&2; exit 64 ;;
  esac
done
case "$to" in
  ''|*[!0-9]*) echo "reshard: --to N (the new number of shards, 1 to 4096) is required" >&2; exit 64 ;;
esac
if [ "$to" -lt 1 ] || [ "$to" -gt 4096 ]; then echo "reshard: --to must be 1 to 4096" >&2; exit 64; fi
kubectl=${KUBECTL:-kubectl}
timeout=${CAFFE_RESHARD_TIMEOUT:-600}
k() { $kubectl --namespace "$namespace" "$@"; }
say() { echo "reshard: $*"; }

# 1. Where things stand.
from=$(k get statefulset caffe-worker -o 'jsonpath={.spec.replicas}')
[ -n "$image" ] || image=$(k get statefulset caffe-worker -o 'jsonpath={.spec.template.spec.containers[0].image}')
storage=$(k get statefulset caffe-worker -o 'jsonpath={.spec.volumeClaimTemplates[0].spec.resources.requests.storage}')
resume=""
if [ "$from" = 0 ]; then
  from=$(k get statefulset caffe-worker -o 'jsonpath={.spec.template.spec.containers[0].env[?(@.name=="SHARDS")].value}')
  # Stopped with SHARDS already at the new count: an earlier run got past the Job; finish it.
  [ "$from" = "$to" ] && resume=yes
fi
if [ "$from" = "$to" ] && [ -z "$resume" ]; then say "already $to shards; nothing to do"; exit 0; fi
if [ -n "$resume" ]; then
  say "the workers are stopped with SHARDS=$to already: resuming at step 5"
else
say "$from shards become $to (image $image)"

# 2. Every worker drains and stops.
k scale statefulset caffe-worker --replicas=0
k wait --for=delete pod --selector app.kubernetes.io/name=caffe-worker --timeout="${timeout}s"
say "every worker stopped (drained, final checkpoints written)"

# 3. Volumes for new shards.
volumes=$(( from > to ? from : to ))
for (( i = from; i < to; i++ )); do
  k apply -f - <<YAML
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: state-caffe-worker-$i
  labels:
    app.kubernetes.io/name: caffe-worker
spec:
  accessModes: ["ReadWriteOnce"]
  resources:
    requests:
      storage: $storage
YAML
done

# 4. The Job. Its script runs in the image's shell; old checkpoints are kept beside the new.
old=""
for (( i = 0; i < from; i++ )); do old="$old /shards/$i/worker.checkpoint"; done
script="set -eu
cd /tmp
caffe checkpoint reshard --to $to --output /tmp/resharded$old
stamp=before-reshard-$from-to-$to
# A backup of that name means an earlier run installed its result: refuse rather than overwrite
# the originals with it.
for i in \$(seq 0 $((volumes - 1))); do
  if [ -e /shards/\$i/worker.checkpoint.\$stamp ] || [ -e /shards/\$i/worker.checkpoint.journal.\$stamp ]; then
    echo \"shard \$i already has a \$stamp backup: restore it by hand or remove it\"; exit 1
  fi
done
for i in \$(seq 0 $((volumes - 1))); do
  for file in worker.checkpoint worker.checkpoint.journal; do
    if [ -e /shards/\$i/\$file ]; then cp -p /shards/\$i/\$file /shards/\$i/\$file.\$stamp; rm /shards/\$i/\$file; fi
  done
done
for i in \$(seq 0 $((to - 1))); do
  cp /tmp/resharded/shard-\$i.checkpoint /shards/\$i/worker.checkpoint.new
  cp /tmp/resharded/shard-\$i.checkpoint.journal /shards/\$i/worker.checkpoint.journal
  mv /shards/\$i/worker.checkpoint.new /shards/\$i/worker.checkpoint
  echo shard \$i: \$(wc -c < /shards/\$i/worker.checkpoint) bytes installed
done"
{
  cat <<YAML
apiVersion: batch/v1
kind: Job
metadata:
  name: caffe-reshard
  labels:
    app.kubernetes.io/name: caffe-reshard
    app.kubernetes.io/part-of: caffe
spec:
  backoffLimit: 0
  template:
    metadata:
      labels:
        app.kubernetes.io/name: caffe-reshard
    spec:
      restartPolicy: Never
      automountServiceAccountToken: false
      securityContext:
        runAsNonRoot: true
        runAsUser: 10001
        runAsGroup: 10001
        fsGroup: 10001
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: reshard
          image: $image
          command: ["/bin/sh", "-c"]
          args:
            - |
YAML
  printf '%s\n' "$script" | sed 's/^/              /'
  cat <<YAML
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            runAsNonRoot: true
            capabilities:
              drop: ["ALL"]
          resources:
            requests: {cpu: 250m, memory: 128Mi}
            limits: {cpu: "1", memory: 512Mi}
          volumeMounts:
            - {name: tmp, mountPath: /tmp}
YAML
  for (( i = 0; i < volumes; i++ )); do echo "            - {name: shard-$i, mountPath: /shards/$i}"; done
  echo "      volumes:"
  echo "        - {name: tmp, emptyDir: {}}"
  for (( i = 0; i < volumes; i++ )); do
    echo "        - {name: shard-$i, persistentVolumeClaim: {claimName: state-caffe-worker-$i}}"
  done
} > "${TMPDIR:-/tmp}/caffe-reshard-job.yaml"
k delete job caffe-reshard --ignore-not-found
k apply -f "${TMPDIR:-/tmp}/caffe-reshard-job.yaml"
if ! k wait --for=condition=complete job/caffe-reshard --timeout="${timeout}s"; then
  k logs job/caffe-reshard || true
  say "the Job failed; the workers stay at 0 and the old checkpoints are as they were (or kept as *.before-reshard-$from-to-$to)"
  exit 1
fi
k logs job/caffe-reshard
fi

# 5. The new count everywhere (each container by its own name: kubectl reads --containers as one
# name or pattern, not a list), then the workers.
k set env statefulset/caffe-worker --containers=worker SHARDS="$to"
k set env statefulset/caffe-worker --containers=check-config SHARDS="$to"
k set env deployment/caffe-proxy --containers=proxy SHARDS="$to"
k scale statefulset caffe-worker --replicas="$to"
k rollout status statefulset/caffe-worker --timeout="${timeout}s"
say "$to workers serving"
for (( i = to; i < from; i++ )); do say "volume state-caffe-worker-$i is no longer used: delete it once you are satisfied"; done

# 6. The overlay.
if [ -n "$overlay" ]; then
  sed -i "/name: caffe-worker/{n;s/count: [0-9]*/count: $to/}" "$overlay/kustomization.yaml"
  say "$overlay/kustomization.yaml: replicas count $to"
else
  say "set replicas: [{name: caffe-worker, count: $to}] in your overlay before the next kubectl apply -k"
fi
