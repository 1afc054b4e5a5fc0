"""Comparison tables with their uncertainty: summarize's intervals, paired differences, seeds advice, seeds="auto"."""

import math
import warnings

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import vosim  # noqa: E402
from vosim.comparison import _statistics as st  # noqa: E402
from vosim import comparison  # noqa: E402


def _table(shift=1.0, seeds=10, shuffle=False):
    """A table laid out as vosim.compare's: B is A plus ``shift`` on every seed; C is A plus noise of no mean."""
    rng = np.random.default_rng(4)
    rows = []
    for scenario in ("crossing", "bottleneck"):
        base = rng.normal(20.0, 3.0, size=seeds)
        noise = np.where(np.arange(seeds) % 2, 0.01, -0.01)  # no net difference
        for method, makespan in (("A", base), ("B", base + shift + rng.normal(0, 0.1, seeds)), ("C", base + noise)):
            for seed in range(seeds):
                rows.append(dict(method=method, scenario=scenario, seed=seed, agents=8, steps_run=200,
                                 makespan=float(makespan[seed]), arrival_rate=1.0,
                                 collision_agent_steps=float(rng.integers(0, 20)), mean_speed=rng.normal(1.2, 0.05)))
    table = pd.DataFrame(rows)
    return table.sample(frac=1.0, random_state=2).reset_index(drop=True) if shuffle else table


def test_summarize_without_interval_is_unchanged():
    table = _table()
    summary = comparison.summarize(table)
    assert list(summary.columns) == ["arrival_rate", "finished", "makespan", "collision_agent_steps", "mean_speed"]
    expected = table[(table.method == "B") & (table.scenario == "bottleneck")]["makespan"].mean()
    assert summary.loc[("bottleneck", "B"), "makespan"] == pytest.approx(expected)


def test_summarize_reports_clearance_and_collision_pairs_by_default():
    # The safety columns a reader compares first; a summary that left them out
    # (before this release) showed only the collision count.
    table = _table()
    table["collision_pairs"] = 2.0
    table["min_clearance"] = -0.05
    table["max_penetration"] = 0.05
    summary = comparison.summarize(table)
    assert list(summary.columns) == ["arrival_rate", "finished", "makespan", "collision_agent_steps",
                                     "collision_pairs", "max_penetration", "min_clearance", "mean_speed"]
    assert summary.loc[("crossing", "A"), "min_clearance"] == pytest.approx(-0.05)


def test_summarize_gives_mean_interval_spread_and_counts():
    table = _table()
    table.loc[(table.method == "C") & (table.scenario == "crossing") & (table.seed == 3), "makespan"] = np.nan
    summary = comparison.summarize(table, interval="percentile", resamples=4000, random_seed=9)
    assert list(summary.columns) == ["mean", "ci_low", "ci_high", "std", "min", "max", "n_seeds", "n_values",
                                     "n_finished"]
    values = table[(table.method == "B") & (table.scenario == "crossing")]["makespan"].to_numpy()
    row = summary.loc[("crossing", "B", "makespan")]
    assert row["mean"] == pytest.approx(values.mean()) and row["std"] == pytest.approx(values.std(ddof=1))
    assert (row["min"], row["max"], row["n_seeds"], row["n_finished"]) == (values.min(), values.max(), 10, 10)
    # the interval is the bootstrap's: quantiles of the means of resampled seeds
    rng = np.random.default_rng(0)
    loop = [rng.choice(values, size=len(values)).mean() for _ in range(20_000)]
    low, high = np.quantile(loop, [0.025, 0.975])
    assert abs(row["ci_low"] - low) < 0.05 * (high - low) and abs(row["ci_high"] - high) < 0.05 * (high - low)
    # a seed without a makespan: no mean over the others, and the counts say why
    unfinished = summary.loc[("crossing", "C", "makespan")]
    assert np.isnan(unfinished[["mean", "ci_low", "ci_high", "std", "min", "max"]].astype(float)).all()
    assert (unfinished["n_seeds"], unfinished["n_values"], unfinished["n_finished"]) == (10, 9, 9)
    # reproducible: the same table gives the same intervals
    pd.testing.assert_frame_equal(summary, comparison.summarize(table, interval="percentile", resamples=4000,
                                                                random_seed=9))
    assert "4000 resamples" in summary.attrs["interval"]["description"]
    t = comparison.summarize(table, ["makespan"], interval="t").loc[("crossing", "B", "makespan")]
    half = st.t_quantile(0.975, 9) * values.std(ddof=1) / math.sqrt(10)
    assert (t["ci_low"], t["ci_high"]) == pytest.approx((values.mean() - half, values.mean() + half))


def test_summarize_checks_its_arguments():
    table = _table()
    with pytest.raises(ValueError, match="interval is 'wide'"):
        comparison.summarize(table, interval="wide")
    with pytest.raises(ValueError, match="confidence is 1.0; must be < 1"):
        comparison.summarize(table, interval="t", confidence=1.0)
    with pytest.raises(ValueError, match=r"columns\[0\] is 'speed'; the table has no such column"):
        comparison.summarize(table, ["speed"], interval="t")


def test_paired_pairs_by_seed_and_finds_the_shift_but_not_the_noise():
    table = _table(shuffle=True)  # rows in any order: pairs are made by seed
    result = comparison.paired(table, "A", ["makespan", "mean_speed"], test="sign-flip")
    b = result.loc[("crossing", "makespan", "B")]
    by_seed = table[table.scenario == "crossing"].pivot(index="seed", columns="method", values="makespan")
    assert b["mean_difference"] == pytest.approx((by_seed["B"] - by_seed["A"]).mean())
    assert b["ci_low"] > 0.8 and b["ci_high"] < 1.2 and b["significant"] and b["n_pairs"] == 10
    c = result.loc[("crossing", "makespan", "C")]
    assert not c["significant"] and c["ci_low"] < 0 < c["ci_high"] and c["p_value"] > 0.5
    assert b["test"].startswith("sign-flip permutation (exact over 1024")
    assert "Holm" in result.attrs["correction_description"]


def test_paired_corrects_each_family_with_holm():
    table = _table(shift=0.3)
    result = comparison.paired(table, "A", test="sign-flip")
    for (scenario, metric), family in result.groupby(level=["scenario", "metric"]):
        np.testing.assert_allclose(family["p_adjusted"], st.holm(family["p_value"]))
        assert (family["significant"] == (family["p_adjusted"] < 0.05)).all()
    plain = comparison.paired(table, "A", test="sign-flip", correction="none")
    np.testing.assert_allclose(plain["p_adjusted"], plain["p_value"])
    assert (plain["p_adjusted"] <= result["p_adjusted"]).all() and (plain["p_adjusted"] < result["p_adjusted"]).any()


def test_paired_leaves_undefined_metrics_untested_and_checks_its_arguments():
    table = _table()
    table.loc[(table.method == "B") & (table.seed == 0), "makespan"] = np.nan
    row = comparison.paired(table, "A", ["makespan"]).loc[("crossing", "makespan", "B")]
    assert np.isnan(row["mean_difference"]) and row["test"].startswith("not tested") and not row["significant"]
    with pytest.raises(ValueError, match="baseline is 'ORCA'; the table's methods are 'A', 'B', 'C'"):
        comparison.paired(table, "ORCA")
    with pytest.raises(ValueError, match="correction is 'bonferroni'"):
        comparison.paired(table, "A", correction="bonferroni")
    with pytest.raises(ValueError, match="nothing to compare it with"):
        comparison.paired(table[table.method == "A"], "A")


def test_seeds_needed_is_the_t_rule_on_the_pilots_spread():
    table = _table()
    advice = comparison.seeds_needed(table, {"makespan": 1.0, "mean_speed": 0.02})
    values = table[(table.method == "A") & (table.scenario == "bottleneck")]["makespan"].to_numpy()
    row = advice.loc[("bottleneck", "A", "makespan")]
    assert row["seeds_needed"] == st.seeds_for_half_width(values.std(ddof=1), 1.0)
    assert row["n_seeds"] == 10 and row["target"] == 1.0
    relative = comparison.seeds_needed(table, {"makespan": 0.05}, relative=True).loc[("bottleneck", "A", "makespan")]
    assert relative["target"] == pytest.approx(0.05 * abs(values.mean()))
    with pytest.raises(ValueError, match=r"precision\['makespan'\] is -1"):
        comparison.seeds_needed(table, {"makespan": -1})
    with pytest.raises(TypeError, match="precision: expected a half-width"):
        comparison.seeds_needed(table, "tight")
    with pytest.raises(ValueError, match=r"precision\['speed'\]: the table has no such column"):
        comparison.seeds_needed(table, {"speed": 0.1})


def test_compare_auto_adds_seeds_in_rounds_until_the_intervals_are_tight():
    methods = {"ORCA": vosim.ORCA(), "RVO": vosim.RVO(samples=40)}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no cap reached here
        table = vosim.compare(methods, ["headon_pair"], seeds="auto", precision={"makespan": 0.2}, pilot_seeds=3,
                              max_seeds=12, steps=150)
    rounds = table.attrs["inputs"]["seed_rounds"]
    assert rounds[0] == [0, 1, 2] and len(rounds) >= 2
    seeds = [s for r in rounds for s in r]
    assert seeds == list(range(len(seeds))) and len(seeds) <= 12
    assert list(table[table.method == "RVO"]["seed"]) == seeds  # rows in seed order, methods in turn
    advice = comparison.seeds_needed(table, {"makespan": 0.2})
    assert (advice["seeds_needed"] <= len(seeds)).all()
    # a later round's rows are those of compare on its seeds alone (one Batch per round)
    alone = vosim.compare(methods, ["headon_pair"], seeds=rounds[1], steps=150)
    mine = table[table.seed.isin(rounds[1])].reset_index(drop=True)
    columns = [c for c in alone.columns if not c.startswith("time_")]
    pd.testing.assert_frame_equal(mine[columns], alone[columns])
    with pytest.warns(RuntimeWarning, match="stopped at max_seeds=3"):
        capped = vosim.compare(methods, ["headon_pair"], seeds="auto", precision={"makespan": 0.01}, pilot_seeds=3,
                               max_seeds=3, steps=150)
    assert capped.attrs["inputs"]["seed_rounds"] == [[0, 1, 2]]
    with pytest.raises(ValueError, match='precision: seeds="auto" needs'):
        vosim.compare(methods, ["headon_pair"], seeds="auto")
    with pytest.raises(ValueError, match=r"precision\['speed'\]: not a metric of the table"):
        vosim.compare(methods, ["headon_pair"], seeds="auto", precision={"speed": 0.1})
    with pytest.raises(ValueError, match='precision: only with seeds="auto"'):
        vosim.compare(methods, ["headon_pair"], seeds=2, precision=0.1)


@pytest.mark.parametrize("method, guaranteed", [
    (vosim.ORCA(), True), (vosim.AVO(), True), (vosim.HRVO(), True),
    (vosim.HRVO(hrvo_apex="library"), False), (vosim.HRVO(selection="sampling"), False),
    (vosim.RVO(), False), (vosim.VO(selection="geometric"), False), (vosim.AdaptiveSampling(), False),
    (vosim.ForceBased(), False), (vosim.AVO(variant="avo2"), False),
])
def test_collision_guarantee_is_stated_once_per_method_and_setting(method, guaranteed):
    from vosim.methods import collision_guarantee, no_guarantee_reason

    assert (collision_guarantee(method) is not None) == guaranteed
    assert (no_guarantee_reason(method) is None) == guaranteed
    if not guaranteed:
        assert no_guarantee_reason(method).startswith("none")


def test_the_guides_table_of_guarantees_is_the_packages():
    """docs/guide/comparing_methods.md lists each method's guarantee as vosim.methods states it."""
    import pathlib
    import re

    from vosim.methods import collision_guarantee, no_guarantee_reason

    guide = pathlib.Path(__file__).resolve().parents[2] / "docs" / "guide" / "comparing_methods.md"
    rows = re.findall(r"^\| `vosim\.(\w+)\((.*?)\)` \| (yes, conditional|no) \| (.+) \|$", guide.read_text(), re.M)
    assert len(rows) >= len(vosim.methods.METHODS) - 1  # every method in the plane at its defaults, and variants
    named = {name for name, _, _, _ in rows}
    assert named >= {"ORCA", "AVO", "HRVO", "RVO", "VO", "AdaptiveSampling", "GridSampling", "ForceBased",
                     "SocialForce", "CollisionFreeSpeed"}
    for name, arguments, verdict, statement in rows:
        settings = dict(re.findall(r'(\w+)="(\w+)"', arguments))
        method = vosim.methods.METHODS[name](**settings)
        assert (verdict == "yes, conditional") == (collision_guarantee(method) is not None), name
        assert statement == (collision_guarantee(method) or no_guarantee_reason(method)), (name, settings)
