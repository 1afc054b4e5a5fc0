import pytest
from hypothesis import HealthCheck, settings

import vosim

# Examples per property test. tests/api/test_fuzz.py holds ten of them, so the
# ci profile runs 2,500 fuzz examples in all and the long one 12,000.
settings.register_profile("ci", max_examples=250, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", max_examples=1_200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
# The default; `pytest --hypothesis-profile=long` picks the long one.
settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _restore_threads():
    """Tests that change the thread count must not leak it into others."""
    before = vosim.get_num_threads()
    yield
    vosim.set_num_threads(before)
