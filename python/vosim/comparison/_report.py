"""A comparison's report: Markdown and LaTeX tables, CSV files, figures and provenance (``comparison.report``)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from .._atomic import atomic_path
from ._provenance import plain, provenance

#: The mark of a method without a collision guarantee, next to its name in every table that counts collisions.
NO_GUARANTEE_MARK = "†"


def _decimals(half_width: float, value: float) -> int:
    """Decimals that show two significant digits of the interval's half-width (else three of the value).

    A half-width at round-off level (a billionth of the value) counts as none.
    """
    spread = math.isfinite(half_width) and half_width > 1e-9 * abs(value) if math.isfinite(value) else False
    reference = half_width if spread else abs(value)
    if not math.isfinite(reference) or reference == 0:
        return 2
    return int(min(6, max(0, 1 - math.floor(math.log10(reference)))))


def _number(value: float, decimals: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.{decimals}f}"


def _with_interval(mean: float, low: float, high: float) -> str:
    if not math.isfinite(mean):
        return _number(mean, 2)
    decimals = _decimals(0.5 * (high - low), mean)
    if not (math.isfinite(low) and math.isfinite(high)):
        return _number(mean, decimals)
    return f"{_number(mean, decimals)} [{_number(low, decimals)}, {_number(high, decimals)}]"


def _p_text(p: float) -> str:
    if not math.isfinite(p):
        return "–"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _guarantees(inputs: dict | None) -> dict:
    """``{scenario: {label: {"guaranteed": bool, "statement": str}}}`` from the recorded inputs."""
    if not inputs:
        return {}
    return {s["name"]: s.get("collision_guarantee", {}) for s in inputs["scenarios"]}


def _unguaranteed(guarantees: dict, scenario: str, method: str) -> bool:
    entry = guarantees.get(scenario, {}).get(method)
    return bool(entry) and not entry["guaranteed"]


def _marked(method: str, scenario: str, guarantees: dict, counts_collisions: bool) -> str:
    return method + (NO_GUARANTEE_MARK if counts_collisions and _unguaranteed(guarantees, scenario, method) else "")


def _markdown_table(header: list, rows: list) -> list:
    escape = [[str(cell).replace("|", "\\|") for cell in row] for row in [header, *rows]]
    lines = ["| " + " | ".join(escape[0]) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(row) + " |" for row in escape[1:]]


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  NO_GUARANTEE_MARK: r"\textsuperscript{\dag}", "–": "--", "∞": r"$\infty$", "−": "-",
                  "[": "[", "]": "]", "<": r"$<$"}


def _latex(text) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def _latex_table(caption: str, label: str, header: list, rows: list, note: str | None) -> list:
    lines = [r"\begin{table}[htbp]", r"\centering", rf"\caption{{{_latex(caption)}}}", rf"\label{{{label}}}",
             r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}", r"\toprule",
             " & ".join(_latex(h) for h in header) + r" \\", r"\midrule"]
    lines += [" & ".join(_latex(cell) for cell in row) + r" \\" for row in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if note:
        lines.append(rf"\par\smallskip{{\footnotesize {_latex(note)}}}")
    return lines + [r"\end{table}", ""]


def _write_text(path: Path, text: str) -> None:
    with atomic_path(path) as temporary:
        temporary.write_text(text, encoding="utf-8")


def _summary_tables(summary, metrics: list, guarantees: dict):
    """Per scenario: the header and rows of the means with intervals, and of the spread."""
    from ._figures import LABELS

    counts_collisions = _counts_collisions(metrics)
    means, spread = {}, {}
    for scenario in dict.fromkeys(summary.index.get_level_values("scenario")):
        part = summary.loc[scenario]
        methods = list(dict.fromkeys(part.index.get_level_values("method")))
        header = ["method", "seeds (finished)"] + [LABELS.get(m, m) for m in metrics]
        rows, spread_rows = [], []
        for method in methods:
            cells = part.loc[method]
            first = cells.iloc[0]
            finished = f" ({int(first['n_finished'])})" if "n_finished" in cells.columns else ""
            label = _marked(method, scenario, guarantees, counts_collisions)
            rows.append([label, f"{int(first['n_seeds'])}{finished}"]
                        + [_with_interval(cells.loc[m, "mean"], cells.loc[m, "ci_low"], cells.loc[m, "ci_high"])
                           for m in metrics])
            spread_rows.append([label, f"{int(first['n_seeds'])}{finished}"]
                               + [_spread_text(cells.loc[m]) for m in metrics])
        means[scenario] = (header, rows)
        spread[scenario] = (header, spread_rows)
    return means, spread


def _spread_text(cell) -> str:
    std, low, high = (float(cell[k]) for k in ("std", "min", "max"))
    if not math.isfinite(low):
        return "–"
    decimals = _decimals(std if math.isfinite(std) else math.nan, max(abs(low), abs(high)))
    return f"{_number(std, decimals)} ({_number(low, decimals)}–{_number(high, decimals)})"


def _counts_collisions(metrics) -> bool:
    from ._summaries import COLLISION_COLUMNS

    return any(m in COLLISION_COLUMNS for m in metrics)


def _paired_tables(differences, guarantees: dict):
    """Per scenario: the header and rows of the paired differences."""
    from ._summaries import COLLISION_COLUMNS
    from ._figures import LABELS

    tables = {}
    for scenario in dict.fromkeys(differences.index.get_level_values("scenario")):
        part = differences.loc[scenario]
        header = ["metric", "method", "difference [interval]", "d_z", "rank-biserial", "p", "p (corrected)"]
        rows = []
        for (metric, method), row in part.iterrows():
            counts = metric in COLLISION_COLUMNS
            rows.append([LABELS.get(metric, metric), _marked(method, scenario, guarantees, counts),
                         _with_interval(row["mean_difference"], row["ci_low"], row["ci_high"]),
                         _number(row["cohens_dz"], 2), _number(row["rank_biserial"], 2), _p_text(row["p_value"]),
                         _p_text(row["p_adjusted"]) + (" *" if row["significant"] else "")])
        tables[scenario] = (header, rows)
    return tables


def _lanes(machine: dict) -> str:
    """The lane kernels' instruction set, when the record has it (older records do not)."""
    level = machine.get("simd_level")
    return f" (lane kernels: {level})" if level else ""


def _provenance_lines(record: dict) -> list:
    inputs = record["inputs"]
    machine = record["machine"]
    lines = [
        f"- vosim {record['vosim_version']}" + (f", commit `{record['git_commit']}`" if record["git_commit"] else
                                                ", commit unknown (not run from a git checkout)"),
        f"- date {record['date']}; {record['threads']} engine threads; {machine['platform']}, "
        f"{machine['cpu_count']} CPUs{_lanes(machine)}; Python {machine['python']}, NumPy {machine['numpy']}",
        f"- inputs SHA-256 `{record['inputs_sha256']}` (methods, scenes, seeds, step limit: equal for equal inputs)"
        if inputs else "- inputs unknown: the table carries no record of them (it was not made by vosim.compare "
                       "in this session); the results' digest alone identifies it",
        f"- results SHA-256 `{record['results_sha256']}` (the table's rows, wall-clock times left out)",
        f"- statistics: {record['statistics']['intervals']}; paired test: {record['statistics']['test']}; "
        f"multiple comparisons: {record['statistics']['correction']}",
    ]
    if not inputs:
        return lines
    lines += ["", "Scenarios:", ""]
    for scenario in inputs["scenarios"]:
        description = scenario["description"]
        arguments = ", ".join(f"{k}={json.dumps(plain(v))}" for k, v in description.get("arguments", {}).items())
        source = (f"`{description['function']}({arguments})`" if description["kind"] == "scenario function"
                  else "a fixed Scenario")
        agents = sorted(set(scenario["agents"]))
        lines.append(f"- **{scenario['name']}** ({scenario['dimensions']}D): {source}; seeds "
                     f"{_seed_text(scenario['seeds'])}; {'/'.join(map(str, agents))} agents; time step "
                     f"{'/'.join(map(str, scenario['time_step']))} s; at most "
                     f"{inputs['steps'] or '/'.join(map(str, scenario['max_steps']))} steps")
    if len(inputs["seed_rounds"]) > 1:
        lines.append(f"- seeds chosen in rounds: {', '.join(_seed_text(r) for r in inputs['seed_rounds'])}")
    lines += ["", "Every method's full settings (as given; `provenance.json` has them with every scene's digest):",
              "", "```json", json.dumps(inputs["methods"], indent=1, sort_keys=False), "```"]
    return lines


def _seed_text(seeds: list) -> str:
    whole = all(isinstance(s, int) for s in seeds)
    if whole and len(seeds) > 2 and seeds == list(range(seeds[0], seeds[0] + len(seeds))):
        return f"{seeds[0]}–{seeds[-1]}"
    return ", ".join("none (a fixed scene)" if s is None else str(s) for s in seeds)


def _fairness_lines(inputs: dict | None, guarantees: dict) -> list:
    if not inputs:
        return ["The table carries no record of the methods' settings: departures from the defaults and "
                "collision guarantees cannot be stated."]
    lines = ["Every method runs at its defaults, which follow its reference library or paper (see each "
             "class's documentation), unless listed here (as run, per scenario):", ""]
    for scenario in inputs["scenarios"]:
        for label, departures in scenario["departures"].items():
            text = ", ".join(f"`{k}={json.dumps(plain(v))}`" for k, v in departures.items()) or "none"
            lines.append(f"- {scenario['name']}, {label}: {text}")
    lines += ["", "Collision guarantees (`vosim.methods.collision_guarantee`); "
              f"{NO_GUARANTEE_MARK} marks a method without one wherever collisions are counted:", ""]
    statements = {}
    for scenario, entries in guarantees.items():
        for label, entry in entries.items():
            statements.setdefault((label, entry["statement"]), []).append(scenario)
    for (label, statement), scenarios in statements.items():
        mark = "" if any(guarantees[s][label]["guaranteed"] for s in scenarios) else NO_GUARANTEE_MARK
        where = "" if len(scenarios) == len(guarantees) else f" ({', '.join(scenarios)})"
        lines.append(f"- {label}{mark}{where}: {statement}")
    return lines


def write_report(table, path, *, baseline, columns, interval, confidence, resamples, random_seed, test, figures):
    from ._summaries import REPORT_COLUMNS, check_table, interval_description, paired, summarize

    check_table(table)
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"path: {str(folder)!r} is a file; expected a folder for the report")
    if columns is None:
        columns = [c for c in REPORT_COLUMNS if c in table.columns]
    summary = summarize(table, columns, interval=interval, confidence=confidence, resamples=resamples,
                        random_seed=random_seed)
    metrics = list(dict.fromkeys(summary.index.get_level_values("metric")))
    methods = list(dict.fromkeys(table["method"]))
    baseline = methods[0] if baseline is None else baseline
    differences = None
    if len(methods) > 1:
        differences = paired(table, baseline, metrics, test=test, interval=interval, confidence=confidence,
                             resamples=resamples, random_seed=random_seed)
    statistics = {
        "intervals": summary.attrs["interval"]["description"],
        "interval_options": {k: v for k, v in summary.attrs["interval"].items() if k != "description"},
        "test": (f"{differences['test'].iloc[0]}, two-sided, against {baseline} on the same seeds"
                 if differences is not None else "none (one method)"),
        "correction": differences.attrs["correction_description"] if differences is not None else "none",
        "alpha": differences.attrs["alpha"] if differences is not None else None,
    }
    record = provenance(table, statistics)
    guarantees = _guarantees(record["inputs"])
    folder.mkdir(parents=True, exist_ok=True)
    written = {}

    means, spread = _summary_tables(summary, metrics, guarantees)
    pairs = _paired_tables(differences, guarantees) if differences is not None else {}
    mark_note = (f"{NO_GUARANTEE_MARK} no collision guarantee: its collision counts measure the method "
                 "(see the fairness notes)")
    any_mark = any(_unguaranteed(guarantees, s, m) for s in guarantees for m in guarantees[s])

    md = ["# Comparison of avoidance methods", "", "## Provenance", "", *_provenance_lines(record), "",
          "## Fairness", "", *_fairness_lines(record["inputs"], guarantees), "",
          f"## Means over seeds, with {interval_description(summary.attrs['interval'])}", ""]
    for scenario, (header, rows) in means.items():
        md += [f"### {scenario}", "", *_markdown_table(header, rows), ""]
    if any_mark:
        md += [mark_note, ""]
    md += ["Seeds (finished): the seeds behind each number, and those in which every agent arrived. A metric "
           "that some seed lacks (a makespan where not every agent arrived) has no mean (–): a mean over the "
           "finished seeds alone would favour a method that finishes only its easy seeds.", "",
           "## Spread over seeds: standard deviation (min–max)", ""]
    for scenario, (header, rows) in spread.items():
        md += [f"### {scenario}", "", *_markdown_table(header, rows), ""]
    if differences is not None:
        md += [f"## Paired differences from {baseline} (method − {baseline}, same seeds)", "",
               f"Intervals: {statistics['intervals']}. Test: {statistics['test']}. Multiple comparisons: "
               f"{statistics['correction']}; * marks a corrected p-value below {statistics['alpha']:g}. "
               "d_z: mean difference over the differences' standard deviation (Cohen); rank-biserial: "
               "matched pairs, from −1 (all lower) to 1 (all higher).", ""]
        for scenario, (header, rows) in pairs.items():
            md += [f"### {scenario}", "", *_markdown_table(header, rows), ""]
        if any_mark:
            md += [mark_note, ""]

    tex = [f"% vosim comparison report; inputs SHA-256 {record['inputs_sha256']}; "
           f"results SHA-256 {record['results_sha256']}", r"% needs \usepackage{booktabs}", ""]
    for scenario, (header, rows) in means.items():
        tex += _latex_table(f"{scenario}: means over seeds with {interval_description(summary.attrs['interval'])}",
                            f"tab:{_label(scenario)}-means", header, rows, mark_note if any_mark else None)
    paired_tex = [tex[0], tex[1], ""]
    for scenario, (header, rows) in pairs.items():
        paired_tex += _latex_table(f"{scenario}: differences from {baseline} over the same seeds; "
                                   f"{statistics['test']}; {statistics['correction']}",
                                   f"tab:{_label(scenario)}-paired", header, rows, mark_note if any_mark else None)

    if figures:
        from ._figures import difference_figure, metrics_figure
        from .._pyplot import pyplot_module

        plt = pyplot_module()  # names the extra to install when matplotlib is missing

        figure = metrics_figure(table, summary, metrics, guarantees)
        written["metrics.png"] = _save(figure, folder / "metrics.png")
        plt.close(figure)
        md += ["## Figures", "", "![Means with intervals and every seed](metrics.png)", ""]
        if differences is not None:
            figure = difference_figure(table, differences, baseline, guarantees)
            written["differences.png"] = _save(figure, folder / "differences.png")
            plt.close(figure)
            md += [f"![Paired differences from {baseline}](differences.png)", ""]

    files = {"report.md": "\n".join(md), "summary.tex": "\n".join(tex),
             "provenance.json": json.dumps(plain(record), indent=2, sort_keys=True) + "\n"}
    if differences is not None:
        files["paired.tex"] = "\n".join(paired_tex)
    for name, text in files.items():
        _write_text(folder / name, text)
        written[name] = folder / name
    for name, frame in (("summary.csv", summary), ("paired.csv", differences)):
        if frame is not None:
            with atomic_path(folder / name) as temporary:
                frame.to_csv(temporary, float_format="%.10g")
            written[name] = folder / name
    return {**written, "inputs_sha256": record["inputs_sha256"]}


def _label(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text).strip("-").lower() or "scenario"


def _save(figure, path: Path) -> Path:
    with atomic_path(path) as temporary:
        figure.savefig(temporary, dpi=110, bbox_inches="tight")
    return path
