"""Progress reporting for long runs: tqdm when installed, a plain bar otherwise."""

from __future__ import annotations

import sys
import time
from typing import Callable

import numpy as np


#: Seconds between lines of a bar written to a log (standard error not a terminal).
LOG_LINE_SECONDS = 10.0


class _PlainBar:
    """A one-line text bar on stderr, redrawn at most five times a second. Where stderr is not a terminal (a log,
    CI), a carriage return does not go back: a line every ``LOG_LINE_SECONDS`` instead, and one at the end."""

    def __init__(self, total: int, stream=None, label: str = "", unit: str = "step"):
        self.total = max(total, 1)
        self.unit = unit
        self.label = f"{label}: " if label else ""
        self.note = ""
        self.stream = stream or sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.terminal = bool(isatty()) if callable(isatty) else False
        self.started = time.perf_counter()
        self.last_draw = 0.0 if self.terminal else self.started

    def update(self, done: int) -> None:
        now = time.perf_counter()
        if now - self.last_draw >= (0.2 if self.terminal else LOG_LINE_SECONDS):
            self.last_draw = now
            self._draw(done, now)

    def _draw(self, done: int, now: float) -> None:
        fraction = min(done / self.total, 1.0)
        width = 30
        filled = int(round(fraction * width))
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        back = "\r" if self.terminal else ""  # a log cannot go back: one line each time
        self.stream.write(
            f"{back}{self.label}[{'#' * filled}{'.' * (width - filled)}] {100 * fraction:5.1f}% "
            f"{done}/{self.total} {self.unit}s, {rate:,.{0 if rate >= 100 else 1}f} {self.unit}s/s{self.note}"
            + ("" if self.terminal else "\n")
        )
        self.stream.flush()

    def close(self, done: int, failed: bool = False, note: str = "") -> None:
        # A run that stopped early keeps its total: the bar shows how far it got, and why.
        self.note = f" ({note})" if note else ""
        self._draw(done, time.perf_counter())
        if self.terminal:
            self.stream.write("\n")
        self.stream.flush()


class _TqdmBar:
    def __init__(self, total: int, label: str = "", unit: str = "step"):
        from tqdm.auto import tqdm

        self.bar = tqdm(total=total, unit=unit, dynamic_ncols=True, desc=label or None)

    def update(self, done: int) -> None:
        self.bar.update(done - self.bar.n)

    def close(self, done: int, failed: bool = False, note: str = "") -> None:
        # A run that stopped early keeps its total: the bar shows how far it got, and why.
        self.bar.update(done - self.bar.n)
        if note:
            self.bar.set_postfix_str(note, refresh=False)
        self.bar.close()


class _CallbackReporter:
    def __init__(self, callback: Callable[[int, int], None], total: int):
        self.callback = callback
        self.total = total

    def update(self, done: int) -> None:
        self.callback(done, self.total)

    def close(self, done: int, failed: bool = False, note: str = "") -> None:
        if not failed:  # the callback itself may be what failed
            self.callback(done, self.total)


def make_progress(progress, total: int, unit: str = "step"):
    """A reporter with ``update(done)`` and ``close(done, failed)``, or None for no reporting; a bar counts
    in ``unit``s."""
    if isinstance(progress, np.bool_):
        progress = bool(progress)
    if progress is False or progress is None:
        return None
    if callable(progress):
        return _CallbackReporter(progress, total)
    if progress is True or isinstance(progress, str):
        label = progress if isinstance(progress, str) else ""
        try:
            return _TqdmBar(total, label=label, unit=unit)
        except ImportError:
            return _PlainBar(total, label=label, unit=unit)
    raise TypeError(f"progress: expected True, False, a label or a callable, got {type(progress).__name__}")
