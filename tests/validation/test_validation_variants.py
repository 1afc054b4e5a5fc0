"""Every test of ``vosim validate`` fails on a deliberately broken variant of its scene.

A verdict is worth as much as its ability to fail. For each test in
``validation.TESTS`` this file names the broken variant that must fail it
(``validation.broken``: no avoidance, speeds halved, walls left out, waiting
persons that walk off, stairs at the level speed, exits that never close)
and, where a method passes the same small set-up intact, that method: then
the variant, not the set-up, is what fails. Set-ups are small (few persons,
short runs) so that the whole file stays fast.
"""

import pytest

import vosim
from vosim import validation
from vosim.validation import TestResult

#: test id -> (options for a small set-up, the variant that must fail it, a method that passes it intact or None)
CASES = {
    "1": ({}, "half_speed", "orca"),
    "2": ({}, "flat_stairs", "orca"),
    "3": ({}, "flat_stairs", "orca"),
    "4": (dict(densities=(0.5,), length=20.0, width=4.0, start=4.0, duration=4.0, equal_speeds=False),
          "half_speed", "orca"),
    "5": (dict(agents=6, earliest=5.0, latest=15.0), "no_waiting", "csm"),
    "6": (dict(persons=6), "no_walls", "orca"),
    "7": (dict(per_group=3), "half_speed", "orca"),
    "8": (dict(variations=[("base", {}), ("pre-movement 0-30 s", {"premovement": 30.0})], seeds=(0,)),
          "no_waiting", "orca"),
    # At 40 persons no door queue forms, so no method doubles its time reliably (seeds 0-4: ORCA and
    # CSM pass 1 of 5, SocialForce 0): the variant alone; the full-size verdicts are docs/validation.md's.
    "9": (dict(persons=40, seconds=200.0), "no_avoidance", None),
    "10": ({}, "no_walls", "orca"),
    "11": (dict(persons=30, seconds=200.0), "no_avoidance", "orca"),
    "12": (dict(persons=30), "no_walls", "orca"),
    "13": (dict(persons=30), "flat_stairs", "csm"),
    "14": (dict(persons=4), "no_walls", "orca"),
    "15": (dict(persons=40), "no_walls", "orca"),
    # No method passes RiMEA 16 bin by bin yet (test_rimea_16_judges_each_density_bin): the variant alone.
    "16": (dict(persons=(20, 34, 48), seconds=40.0, warmup=10.0), "no_avoidance", None),
    "overlap": (dict(agents=20, seconds=30.0), "no_avoidance", "csm"),
    "imo4": (dict(persons=30), "no_avoidance", "orca"),
    # Counter-flow must cost time; a crowd that walks through the other passes no slower.
    "imo8": (dict(persons=20, counterflows=(0, 20)), "no_avoidance", None),
    "iso7": (dict(faster=3), "no_avoidance", "orca"),
    "iso9": (dict(persons=20), "exits_never_close", "orca"),
    # No method meets the stair flow yet at this size; bodies walking through each other exceed it further.
    "iso12": (dict(persons=30), "no_avoidance", None),
    "bottleneck": (dict(persons=40), "no_walls", None),
}


def test_every_validate_test_has_a_broken_variant_that_must_fail_it():
    assert set(CASES) == set(validation.TESTS)
    assert {variant for _, variant, _ in CASES.values()} == set(validation.VARIANTS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_broken_variant_fails_the_test(name):
    options, variant, method = CASES[name]
    test = validation.TESTS[name]
    with validation.broken(variant):
        result = test(method or "orca", **options)
    assert not result.passed, f"{name} passed on {variant}: {result.summary}"
    if method is not None:
        intact = test(method, **options)
        assert intact.passed, f"{name} failed intact with {method}: {intact.summary}"


def test_rimea_16_judges_each_density_bin():
    # ORCA's headway rule walks single file like people at middle densities but at the free speed at
    # low ones: 75 % of its samples in the band pooled, none in the lowest bins.
    result = validation.rimea_16(vosim.ORCA(time_gap=0.5), persons=(20, 34, 48), seconds=40.0, warmup=10.0)
    bins = result.measured["bins"]
    assert result.measured["share_inside"] > 0.5  # pooled, it would pass
    assert min(b["share_inside"] for b in bins) < 0.5 and max(b["share_inside"] for b in bins) > 0.9
    assert not result.passed


def test_iso_7_starts_the_faster_ones_in_the_slow_ones_lane():
    result = validation.iso_7("orca", faster=4, seed=3)
    first = result.data["trajectory"].positions[0]
    assert abs(first[0, 1] - 1.0) < 1e-12
    assert all(abs(y - 1.0) <= validation._overtaking.LANE_OFFSET_7 for y in first[1:, 1])


def test_rimea_5_walker_is_aimed_at_a_waiting_person_and_shoves_are_reported():
    result = validation.rimea_5("orca", agents=4, earliest=5.0, latest=15.0)
    traj = result.data["trajectory"]
    aimed, walker = traj.positions[0, -2], traj.positions[0, -1]
    assert aimed[1] == walker[1] and result.data["start_time"][-1] == 0.0
    # The walker's straight way runs through the waiting person; ORCA's waiting agents give way to it.
    assert result.measured["largest_shove_m"] >= 0.1 and not result.passed
    quiet = validation.rimea_5("orca", agents=4, earliest=5.0, latest=15.0, walker=False)
    assert quiet.measured["largest_shove_m"] < result.measured["largest_shove_m"]


def test_rimea_4_judges_spread_speeds_and_reports_equal_ones_beside():
    result = validation.rimea_4("orca", densities=(0.5,), length=20.0, width=4.0, start=4.0, duration=4.0)
    assert "N(1.34, 0.26)" in result.criterion
    assert set(result.measured["equal_speed"]) == {"density", "speed", "passed"}
    assert "equal speeds" in result.summary


def _alternating(method, *, seed=0):
    """A test that passes on even seeds: to count k of n."""
    return TestResult("T", "alternating", "m", {"seed": seed}, "even seed", seed % 2 == 0, f"seed {seed}")


def test_a_verdict_counts_the_seeds_that_pass_and_applies_its_rule():
    three = validation.verdict(_alternating, "orca", seeds=5)  # seeds 0, 2, 4 pass
    assert (three.passes, three.seeds, three.passed) == (3, 5, False)
    assert three.verdict == "fail 3/5" and "pass if k >= 4 of 5 seeds pass" in three.criterion
    assert validation.verdict(_alternating, "orca", seeds=5, pass_mark=3).passed
    assert "| T alternating | **FAIL** 3/5: seed 0 (seed 0) |" in validation.table([three])
    assert [m["seed"] for m in three.measured["per_seed"]] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError, match="pass_mark"):
        validation.verdict(_alternating, "orca", seeds=3, pass_mark=4)
    with pytest.raises(ValueError, match="seed"):
        validation.verdict(_alternating, "orca", seed=1)


def test_verdicts_over_seeds_catch_a_broken_variant_in_every_seed():
    intact = validation.verdict(validation.rimea_1, "orca")
    broken = validation.verdict(validation.rimea_1, "orca", variant="half_speed")
    assert intact.verdict == "pass 5/5" and broken.verdict == "fail 0/5"
    assert validation.active_variant() is None  # the variant ends with the verdict


def test_unknown_variants_are_refused_by_name():
    with pytest.raises(ValueError, match="variant: unknown variant 'slow'"):
        with validation.broken("slow"):
            pass
    with pytest.raises(TypeError, match="variant"):
        with validation.broken(3):
            pass


def test_vosim_validate_reports_k_of_n_and_runs_a_broken_variant(capsys):
    from vosim.cli import main

    assert main(["validate", "--tests", "1", "--seeds", "2"]) == 0
    out = capsys.readouterr().out
    assert "| RiMEA 1 corridor 40 m at 1.33 m/s | pass 2/2: 30.1 s (seed 0) |" in out
    assert "pass if k >= 2 of 2 seeds pass" in out
    assert main(["validate", "--tests", "1", "--seeds", "2", "--variant", "half_speed"]) == 1
    out = capsys.readouterr().out
    assert "broken variant half_speed" in out and "**FAIL** 0/2" in out


def test_the_social_force_model_runs_at_its_resolved_step():
    assert validation.time_step_of("sfm") == validation.METHOD_TIME_STEPS["SocialForce"] < validation.TIME_STEP
    assert validation.time_step_of("orca") == validation.TIME_STEP
    result = validation.rimea_1("sfm")
    traj = result.data["trajectory"]
    # Frames stay 0.1 s apart whatever the step, so every test measures the same frames.
    assert traj.times[1] - traj.times[0] == pytest.approx(validation.TIME_STEP)
    assert result.passed
