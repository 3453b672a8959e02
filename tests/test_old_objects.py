"""What a build makes goes to the collector's oldest generation (kg/builder/old_objects.py),
not to a young one that the next allocation after the build collects whole."""

from __future__ import annotations

import gc

from kg.builder.old_objects import collector_paused_kept_old


def test_what_was_made_while_paused_is_old_when_the_collector_is_on_again():
    gc.collect()
    with collector_paused_kept_old():
        kept = [[i] for i in range(50_000)]  # made while paused
    assert gc.isenabled()
    young = len(gc.get_objects(generation=0)) + len(gc.get_objects(generation=1))
    assert young < 20_000  # the 50,000 lists went to the oldest generation
    assert len(kept) == 50_000


def test_objects_a_caller_froze_stay_frozen():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused_kept_old():
            made = [[i] for i in range(1000)]
        assert gc.get_freeze_count() == frozen
        assert gc.isenabled() and len(made) == 1000
    finally:
        gc.unfreeze()


def test_the_collector_stays_off_where_the_caller_turned_it_off():
    gc.disable()
    try:
        with collector_paused_kept_old():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
