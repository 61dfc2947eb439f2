"""shard_of agrees with the workers' ShardAssignment (Tests/CaffeProtocolTests/ShardAssignmentTests.swift)."""

from __future__ import annotations

import pytest

from caffe_client.shards import fnv1a, jump, shard_of

from helpers import wire_shard_table


def test_fnv1a_reference_vectors():
    assert fnv1a("") == 0xCBF29CE484222325
    assert fnv1a("a") == 0xAF63DC4C8601EC8C
    assert fnv1a("foobar") == 0x85944171F73967E8


def test_jump_published_values():
    assert [jump(256, 1024), jump(0, 60), jump(1, 60), jump(2, 60)] == [520, 0, 55, 46]


@pytest.mark.parametrize(
    "source, shards, expected",
    [("pos-1", 3, 1), ("pos-1", 4, 1), ("store-mx-cdmx", 3, 2), ("store-mx-cdmx", 4, 2), ("kiosk-ñ-7", 5, 0), ("", 2, 1)],
)
def test_the_same_shards_as_the_workers(source, shards, expected):
    assert shard_of(source, shards) == expected


def test_three_to_four_moves_only_what_the_new_shard_takes():
    moved = [s for s in (f"pos-{n}" for n in range(12000)) if shard_of(s, 3) != shard_of(s, 4)]
    assert all(shard_of(s, 4) == 3 for s in moved)
    assert 2700 <= len(moved) <= 3300


@pytest.mark.parametrize("shards", [0, 4097])
def test_out_of_range(shards):
    with pytest.raises(ValueError):
        shard_of("pos-1", shards)


def test_the_table_wire_md_publishes():
    counts, rows = wire_shard_table()
    assert counts == [2, 3, 4, 10, 100, 4096] and len(rows) >= 20
    for source, hash_value, shards in rows:
        assert fnv1a(source) == hash_value, source
        assert [shard_of(source, count) for count in counts] == shards, source
