"""Which of a fleet's shards owns a source, as workers with ``input.shard`` compute it.

The owner of a source id is the jump consistent hash (Lamping and Veach, 2014) of the id's 64-bit
FNV-1a hash (UTF-8); ``Sources/CaffeProtocol/ShardAssignment.swift`` is the same function, and
both test the same ids. Going from n to n + 1 shards moves only the sources the new shard takes.
"""

from __future__ import annotations

MAXIMUM_SHARDS = 4096
_MASK = (1 << 64) - 1


def fnv1a(text: str) -> int:
    """64-bit FNV-1a of the UTF-8 bytes of ``text``."""
    value = 0xCBF29CE484222325
    for byte in text.encode("utf-8"):
        value ^= byte
        value = (value * 0x100000001B3) & _MASK
    return value


def jump(key: int, buckets: int) -> int:
    """Jump consistent hash: the bucket of the 64-bit ``key`` among ``buckets``."""
    bucket, following = -1, 0
    while following < buckets:
        bucket = following
        key = (key * 2862933555777941757 + 1) & _MASK
        following = int((bucket + 1) * (float(1 << 31) / float((key >> 33) + 1)))
    return bucket


def shard_of(source_id: str, shards: int) -> int:
    """The shard, from 0, that owns ``source_id`` among ``shards`` (1 to 4096)."""
    if not 1 <= shards <= MAXIMUM_SHARDS:
        raise ValueError(f"a fleet has 1 to {MAXIMUM_SHARDS} shards, not {shards}")
    return jump(fnv1a(source_id), shards)
