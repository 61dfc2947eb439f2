"""CPU a caffe worker spends per order when every order names a customer locale it has not seen.

Starts a worker (one render thread, PULL in, PUSH out, on loopback), warms it with 200 en-US
orders, then sends N orders whose locales are all `en-US` (same) or each a new well-formed tag
(`en-US-x-t201`, ...; unique) and prints the worker's CPU per order from /proc and the rate.

    .build/python-client/bin/python Benchmarks/python/unique_locales.py .build/release/caffe 1000 unique

Run from the repository root after `make test` (which installs caffe_client in that venv).
"""
import os
import subprocess
import sys
import tempfile
import time

import zmq
from google.protobuf import json_format
from caffe_client.proto.caffe.v1 import order_pb2, envelope_pb2
caffe = sys.argv[1]; n = int(sys.argv[2]); unique = sys.argv[3] == 'unique'
ctx = zmq.Context()
src = ctx.socket(zmq.PUSH); sp = src.bind_to_random_port('tcp://127.0.0.1')
col = ctx.socket(zmq.PULL); cp = col.bind_to_random_port('tcp://127.0.0.1')
tmp = tempfile.mkdtemp()
sets = ["input.kind=pull", f"input.endpoints=>tcp://127.0.0.1:{sp}", "output.kind=push", f"output.endpoints=>tcp://127.0.0.1:{cp}",
        "rpc.endpoint=", "metrics.address=", f"checkpoint.path={tmp}/cp", "log.level=error", "render.threads=1", "config_dir=config"]
args = [caffe, "worker", "--config-file", "config/worker.yaml"] + sum((["--set", s] for s in sets), [])
proc = subprocess.Popen(args, stdout=subprocess.DEVNULL)
base = json_format.Parse(open('config/examples/order.json').read(), order_pb2.OrderEvent())
def cpu():
    f = open(f'/proc/{proc.pid}/stat').read().rsplit(')',1)[1].split()
    return (int(f[11]) + int(f[12])) / os.sysconf('SC_CLK_TCK')
def send(i, locale):
    o = order_pb2.OrderEvent(); o.CopyFrom(base)
    o.order_id = f"o-{i}"; o.source_id = "s"; o.sequence = i; o.customer.locale = locale
    h = envelope_pb2.EventHeader(); h.source_id = "s"; h.sequence = i; h.order_id = o.order_id
    h.body_type = "caffe.v1.OrderEvent"
    src.send_multipart([b"order.x", h.SerializeToString(), o.SerializeToString()])
# warm up with 200 ordinary orders
for i in range(1, 201): send(i, "en-US")
for _ in range(400): col.recv_multipart()
c0 = cpu(); t0 = time.time()
for i in range(201, 201 + n): send(i, f"en-US-x-t{i}" if unique else "en-US")
for _ in range(2 * n): col.recv_multipart()
c1 = cpu(); t1 = time.time()
print(f"{'unique' if unique else 'same'} locales: {n} orders, worker CPU {1e6*(c1-c0)/n:.0f} µs/order, {n/(t1-t0):.0f} orders/s")
proc.terminate(); proc.wait()
