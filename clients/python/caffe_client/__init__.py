"""A client for Caffe's workers, from Python (docs/WIRE.md is the contract it implements).

- :class:`Publisher` — an order source: numbers events, waits for subscribers, heartbeats;
- :class:`ReplayServer`, :class:`History` — the source's ``caffe.v1.Replay/Fetch`` endpoint;
- :class:`Subscriber`, :class:`Deduplicator` — a worker's PUB (or PUSH) output;
- :class:`AckedConsumer` — the acknowledged output, at least once across worker crashes;
- :class:`RpcClient` — render, health and stats calls with deadlines and Lazy Pirate retries;
- :mod:`caffe_client.messages` — every message class; :mod:`caffe_client.frames` — the frames;
  :mod:`caffe_client.topics`; :mod:`caffe_client.text` — the characters outputs contain;
- :func:`shard_of` — which shard of a fleet (``input.shard``) owns a source.
"""

from .acked import AckedConsumer, Delivery
from .frames import Event, ProtocolError, encode_event, parse_event
from .publisher import Publisher
from .replay import History, ReplayServer
from .rpc import RpcClient
from .shards import shard_of
from .status import RpcError, StatusCode
from .subscriber import Deduplicator, Subscriber, output_key

__version__ = "0.1.0"

__all__ = [
    "AckedConsumer",
    "Deduplicator",
    "Delivery",
    "Event",
    "History",
    "ProtocolError",
    "Publisher",
    "ReplayServer",
    "RpcClient",
    "RpcError",
    "StatusCode",
    "Subscriber",
    "encode_event",
    "output_key",
    "parse_event",
    "shard_of",
]
