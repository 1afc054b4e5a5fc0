"""Statistics over seeds: intervals against a brute-force bootstrap, paired tests' error rates, Holm, seeds advice."""

import itertools
import math

import numpy as np
import pytest

from vosim.comparison import _statistics as st

# Student's t quantiles from printed tables (two-sided 95 % and 99 %).
T_TABLE = {(0.975, 1): 12.7062, (0.975, 4): 2.7764, (0.975, 9): 2.2622, (0.975, 29): 2.0452,
           (0.995, 2): 9.9248, (0.995, 10): 3.1693, (0.975, 120): 1.9799}


@pytest.mark.parametrize("key", sorted(T_TABLE))
def test_t_quantiles_match_the_printed_table(key):
    probability, dof = key
    assert st.t_quantile(probability, dof) == pytest.approx(T_TABLE[key], abs=1e-4)
    assert st.t_quantile(1 - probability, dof) == pytest.approx(-T_TABLE[key], abs=1e-4)


def test_t_quantiles_match_scipy_to_round_off():
    stats = pytest.importorskip("scipy.stats")
    for dof in [1, 2, 3, 5, 8, 13, 21, 34, 55]:
        for p in (0.6, 0.9, 0.975, 0.999):
            assert st.t_quantile(p, dof) == pytest.approx(stats.t.ppf(p, dof), rel=1e-10)


def _exact_bootstrap_quantiles(values, levels):
    """Quantiles of the means of every one of the n**n resamples (the bootstrap distribution itself)."""
    n = len(values)
    means = np.array([np.mean(values[list(picks)]) for picks in itertools.product(range(n), repeat=n)])
    return np.quantile(means, levels)


def test_percentile_interval_matches_the_exact_bootstrap_distribution():
    values = np.array([3.1, 4.7, 2.2, 5.9, 4.0, 3.3])  # 6**6 = 46,656 resamples enumerated
    exact = _exact_bootstrap_quantiles(values, [0.025, 0.975])
    low, high = st.mean_interval(values, interval="percentile", resamples=40_000, random_seed=3)
    width = exact[1] - exact[0]
    assert abs(low - exact[0]) < 0.02 * width and abs(high - exact[1]) < 0.02 * width
    # and a different seed of the resampling gives nearly the same interval, the same seed the same one
    again = st.mean_interval(values, interval="percentile", resamples=40_000, random_seed=3)
    assert again == (low, high)


def test_percentile_interval_matches_a_loop_of_resamples():
    rng = np.random.default_rng(11)
    values = rng.gamma(2.0, 3.0, size=15)  # skewed, as collision counts are
    loop = [np.mean(rng.choice(values, size=len(values), replace=True)) for _ in range(20_000)]
    expected = np.quantile(loop, [0.05, 0.95])
    low, high = st.mean_interval(values, confidence=0.90, interval="percentile", resamples=20_000)
    width = expected[1] - expected[0]
    assert abs(low - expected[0]) < 0.03 * width and abs(high - expected[1]) < 0.03 * width


def test_bca_interval_matches_scipy():
    stats = pytest.importorskip("scipy.stats")
    values = np.random.default_rng(5).gamma(1.5, 2.0, size=20)
    ours = st.mean_interval(values, interval="bca", resamples=20_000)
    theirs = stats.bootstrap((values,), np.mean, method="BCa", n_resamples=20_000, random_state=1).confidence_interval
    width = theirs.high - theirs.low
    assert abs(ours[0] - theirs.low) < 0.03 * width and abs(ours[1] - theirs.high) < 0.03 * width


def test_t_interval_is_the_textbook_formula_and_degenerate_cases_are_plain():
    values = np.array([10.0, 12.0, 11.0, 13.0, 9.0])
    half = 2.776445 * np.std(values, ddof=1) / math.sqrt(5)
    assert st.mean_interval(values, interval="t") == pytest.approx((11 - half, 11 + half), abs=1e-5)
    assert st.mean_interval([4.0, 4.0, 4.0]) == (4.0, 4.0)
    assert all(math.isnan(x) for x in st.mean_interval([1.0]))
    assert all(math.isnan(x) for x in st.mean_interval([1.0, np.nan, 2.0]))
    with pytest.raises(ValueError, match="interval is 'normal'"):
        st.mean_interval(values, interval="normal")


def _rejections(test, shift, draws, n=12, alpha=0.05):
    rng = np.random.default_rng(2024)
    found = 0
    for _ in range(draws):
        d = rng.normal(shift, 1.0, size=n)
        p, _ = st.paired_test(d, test=test)
        found += p < alpha
    return found / draws


@pytest.mark.parametrize("test", ["sign-flip", "wilcoxon"])
def test_paired_test_finds_a_real_difference_and_not_a_missing_one_at_the_stated_rates(test):
    if test == "wilcoxon":
        pytest.importorskip("scipy")
    # No difference: the false-positive rate is alpha (0.05), within the spread of 1000 draws.
    assert 0.03 <= _rejections(test, 0.0, 1000) <= 0.07
    # A difference of one standard deviation over 12 pairs: a t-test's power is 0.91;
    # these rank and permutation tests lose a little of it. Two-sided: either sign is found.
    assert _rejections(test, 1.0, 300) >= 0.8 and _rejections(test, -1.0, 300) >= 0.8


def test_sign_flip_is_exact_for_few_pairs_and_monte_carlo_beyond():
    p, how = st.sign_flip_p_value([1.0, 2.0, 3.0])
    assert p == pytest.approx(2 / 8) and how == "exact over 8 sign patterns"  # only all + or all - reach 6
    p, how = st.sign_flip_p_value(np.r_[np.ones(20), -np.ones(20)] + 0.01)
    assert how.startswith("Monte Carlo") and p > 0.5
    assert st.paired_test(np.zeros(5), test="sign-flip")[0] == 1.0
    with pytest.raises(ValueError, match="test is 't'"):
        st.paired_test([1.0, 2.0], test="t")


def test_effect_sizes():
    d = np.array([1.0, 2.0, 3.0, -1.0])
    assert st.cohens_dz(d) == pytest.approx(1.25 / np.std(d, ddof=1))
    # ranks of |d|: 1.5, 3, 4, 1.5 -> (3 + 4 + 1.5 - 1.5) / 10
    assert st.rank_biserial(d) == pytest.approx(0.7)
    assert st.rank_biserial([1.0, 2.0]) == 1.0 and st.rank_biserial([0.0, 0.0]) == 0.0
    assert st.cohens_dz([2.0, 2.0]) == math.inf and st.cohens_dz([0.0, 0.0]) == 0.0


def test_holm_adjusts_as_the_textbook_example():
    # sorted 0.01, 0.03, 0.04 -> 3 * 0.01, 2 * 0.03, max(0.06, 1 * 0.04): the adjusted values never decrease
    adjusted = st.holm([0.01, 0.04, 0.03, np.nan])
    np.testing.assert_allclose(adjusted[:3], [0.03, 0.06, 0.06])
    assert np.isnan(adjusted[3])
    assert list(st.holm([0.5, 0.9])) == [1.0, 1.0]


def test_holm_keeps_the_family_wise_error_rate():
    """Five true null hypotheses: without correction some p < 0.05 in ~23 % of the families; with Holm <= 5 %."""
    rng = np.random.default_rng(7)
    p = rng.uniform(size=(4000, 5))
    raw = np.mean((p < 0.05).any(axis=1))
    corrected = np.mean([(st.holm(row) < 0.05).any() for row in p])
    assert raw > 0.2 and corrected <= 0.055


def test_seeds_advice_gives_the_intervals_asked_for_in_simulation():
    sigma, target = 2.0, 0.5
    n = st.seeds_for_half_width(sigma, target)
    # the fewest: one seed fewer is too wide, with the true spread
    assert st.t_quantile(0.975, n - 1) * sigma / math.sqrt(n) <= target
    assert st.t_quantile(0.975, n - 2) * sigma / math.sqrt(n - 1) > target
    rng = np.random.default_rng(1)
    runs = rng.normal(10.0, sigma, size=(3000, n))
    half = st.t_quantile(0.975, n - 1) * runs.std(axis=1, ddof=1) / math.sqrt(n)
    assert 0.95 * target <= half.mean() <= target
    covered = np.mean(np.abs(runs.mean(axis=1) - 10.0) <= half)
    assert 0.94 <= covered <= 0.96
    # from a pilot of 10 seeds, the advice is right on the median, spread by the pilot's own noise
    pilots = rng.normal(10.0, sigma, size=(400, 10))
    advice = [st.seeds_for_half_width(float(p.std(ddof=1)), target) for p in pilots]
    assert 0.8 * n <= np.median(advice) <= 1.1 * n
    assert st.seeds_for_half_width(0.0, 0.1) == 2 and math.isnan(st.seeds_for_half_width(np.nan, 0.1))
