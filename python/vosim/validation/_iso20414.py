"""ISO 20414:2020's basic components (its section 5.2) and the vosim tests that cover them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Component:
    """One of ISO 20414's basic components, the keys of the :data:`TESTS` that cover it, and what is missing.

    ``needs`` says what vosim lacks to express the component when none of
    ``tests`` is registered (empty when they all are).
    """

    number: int
    name: str
    tests: tuple
    needs: str = ""


#: ISO 20414:2020 section 5.2's basic components (as JuPedSim's issue #1570 lists them), each with the
#: keys of the tests in :data:`TESTS` that cover it. A key another part of vosim has not registered yet
#: makes the component "not expressible yet" (see :func:`iso_20414_coverage`), with ``needs`` saying why.
ISO_20414_COMPONENTS = (
    Component(1, "pre-evacuation time assignment", ("5",)),
    Component(2, "walking speed in a corridor", ("1",)),
    Component(3, "walking speed on stairs", ("2", "3")),
    Component(4, "movement around a corner", ("6",), "RiMEA 6 (the corner) registered"),
    Component(5, "assigned demographics", ("7",)),
    Component(6, "horizontal counter-flows (rooms)", ("imo8",)),
    Component(7, "overtaking people with movement disabilities", ("iso7",),
              "ISO 7 (overtaking) registered"),
    Component(8, "exit route allocation", ("10",), "RiMEA 10 (assigned exits) registered: routes that keep to their exit"),
    Component(9, "dynamic availability of exit", ("iso9",), "ISO 9 (an exit closing) registered"),
    Component(10, "congestion in front of a flight of stairs", ("13",)),
    Component(11, "maximum flow rate at an opening/exit", ("imo4",)),
    Component(12, "stair flow rates", ("iso12",), "ISO 12 (specific flow on stairs) registered"),
    Component(13, "flow rate, density and speed in a corridor", ("4",)),
)


def _label(key: str) -> str:
    """A test key as the table names it: "5" -> "RiMEA 5", "imo8" -> "IMO 8", "iso7" -> "ISO 7"."""
    for prefix, name in (("imo", "IMO"), ("iso", "ISO")):
        if key.startswith(prefix):
            return f"{name} {key[len(prefix):]}"
    return f"RiMEA {key}"


def iso_20414_coverage(tests: dict) -> list[tuple[Component, str]]:
    """Each component with the tests covering it (``"RiMEA 2, RiMEA 3"``) or "not expressible yet: needs ...".

    ``tests`` is the registry of tests by key (:data:`TESTS`); a component
    counts as covered when every one of its tests is registered.
    """
    rows = []
    for component in ISO_20414_COMPONENTS:
        if component.tests and all(key in tests for key in component.tests):
            rows.append((component, ", ".join(_label(key) for key in component.tests)))
        else:
            rows.append((component, f"not expressible yet: needs {component.needs}"))
    return rows


def iso_20414_table() -> str:
    """The mapping as a Markdown table (the README's), one row per component: its tests, or what vosim needs."""
    rows = ["| ISO 20414 basic component | vosim test |", "|---|---|"]
    for c in ISO_20414_COMPONENTS:
        covered = ", ".join(_label(key) for key in c.tests) if c.tests else f"not expressible yet: needs {c.needs}"
        rows.append(f"| {c.number} {c.name} | {covered} |")
    return "\n".join(rows)
