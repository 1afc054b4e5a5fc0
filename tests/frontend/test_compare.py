"""Method comparisons: the table of the engine's metrics and its figures."""

import functools

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import vosim  # noqa: E402
from vosim import scenarios  # noqa: E402


def _engine_metrics():
    traj = scenarios.headon_pair().build().run(2)
    if not getattr(traj, "metrics", None):
        pytest.skip("the engine does not compute metrics during run() yet")


def test_compare_rows_are_the_batch_runs_metrics():
    _engine_metrics()
    methods = {"ORCA": vosim.ORCA(), "RVO": vosim.RVO(samples=60)}
    crossing = functools.partial(scenarios.crossing, 4)
    table = vosim.compare(methods, [crossing, "headon_pair"], seeds=[2, 5], steps=400)
    assert len(table) == 2 * 2 * 2
    assert list(table.columns[:5]) == ["method", "scenario", "seed", "agents", "steps_run"]
    assert set(table["scenario"]) == {"crossing", "headon_pair"}
    assert not table.duplicated(["method", "scenario", "seed"]).any()
    # a row holds what the batch of its seeds measured for its scene
    traj = scenarios.build_batch([crossing(seed=s) for s in (2, 5)], method=vosim.ORCA()).run(
        400, record_every=400, until_arrived=True)
    row = table[(table["method"] == "ORCA") & (table["scenario"] == "crossing") & (table["seed"] == 5)].iloc[0]
    for name, value in traj.metrics.items():
        value = np.asarray(value)
        if value.ndim == 1 and not name.startswith("time_"):  # wall times differ from run to run
            assert row[name] == pytest.approx(value[1], nan_ok=True), name
    assert ("RVO", "headon_pair", 2) in table.attrs["series"]


def test_compare_checks_its_arguments():
    with pytest.raises(ValueError, match=r"scenarios\[0\] is 'maze'; must be one of circle"):
        vosim.compare([vosim.ORCA()], ["maze"])
    with pytest.raises(TypeError, match=r"methods\['x'\]: expected a vosim method"):
        vosim.compare({"x": "ORCA"}, ["crossing"])
    with pytest.raises(ValueError, match=r"seeds\[0\] is -1; must be >= 0"):
        vosim.compare([vosim.ORCA()], ["crossing"], seeds=[-1])
    with pytest.raises(ValueError, match="methods: expected at least one method"):
        vosim.compare({}, ["crossing"])


def _table():
    """A comparison table as vosim.compare lays it out, with made-up values."""
    rng = np.random.default_rng(1)
    rows, series = [], {}
    for scenario in ("crossing", "bottleneck"):
        for method in ("ORCA", "RVO", "ForceBased"):
            for seed in range(4):
                steps = 120 + 10 * seed
                rows.append(dict(method=method, scenario=scenario, seed=seed, agents=8, steps_run=steps,
                                 collision_agent_steps=float(rng.integers(0, 30)),
                                 max_penetration=rng.uniform(0, 0.2), arrival_rate=1.0 if seed else 0.875,
                                 makespan=steps * 0.1 if seed else np.nan, path_efficiency=rng.uniform(0.8, 1.0)))
                series[(method, scenario, seed)] = dict(
                    collisions_series=rng.integers(0, 3, steps + 1), time_step=0.1,
                    arrival_step=np.r_[rng.integers(50, steps, 7), -1 if seed == 0 else steps])
    table = pd.DataFrame(rows)
    table.attrs["series"] = series
    return table


def test_plot_compare_draws_the_standard_figures(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from vosim import plot

    figures = {name: plot.compare(_table(), figure=name) for name in ("metrics", "collisions", "arrivals")}
    for name, figure in figures.items():
        path = tmp_path / f"{name}.png"
        figure.savefig(path, dpi=60)
        assert path.stat().st_size > 10_000
    panels = [ax for ax in figures["metrics"].axes if ax.get_visible()]
    assert [ax.get_title() for ax in panels] == ["colliding agent-steps", "deepest overlap [m]",
                                                  "arrived (fraction)", "makespan [s]", "path efficiency"]
    # the arrival curve of a scenario ends at the mean final arrival fraction
    arrivals = figures["arrivals"].axes[0]
    orca = [line for line in arrivals.get_lines() if line.get_label() == "ORCA"][0]
    assert orca.get_ydata()[-1] == pytest.approx((7 / 8 + 1 + 1 + 1) / 4)
    with pytest.raises(ValueError, match=r"metrics\[0\] is 'speed'; the table has no such column"):
        plot.compare(_table(), metrics=["speed"])
    with pytest.raises(ValueError, match="table: expected a table from vosim.compare"):
        plot.compare(pd.DataFrame({"x": [1]}))
