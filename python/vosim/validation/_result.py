"""What a validation test returns, and the table of them."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class TestResult:
    """One verification test run with one method.

    Attributes
    ----------
    test
        The test's short name (``"RiMEA 1"``).
    title
        What it checks, in a few words.
    method
        The method's name.
    measured
        The measured values, by name (floats, or lists of floats).
    criterion
        The pass criterion, in words.
    passed
        Whether the measured values meet the criterion.
    summary
        The measured values in one short line, for tables.
    notes
        Where and why the result departs from measured crowds, or how the
        test's geometry differs from the guideline's.
    data
        What the figures are drawn from (trajectories, series).
    passes, seeds
        For a verdict over seeds (:func:`~vosim.validation.verdict`): how
        many of how many seeds passed; None for a single run.
    """

    test: str
    title: str
    method: str
    measured: dict
    criterion: str
    passed: bool
    summary: str
    notes: str = ""
    data: dict = field(default_factory=dict, repr=False)
    passes: int | None = None
    seeds: int | None = None

    __test__ = False  # not a pytest test class

    @property
    def verdict(self) -> str:
        """``"pass"`` or ``"fail"``, with ``k/n`` for a verdict over seeds, as every figure's title shows it."""
        word = "pass" if self.passed else "fail"
        return word if self.seeds is None else f"{word} {self.passes}/{self.seeds}"

    @property
    def heading(self) -> str:
        """The test, the method and the verdict: ``"RiMEA 1: ORCA (pass)"``, the start of a figure's title."""
        return f"{self.test}: {self.method} ({self.verdict})"


@dataclass(frozen=True)
class NotExpressible:
    """A test that needs scenario features vosim does not have yet (listed, never faked)."""

    test: str
    title: str
    needs: str

    __test__ = False


def _shown(result) -> str:
    word = "pass" if result.passed else "**FAIL**"
    return word if result.seeds is None else f"{word} {result.passes}/{result.seeds}"


def table(results, missing=()) -> str:
    """A Markdown table, one row per test and one column per method, each cell "pass/FAIL: values".

    A verdict over seeds reads "pass 5/5: values" (k of n seeds passed).

    The tests in ``missing`` (:class:`NotExpressible`) follow in a second
    table with what each needs.
    """
    methods = list(dict.fromkeys(r.method for r in results))
    tests = list(dict.fromkeys((r.test, r.title) for r in results))
    cell = {(r.test, r.method): f"{_shown(r)}: {r.summary}" for r in results}
    rows = ["| test | " + " | ".join(methods) + " |", "|---|" + "---|" * len(methods)]
    for test, title in tests:
        rows.append(f"| {test} {title} | " + " | ".join(cell.get((test, m), "-") for m in methods) + " |")
    if missing:
        rows += ["", "| not expressible yet | needs |", "|---|---|"]
        rows += [f"| {item.test} {item.title} | {item.needs} |" for item in missing]
    return "\n".join(rows)
