"""Statistics over seeds: confidence intervals of a mean, paired tests, effect sizes, Holm's correction.

NumPy only; SciPy, when installed, gives the Wilcoxon signed-rank test.
Every random draw comes from a generator seeded by the caller, so a table
of intervals is the same each time it is made.
"""

from __future__ import annotations

import math

import numpy as np

#: Interval rules of :func:`mean_interval`.
INTERVALS = ("percentile", "bca", "t")
#: Paired tests of :func:`paired_test` ("auto": Wilcoxon with SciPy, else sign-flip).
TESTS = ("auto", "wilcoxon", "sign-flip")
#: Sign patterns enumerated outright up to this many pairs (2**16 patterns); a Monte-Carlo sample beyond.
EXACT_SIGN_FLIP_PAIRS = 16
SIGN_FLIP_DRAWS = 20_000


def _t_two_sided_mass(t: float, dof: int) -> float:
    """P(|T| < t) for Student's t with a whole number of degrees of freedom (t >= 0).

    The finite series in cos(theta), theta = atan(t / sqrt(dof)), one for
    odd and one for even degrees of freedom.
    """
    theta = math.atan(t / math.sqrt(dof))
    sin, cos2 = math.sin(theta), math.cos(theta) ** 2
    if dof % 2:  # odd
        if dof == 1:
            return 2 * theta / math.pi
        term = total = math.cos(theta)
        for k in range(3, dof - 1, 2):  # cos, 2/3 cos^3, 2*4/(3*5) cos^5, ... up to cos^(dof-2)
            term *= cos2 * (k - 1) / k
            total += term
        return 2 / math.pi * (theta + sin * total)
    term = total = 1.0
    for k in range(2, dof - 1, 2):  # 1, 1/2 cos^2, 1*3/(2*4) cos^4, ... up to cos^(dof-2)
        term *= cos2 * (k - 1) / k
        total += term
    return sin * total


def t_quantile(probability: float, dof: int) -> float:
    """The ``probability`` quantile of Student's t with ``dof`` (whole, >= 1) degrees of freedom."""
    if not 0.0 < probability < 1.0:
        raise ValueError(f"probability is {probability}; must be in (0, 1)")
    if int(dof) != dof or dof < 1:
        raise ValueError(f"dof is {dof}; must be a whole number >= 1")
    dof = int(dof)
    mass = abs(2 * probability - 1)  # P(|T| < q)
    low, high = 0.0, 1.0
    while _t_two_sided_mass(high, dof) < mass:
        high *= 2
    for _ in range(200):  # bisection to the last bit
        middle = 0.5 * (low + high)
        if middle in (low, high):
            break
        if _t_two_sided_mass(middle, dof) < mass:
            low = middle
        else:
            high = middle
    return math.copysign(0.5 * (low + high), probability - 0.5)


def _normal_quantile(probability: float) -> float:
    """The standard normal quantile."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(probability)


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))


def bootstrap_means(values: np.ndarray, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The means of ``resamples`` resamples (with replacement, same size) of ``values``."""
    picks = rng.integers(0, len(values), size=(resamples, len(values)))
    return values[picks].mean(axis=1)


def mean_interval(values, *, confidence: float = 0.95, interval: str = "percentile", resamples: int = 9999,
                  random_seed: int = 0) -> tuple[float, float]:
    """A two-sided ``confidence`` interval of the mean of ``values`` (one value per seed).

    ``"percentile"``: the quantiles of the means of ``resamples`` bootstrap
    resamples; ``"bca"``: those quantiles corrected for bias and skew
    (Efron's BCa, acceleration from the jackknife); ``"t"``: Student's t,
    ``mean +- t(n-1) s / sqrt(n)``. NaN with fewer than two values; both
    ends equal the mean when every value is the same.
    """
    values = np.asarray(values, dtype=float)
    n = len(values)
    if n < 2 or not np.all(np.isfinite(values)):
        return math.nan, math.nan
    mean = float(values.mean())
    alpha = 1 - confidence
    if interval == "t":
        half = t_quantile(1 - alpha / 2, n - 1) * float(values.std(ddof=1)) / math.sqrt(n)
        return mean - half, mean + half
    if np.all(values == values[0]):
        return mean, mean
    means = bootstrap_means(values, resamples, np.random.default_rng(random_seed))
    levels = np.array([alpha / 2, 1 - alpha / 2])
    if interval == "bca":
        below = float(np.mean(means < mean)) + 0.5 * float(np.mean(means == mean))
        below = min(max(below, 1 / (resamples + 1)), resamples / (resamples + 1))
        bias = _normal_quantile(below)
        jackknife = (values.sum() - values) / (n - 1)
        spread = jackknife.mean() - jackknife
        denominator = 6 * float(np.sum(spread ** 2)) ** 1.5
        acceleration = float(np.sum(spread ** 3)) / denominator if denominator > 0 else 0.0
        z = np.array([_normal_quantile(p) for p in levels])
        levels = np.array([_normal_cdf(bias + (bias + zi) / (1 - acceleration * (bias + zi))) for zi in z])
    elif interval != "percentile":
        raise ValueError(f"interval is {interval!r}; must be one of {', '.join(map(repr, INTERVALS))}")
    low, high = np.quantile(means, levels)
    return float(low), float(high)


def seeds_for_half_width(std: float, half_width: float, *, confidence: float = 0.95, most: int = 100_000) -> float:
    """The fewest seeds (>= 2) whose Student's t interval has at most ``half_width``, given the seeds' ``std``.

    ``t(n-1) std / sqrt(n) <= half_width``; NaN when ``std`` is NaN, and
    ``most`` + 1 when even ``most`` seeds are not enough.
    """
    if not (math.isfinite(std) and half_width > 0):
        return math.nan
    if std == 0:
        return 2
    upper = 1 - (1 - confidence) / 2
    # Start from the normal approximation (a lower bound: t > z) and walk up.
    n = max(2, math.ceil((_normal_quantile(upper) * std / half_width) ** 2))
    while n <= most:
        if t_quantile(upper, n - 1) * std / math.sqrt(n) <= half_width:
            return n
        n += 1
    return most + 1


def sign_flip_p_value(differences, *, draws: int = SIGN_FLIP_DRAWS, random_seed: int = 0) -> tuple[float, str]:
    """Two-sided p-value of a zero mean of paired ``differences`` by flipping their signs.

    Under no difference each sign is as likely as its opposite. Up to
    :data:`EXACT_SIGN_FLIP_PAIRS` pairs every sign pattern is enumerated
    (exact); beyond, ``draws`` random patterns give ``(1 + hits) / (1 +
    draws)``. Returns the p-value and how it was found.
    """
    d = np.asarray(differences, dtype=float)
    n = len(d)
    if n == 0:
        return math.nan, "no pairs"
    observed = abs(d.sum())
    tolerance = 1e-12 * max(1.0, float(np.abs(d).sum()))
    if n <= EXACT_SIGN_FLIP_PAIRS:
        patterns = ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1) * 2 - 1
        sums = np.abs(patterns @ d)
        return float(np.mean(sums >= observed - tolerance)), f"exact over {2 ** n} sign patterns"
    rng = np.random.default_rng(random_seed)
    sums = np.abs(rng.choice([-1.0, 1.0], size=(draws, n)) @ d)
    hits = int(np.sum(sums >= observed - tolerance))
    return (1 + hits) / (1 + draws), f"Monte Carlo over {draws} sign patterns"


def have_scipy() -> bool:
    try:
        import scipy.stats  # noqa: F401
    except ImportError:
        return False
    return True


def wilcoxon_p_value(differences) -> float:
    """Two-sided p-value of the Wilcoxon signed-rank test (SciPy; zero differences dropped)."""
    import warnings

    from scipy import stats

    d = np.asarray(differences, dtype=float)
    if not np.any(d != 0):
        return 1.0  # no pair differs: nothing to test
    with warnings.catch_warnings():  # ties and few pairs: SciPy warns about its approximations
        warnings.simplefilter("ignore")
        return float(stats.wilcoxon(d, zero_method="wilcox", alternative="two-sided").pvalue)


def paired_test(differences, *, test: str = "auto", random_seed: int = 0) -> tuple[float, str]:
    """Two-sided p-value of no difference, and the test's name as reported."""
    if test not in TESTS:
        raise ValueError(f"test is {test!r}; must be one of {', '.join(map(repr, TESTS))}")
    if test == "auto":
        test = "wilcoxon" if have_scipy() else "sign-flip"
    d = np.asarray(differences, dtype=float)
    if len(d) == 0 or not np.all(np.isfinite(d)):
        return math.nan, test
    if test == "wilcoxon":
        if not have_scipy():
            raise ImportError('test="wilcoxon" needs SciPy: pip install "vosim[stats]" (or use test="sign-flip")')
        return wilcoxon_p_value(d), "Wilcoxon signed-rank"
    p, how = sign_flip_p_value(d, random_seed=random_seed)
    return p, f"sign-flip permutation ({how})"


def cohens_dz(differences) -> float:
    """Cohen's d_z: the mean paired difference over the differences' standard deviation.

    0 when every difference is 0; +-inf when they are all the same non-zero value.
    """
    d = np.asarray(differences, dtype=float)
    if len(d) < 2 or not np.all(np.isfinite(d)):
        return math.nan
    mean, std = float(d.mean()), float(d.std(ddof=1))
    if std == 0:
        return 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean / std


def _ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, ties given their mean rank."""
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values))
    sorted_values = values[order]
    start = 0
    for end in range(1, len(values) + 1):
        if end == len(values) or sorted_values[end] != sorted_values[start]:
            ranks[order[start:end]] = 0.5 * (start + end - 1) + 1
            start = end
    return ranks


def rank_biserial(differences) -> float:
    """The matched-pairs rank-biserial correlation: (R+ - R-) / (R+ + R-) over the non-zero differences' ranks."""
    d = np.asarray(differences, dtype=float)
    d = d[d != 0]
    if not len(d) or not np.all(np.isfinite(d)):
        return 0.0 if len(d) == 0 else math.nan
    ranks = _ranks(np.abs(d))
    return float((ranks[d > 0].sum() - ranks[d < 0].sum()) / ranks.sum())


def holm(p_values) -> np.ndarray:
    """Holm–Bonferroni adjusted p-values (NaN stays NaN and does not count in the family).

    The k-th smallest of m p-values is multiplied by ``m - k + 1`` (k from
    1), made non-decreasing in that order, and capped at 1; rejecting where
    the adjusted value is below alpha controls the family-wise error rate.
    """
    p = np.asarray(p_values, dtype=float)
    adjusted = np.full(p.shape, np.nan)
    present = np.flatnonzero(np.isfinite(p))
    m = len(present)
    order = present[np.argsort(p[present], kind="stable")]
    running = 0.0
    for k, index in enumerate(order):
        running = max(running, min(1.0, (m - k) * p[index]))
        adjusted[index] = running
    return adjusted
