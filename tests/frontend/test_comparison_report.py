"""The comparison report: its files, their contents, the provenance and its digests, the figures, the CLI."""

import json
import re

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import vosim  # noqa: E402
from vosim import cli, comparison  # noqa: E402

METHODS = {"ORCA": vosim.ORCA(), "RVO": vosim.RVO(samples=40)}


def _run(seeds=(0, 1, 2)):
    return vosim.compare(METHODS, ["headon_pair"], seeds=list(seeds), steps=150)


@pytest.fixture(scope="module")
def table():
    return _run()


def test_report_writes_every_file_atomically_with_provenance(table, tmp_path):
    pytest.importorskip("matplotlib")
    written = comparison.report(table, tmp_path / "report", resamples=500)
    folder = tmp_path / "report"
    names = {"report.md", "summary.tex", "paired.tex", "summary.csv", "paired.csv", "provenance.json", "metrics.png",
             "differences.png"}
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)  # no temporary file left behind
    assert set(written) == names | {"inputs_sha256"}

    record = json.loads((folder / "provenance.json").read_text())
    assert record["vosim_version"] == vosim.__version__ and "git_commit" in record
    assert record["machine"]["cpu_count"] >= 1 and record["threads"] >= 1 and record["date"]
    assert record["machine"]["simd_level"] == vosim.simd_level()
    assert record["inputs"]["methods"]["RVO"] == vosim.RVO(samples=40).to_dict()  # every setting
    scenario = record["inputs"]["scenarios"][0]
    assert scenario["seeds"] == [0, 1, 2] and len(scenario["scenes_sha256"]) == 3
    assert scenario["description"]["arguments"] == {"distance": 10.0}
    assert record["inputs_sha256"] == written["inputs_sha256"]
    assert re.fullmatch(r"[0-9a-f]{64}", record["results_sha256"])

    markdown = (folder / "report.md").read_text()
    assert written["inputs_sha256"] in markdown and "vosim " + vosim.__version__ in markdown
    assert "Holm–Bonferroni over the 1 method compared with ORCA" in markdown
    assert f"CPUs (lane kernels: {vosim.simd_level()})" in markdown
    # the departures from the defaults, as run: the scenario's perturbation and RVO's samples
    assert "headon_pair, RVO: `perturbation=0.001`" in markdown and "`samples=40`" in markdown
    tables = [line for line in markdown.splitlines() if line.startswith("|")]
    blocks = re.findall(r"(?:^\|.*\n)+", markdown, flags=re.M)
    assert len(blocks) == 3  # means, spread, paired differences (one scenario)
    for block in blocks:
        assert len({line.count("|") for line in block.splitlines()}) == 1  # every row fills the header's columns
    rows = [line for line in tables if line.startswith("| RVO")]
    assert rows and all(line.startswith("| RVO† |") for line in rows)  # counted collisions: marked
    assert any(line.startswith("| ORCA |") for line in tables)
    orca = comparison.summarize(table, interval="percentile", resamples=500).loc[("headon_pair", "ORCA", "mean_speed")]
    assert f"{orca['mean']:.6f}"[:5] in markdown

    latex = (folder / "summary.tex").read_text()
    assert latex.count(r"\begin{table}") == latex.count(r"\end{table}") == 1
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert rule in latex
    assert r"RVO\textsuperscript{\dag}" in latex and "headon\\_pair" in latex
    paired = pd.read_csv(folder / "paired.csv", index_col=[0, 1, 2])
    assert set(paired.index.get_level_values("method")) == {"RVO"}

    import matplotlib.image

    for name in ("metrics.png", "differences.png"):
        image = matplotlib.image.imread(folder / name)
        assert image.shape[0] > 300 and image.shape[1] > 600


def test_same_inputs_give_the_same_digest_and_other_inputs_another(table, tmp_path):
    again = _run()  # a second run of the same inputs
    first = comparison.report(table, tmp_path / "a", figures=False, resamples=200)
    second = comparison.report(again, tmp_path / "b", figures=False, resamples=200)
    assert first["inputs_sha256"] == second["inputs_sha256"]
    a = json.loads((tmp_path / "a" / "provenance.json").read_text())
    b = json.loads((tmp_path / "b" / "provenance.json").read_text())
    assert a["results_sha256"] == b["results_sha256"]  # runs are deterministic
    assert (tmp_path / "a" / "summary.tex").read_text() == (tmp_path / "b" / "summary.tex").read_text()
    other_seeds = comparison.report(_run((1, 2, 3)), tmp_path / "c", figures=False, resamples=200)
    other_method = vosim.compare({"ORCA": vosim.ORCA(), "RVO": vosim.RVO(samples=41)}, ["headon_pair"],
                                 seeds=[0, 1, 2], steps=150)
    other = comparison.report(other_method, tmp_path / "d", figures=False, resamples=200)
    assert len({first["inputs_sha256"], other_seeds["inputs_sha256"], other["inputs_sha256"]}) == 3


def test_a_table_without_its_inputs_gets_a_report_that_says_so(table, tmp_path):
    csv = tmp_path / "table.csv"
    table.to_csv(csv, index=False)
    written = comparison.report(pd.read_csv(csv), tmp_path / "r", figures=False, resamples=200)
    assert written["inputs_sha256"] is None
    markdown = (tmp_path / "r" / "report.md").read_text()
    assert "inputs unknown" in markdown and "cannot be stated" in markdown
    with pytest.raises(ValueError, match="is a file; expected a folder"):
        comparison.report(table, csv)


def test_metrics_figure_draws_each_mean_with_its_interval(table):
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    from vosim.comparison._figures import metrics_figure

    summary = comparison.summarize(table, ["makespan", "collision_agent_steps"], interval="t")
    figure = metrics_figure(table, summary, ["makespan", "collision_agent_steps"], {})
    try:
        makespan = figure.axes[0]
        bars = [c for c in makespan.containers if type(c).__name__ == "ErrorbarContainer"]
        assert len(bars) == 2  # one per method
        for bar, method in zip(bars, METHODS):
            row = summary.loc[("headon_pair", method, "makespan")]
            (mean,) = bar.lines[0].get_ydata()
            assert mean == pytest.approx(row["mean"])
            segments = bar.lines[2][0].get_segments()
            assert segments[0][:, 1] == pytest.approx([row["ci_low"], row["ci_high"]])
        points = np.concatenate([c.get_offsets()[:, 1] for c in makespan.collections
                                 if type(c).__name__ == "PathCollection"])
        assert sorted(points) == pytest.approx(sorted(table["makespan"]))  # every seed drawn
    finally:
        plt.close(figure)


def test_cli_compare_writes_the_report(tmp_path, capsys):
    folder = tmp_path / "cli-report"
    code = cli.main(["compare", "--scenario", "headon_pair", "--methods", "orca,rvo,adaptive", "--seeds", "2",
                     "--steps", "100", "--quiet", "--report", str(folder), "--baseline", "adaptive",
                     "--interval", "t"])
    assert code == 0
    out = capsys.readouterr().out
    assert f"report written to {folder / 'report.md'}" in out
    paired = pd.read_csv(folder / "paired.csv", index_col=[0, 1, 2])
    assert set(paired["baseline"]) == {"AdaptiveSampling"}
    assert "Student's t" in (folder / "report.md").read_text()
    with pytest.raises(SystemExit, match="--baseline 'hrvo' is not among the methods compared"):
        cli.main(["compare", "--scenario", "headon_pair", "--methods", "orca", "--seeds", "1", "--steps", "10",
                  "--quiet", "--report", str(folder), "--baseline", "hrvo"])


def test_a_fixed_scene_without_a_seed_is_reported_as_such(tmp_path):
    fixed = vosim.scenarios.circle(6, radius=4.0)  # one layout, no seed
    table = vosim.compare(METHODS, [fixed], steps=60)
    comparison.report(table, tmp_path, figures=False, resamples=200)
    assert "seeds none (a fixed scene)" in (tmp_path / "report.md").read_text()
    summary = pd.read_csv(tmp_path / "summary.csv")
    assert set(summary["n_seeds"]) == {1} and summary["ci_low"].isna().all()  # one run: no interval


def test_cli_compare_chooses_the_seeds_for_a_precision(capsys):
    arguments = ["compare", "--scenario", "headon_pair", "--methods", "orca,rvo", "--steps", "100", "--quiet"]
    with pytest.warns(RuntimeWarning, match="stopped at max_seeds=5"):  # RVO's makespan needs more
        assert cli.main([*arguments, "--seeds", "auto", "--precision", "makespan=0.3", "--max-seeds", "5"]) == 0
    rounds = re.search(r"seeds chosen in rounds: (\[.*\])", capsys.readouterr().out)
    assert rounds and json.loads(rounds.group(1)) == [[0, 1, 2, 3, 4]]
    with pytest.raises(SystemExit, match="--seeds auto and --precision go together"):
        cli.main([*arguments, "--seeds", "3", "--precision", "makespan=0.3"])
    with pytest.raises(SystemExit):
        cli.main([*arguments, "--seeds", "auto", "--precision", "makespan=-1"])
    assert "expected metric=half_width pairs" in capsys.readouterr().err
