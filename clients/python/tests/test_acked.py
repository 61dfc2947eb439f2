"""The acknowledged output (output.kind=acked): deliveries, acknowledgements, the checkpoint that
waits for them, and redelivery after a worker is killed (docs/WIRE.md, "The acknowledged
output")."""

from __future__ import annotations

import signal
import time

import zmq

from caffe_client import AckedConsumer, Deduplicator, Publisher, ReplayServer
from caffe_client.messages import ConsumerFeedback

from conftest import start_worker
from orders import small_order


def stream_key(publisher: Publisher) -> str:
    """The worker's checkpoint key for this publisher's run: its source id, and its epoch in base
    64 after a unit separator (docs/WIRE.md, "Sources and sequences")."""
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
    epoch, encoded = publisher.source_epoch, ""
    while epoch:
        encoded, epoch = digits[epoch & 63] + encoded, epoch >> 6
    return f"{publisher.source_id}\x1f{encoded}" if encoded else publisher.source_id


def wait_for(condition, timeout: float = 10.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def receive_all(consumer: AckedConsumer, count: int, timeout: float = 10.0):
    deliveries = []
    deadline = time.monotonic() + timeout
    while len(deliveries) < count:
        delivery = consumer.receive(max(0.01, deadline - time.monotonic()))
        assert delivery is not None, f"{len(deliveries)} of {count} deliveries"
        deliveries.append(delivery)
    return deliveries


def test_outputs_are_checkpointed_only_once_acknowledged(workers, context, source_id):
    worker = workers("output.kind=acked")
    with ReplayServer(context=context) as replay, Publisher(
        ">" + worker.input, source_id=source_id, replay=replay, context=context
    ) as publisher, AckedConsumer(worker.output, window=4, context=context) as consumer:
        publisher.wait_for_subscribers(1)
        for index in range(1, 4):
            publisher.publish_order(small_order(f"{source_id}-{index}"))
        first = receive_all(consumer, 4)
        # The window is 4: nothing more comes until something is acknowledged.
        assert consumer.receive(0.5) is None
        assert [(d.tag, d.event.header.sequence, d.event.topic) for d in first] == [
            (1, 1, "confirmation.es-MX"),
            (2, 1, "receipt.store-mx-cdmx"),
            (3, 2, "confirmation.es-MX"),
            (4, 2, "receipt.store-mx-cdmx"),
        ]
        time.sleep(0.3)
        assert worker.checkpoint_sources().get(stream_key(publisher), 0) == 0
        consumer.ack(first[2])  # order 1 complete, order 2 half
        wait_for(lambda: worker.checkpoint_sources().get(stream_key(publisher)) == 1, what="checkpoint 1")
        consumer.ack(first[3])
        rest = receive_all(consumer, 2)
        assert [d.tag for d in rest] == [5, 6]
        consumer.ack(rest[-1])
        wait_for(lambda: worker.checkpoint_sources().get(stream_key(publisher)) == 3, what="checkpoint 3")


def test_a_killed_worker_loses_nothing_unacknowledged(tmp_path, context, source_id):
    worker = start_worker(tmp_path, "output.kind=acked", name="first")
    pinned = [
        f"input.endpoints=@{worker.input}",
        f"output.endpoints=@{worker.output}",
        f"rpc.endpoint=@{worker.rpc}",
        "output.kind=acked",
    ]
    replay = ReplayServer(context=context)
    publisher = Publisher(">" + worker.input, source_id=source_id, replay=replay, context=context)
    consumer = AckedConsumer(worker.output, window=100, context=context)
    deduplicator = Deduplicator()
    restarted = None
    try:
        publisher.wait_for_subscribers(1)
        for index in range(1, 4):
            publisher.publish_order(small_order(f"{source_id}-{index}"))
        before = receive_all(consumer, 6)
        consumer.ack(before[1])  # order 1 only
        wait_for(lambda: worker.checkpoint_sources().get(stream_key(publisher)) == 1, what="checkpoint 1")
        assert all(deduplicator.first(d.event) for d in before)
        worker.stop(signal.SIGKILL)

        restarted = start_worker(tmp_path, *pinned, name="first")
        publisher.wait_for_subscribers(1, timeout=15)
        # The restarted worker resumes after sequence 1; the heartbeat says 3 were sent.
        publisher.heartbeat()
        again = receive_all(consumer, 4, timeout=15)
        assert consumer.restarts == 1
        assert {d.incarnation for d in again} != {before[0].incarnation}
        assert [(d.tag, d.event.header.sequence, d.event.header.metadata.get("replayed")) for d in again] == [
            (1, 2, "true"),
            (2, 2, "true"),
            (3, 3, "true"),
            (4, 3, "true"),
        ]
        assert not any(deduplicator.first(d.event) for d in again)
        assert deduplicator.duplicates == 4
        consumer.ack(again[-1])
        wait_for(lambda: restarted.checkpoint_sources().get(stream_key(publisher)) == 3, what="checkpoint 3")
    finally:
        consumer.close()
        publisher.close()
        replay.close()
        if restarted is not None:
            assert restarted.stop() == 0


def test_a_silent_consumer_holding_nothing_is_not_forgotten(workers, context, source_id):
    worker = workers("output.kind=acked", "output.ack_timeout_ms=300")
    # A bare DEALER that announces itself once and then stays silent holds nothing, so it is not
    # dropped (only a consumer holding deliveries must report): after three timeouts the two
    # outputs below are still shared out between the two consumers in turn.
    silent = context.socket(zmq.DEALER)
    silent.connect(worker.output)
    silent.send(ConsumerFeedback(window=10).SerializeToString())
    with Publisher(">" + worker.input, source_id=source_id, context=context) as publisher, AckedConsumer(
        worker.output, window=10, heartbeat_interval=0.1, auto_ack=True, context=context
    ) as consumer:
        publisher.wait_for_subscribers(1)
        assert consumer.receive(1.0) is None  # idle for three timeouts, reporting
        publisher.publish_order(small_order(f"{source_id}-1"))
        delivered = consumer.receive(2.0)
        assert delivered is not None
        assert silent.poll(2000)
        held = silent.recv_multipart()
        assert sorted([delivered.event.topic, held[1].decode()]) == ["confirmation.es-MX", "receipt.store-mx-cdmx"]
    silent.close(linger=0)
