import pytest
from hypothesis import HealthCheck, settings

import vosim

settings.register_profile("ci", max_examples=100, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=2_000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# The default; `pytest --hypothesis-profile=long` picks the long one.
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _restore_threads():
    """Tests that change the thread count must not leak it into others."""
    before = vosim.get_num_threads()
    yield
    vosim.set_num_threads(before)
