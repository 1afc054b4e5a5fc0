"""The engine's hub files name scene features no more often than they do now (``tools/hub_mentions.py``).

A ratchet: a change that teaches a hub about a feature again fails here; one that moves a feature
out of the hubs lowers the bound with it. The counter itself is checked on a made-up file.
"""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOUND = 16  # python tools/hub_mentions.py, total


def _counter():
    spec = importlib.util.spec_from_file_location("hub_mentions", ROOT / "tools" / "hub_mentions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_counter_counts_each_feature_word_once(tmp_path):
    sample = tmp_path / "hub.cpp"
    sample.write_text("add_sink(); sinks_; SpeedZone zone; speed_zones; Periodic p; waypoints_remaining(); other\n")
    assert _counter().mentions(sample) == 6


def test_the_hubs_name_features_no_more_than_the_bound():
    counter = _counter()
    total = sum(counter.mentions(ROOT / name) for name in counter.HUBS)
    assert total <= BOUND, f"the hub files name scene features {total} times (bound {BOUND}): python tools/hub_mentions.py"
