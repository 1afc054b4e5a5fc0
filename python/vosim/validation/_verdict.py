"""A test's verdict over several seeds: k of n seeds pass, and the rule that turns k into pass or fail."""

from __future__ import annotations

import dataclasses

from .._checks import integer
from ._pedestrians import method_label, method_of
from ._result import TestResult
from ._variants import broken

#: Every verdict of ``vosim validate`` runs each test with this many seeds (0 to SEEDS - 1) ...
SEEDS = 5
#: ... and passes when at least this many of them pass.
PASS_MARK = 4


def rule(seeds: int = SEEDS, pass_mark: int = PASS_MARK) -> str:
    """The verdict's rule in words: ``"pass if k >= 4 of 5 seeds pass"``."""
    return f"pass if k >= {pass_mark} of {seeds} seeds pass"


def verdict(test, method="orca", *, seeds: int = SEEDS, pass_mark: int = PASS_MARK, variant: str | None = None,
            **options) -> TestResult:
    """Run ``test`` (a test function, e.g. ``validation.rimea_6``) with seeds 0 to ``seeds - 1``.

    Each seed places the persons (and draws whatever else the test draws)
    anew and seeds the method's own random draws (``method.seed``), so a
    method passes on what it does, not on one favourable set-up. The
    result passes when at least ``pass_mark`` seeds pass; its ``passes``
    and ``seeds`` say how many, its ``summary`` leads with ``k/n`` and
    shows seed 0's values, and ``measured["per_seed"]`` holds every seed's
    measured values. ``variant``: run on a broken variant of the scene
    (:data:`~vosim.validation.VARIANTS`). ``options`` go to the test.
    """
    seeds = integer(seeds, "seeds", minimum=1, maximum=1000)
    pass_mark = integer(pass_mark, "pass_mark", minimum=1, maximum=seeds)
    if "seed" in options:
        raise ValueError("seed: verdict() chooses the seeds (0 to seeds - 1); pass seeds= instead")
    method = method_of(method)
    label = method_label(method)
    runs = []
    with broken(variant):
        for seed in range(seeds):
            seeded = dataclasses.replace(method, seed=seed) if hasattr(method, "seed") else method
            runs.append(test(seeded, seed=seed, **options))
    passes = sum(bool(r.passed) for r in runs)
    first = runs[0]
    failing = [seed for seed, r in enumerate(runs) if not r.passed]
    notes = first.notes
    if failing and first.passed:
        notes = (f"seed {failing[0]}: {runs[failing[0]].summary}" + (f"; {notes}" if notes else ""))
    measured = {**first.measured, "passes": passes, "seeds": seeds,
                "per_seed": [r.measured for r in runs], "passed_per_seed": [bool(r.passed) for r in runs]}
    return TestResult(first.test, first.title, label, measured,
                      f"{first.criterion}; {rule(seeds, pass_mark)}", passes >= pass_mark,
                      f"{first.summary} (seed 0)", notes, data=first.data, passes=passes, seeds=seeds)
