"""Measure the validation table cell by cell, resumably, and print it in the README's format.

Each cell is one test's verdict over seeds for one method
(``vosim.validation.verdict``: seeds 0-4, pass if at least 4 pass), written
as one JSON line to ``--cells`` as soon as it is measured, with the date and
the time it took; cells already in the file are not measured again. Cheap
tests run first for every method, so an interrupted run leaves whole rows.

    python tools/validation_table.py --cells cells.jsonl --methods orca,csm --tests 1,2,3
    python tools/validation_table.py --cells cells.jsonl --render

``--render`` prints the Markdown table (``validation.table``); a cell not
measured reads "-". ``--splice PAGE`` writes the cells of ``--cells`` into
the validation table of a Markdown page (``docs/validation.md``) in place,
by test and method, leaving every other cell as it was, and names each cell
replaced:

    python tools/validation_table.py --cells csm.jsonl --splice docs/validation.md
"""

import argparse
import datetime
import json
import time
from pathlib import Path

from vosim import validation
from vosim.cli import _method
from vosim.validation import TestResult

#: The tests, cheapest first (seconds per seed for ORCA on an idle core, roughly).
ORDER = ("1", "2", "3", "7", "5", "6", "10", "14", "iso7", "iso9", "overlap", "imo4", "12", "13", "iso12", "16",
         "11", "imo8", "4", "bottleneck", "8", "15", "9")


def _cells(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", required=True, type=Path, help="JSON-lines file of measured cells")
    parser.add_argument("--methods", "--method", dest="method", default="orca", help="comma-separated methods, as vosim validate takes them")
    parser.add_argument("--tests", default=",".join(ORDER), help="comma-separated test ids (default: all)")
    parser.add_argument("--seeds", type=int, default=validation.SEEDS)
    parser.add_argument("--render", action="store_true", help="print the table of the cells measured")
    parser.add_argument("--splice", type=Path, metavar="PAGE",
                        help="write the measured cells into the table of this Markdown page")
    args = parser.parse_args()
    if args.splice:
        splice(args.splice, _cells(args.cells))
        return
    if args.render:
        cells = _cells(args.cells)
        results = [TestResult(c["test"], c["title"], c["method"], {}, c["criterion"], c["passed"], c["summary"],
                              passes=c["passes"], seeds=c["seeds"]) for c in cells]
        methods = list(dict.fromkeys(c["method"] for c in cells))
        order = {t: k for k, t in enumerate(dict.fromkeys(validation.TESTS))}
        results.sort(key=lambda r: order[next(c["id"] for c in cells if c["test"] == r.test)])
        print(validation.table(results))
        dates = sorted({c["date"] for c in cells})
        print(f"\n{len(cells)} cells, {len(methods)} methods, measured {dates[0]} to {dates[-1]}")
        return
    tests = [t.strip() for t in args.tests.split(",")]
    methods = [_method(m.strip()) for m in args.method.split(",")]
    done = {(c["id"], c["method"]) for c in _cells(args.cells)}
    for test in [t for t in ORDER if t in tests] + [t for t in tests if t not in ORDER]:
        for method in methods:
            label = validation._pedestrians.method_label(method)
            if (test, label) in done:
                continue
            began = time.perf_counter()
            result = validation.verdict(validation.TESTS[test], method, seeds=args.seeds)
            cell = {"id": test, "test": result.test, "title": result.title, "method": label,
                    "passed": bool(result.passed), "passes": result.passes, "seeds": result.seeds,
                    "summary": result.summary, "criterion": result.criterion,
                    "date": datetime.date.today().isoformat(), "seconds": round(time.perf_counter() - began, 1)}
            with args.cells.open("a") as out:
                out.write(json.dumps(cell) + "\n")
            print(f"{test} {label}: {result.verdict} {result.summary} ({cell['seconds']} s)", flush=True)


def _cell_text(cell: dict) -> str:
    result = TestResult(cell["test"], cell["title"], cell["method"], {}, cell["criterion"], cell["passed"],
                        cell["summary"], passes=cell["passes"], seeds=cell["seeds"])
    return validation.table([result]).splitlines()[2].split(" | ", 1)[1].rstrip(" |")


def splice(page: Path, cells: list[dict]) -> None:
    """Replace, in the first table of ``page`` whose header starts ``| test |``, each measured cell (the last
    measurement of a test and method wins); the file is written whole or not at all."""
    lines = page.read_text(encoding="utf-8").split("\n")
    header = next(k for k, line in enumerate(lines) if line.startswith("| test |"))
    methods = [name.strip() for name in lines[header].strip("|").split("|")][1:]
    rows = {}
    k = header + 2
    while k < len(lines) and lines[k].startswith("|"):
        rows[lines[k].split(" | ", 1)[0].lstrip("| ").strip()] = k
        k += 1
    latest = {(c["test"], c["title"], c["method"]): c for c in cells}
    for (test, title, method), cell in latest.items():
        row = rows.get(f"{test} {title}")
        if row is None or method not in methods:
            raise SystemExit(f"{page}: no row {test} {title!r} or no column {method!r} to splice into")
        parts = lines[row].strip().strip("|").split(" | ")
        parts[1 + methods.index(method)] = _cell_text(cell)
        lines[row] = "| " + " | ".join(part.strip() for part in parts) + " |"
        print(f"{test} {method}: {_cell_text(cell)}")
    temporary = page.with_name(page.name + ".tmp")
    temporary.write_text("\n".join(lines), encoding="utf-8")
    temporary.replace(page)


if __name__ == "__main__":
    main()
