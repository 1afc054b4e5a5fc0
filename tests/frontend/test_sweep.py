"""Sweeps on Dask: the grid, the rows (those of compare), Parquet parts and resuming."""

import functools
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
distributed = pytest.importorskip("distributed")

import vosim  # noqa: E402
from vosim import scenarios  # noqa: E402

CROSSING = functools.partial(scenarios.crossing, 4)
TIMINGS = list(vosim.metrics.TIMES)  # wall times differ between runs


def _same(a, b):
    pd.testing.assert_frame_equal(a.drop(columns=TIMINGS), b.drop(columns=TIMINGS))


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as made:
        yield made


def test_sweep_rows_are_compares_rows_for_every_cell(client):
    methods = {"ORCA": vosim.ORCA(), "RVO": vosim.RVO(samples=40)}
    table = vosim.sweep(methods, [CROSSING], seeds=[1, 2], method_params={"perturbation": [0.0, 0.01]},
                        agent_params={"time_horizon": [2.0, 5.0]}, steps=300, client=client)
    assert len(table) == 2 * 2 * 2 * 2
    assert list(table.columns[:7]) == ["method", "scenario", "seed", "agents", "steps_run", "perturbation",
                                       "time_horizon"]
    assert not table.duplicated(["method", "seed", "perturbation", "time_horizon"]).any()
    assert table.attrs["cells_run"] == 8 and table.attrs["cells_reused"] == 0
    # one cell against compare() on the same scenes, the one definition of a run
    scenes = [scenarios.Scenario(**{**CROSSING(seed=s).__dict__,
                                    "agent_params": {**CROSSING(seed=s).agent_params, "time_horizon": 5.0}})
              for s in (1, 2)]
    expected = vosim.compare({"RVO": vosim.RVO(samples=40, perturbation=0.01)}, [lambda seed: scenes[seed - 1]],
                             seeds=[1, 2], steps=300)
    got = table[(table["method"] == "RVO") & (table["perturbation"] == 0.01) & (table["time_horizon"] == 5.0)]
    got = got.drop(columns=["perturbation", "time_horizon"]).reset_index(drop=True)
    expected["seed"] = expected["seed"].astype("Int64")
    _same(got, expected)


def test_sweep_on_a_cluster_equals_the_sweep_in_this_process(client):
    grid = dict(methods=[vosim.ORCA(), vosim.ForceBased()], scenarios=["headon_pair", CROSSING],
                seeds=[3, 4, 5], scenario_params=None, steps=250)
    here = vosim.sweep(**grid, client=False)
    there = vosim.sweep(**grid, client=client)
    _same(here, there)


def test_sweep_connects_to_a_scheduler_address(client):
    table = vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=[0, 1], steps=100, client=client.scheduler.address)
    _same(table, vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=[0, 1], steps=100, client=False))


def test_a_local_cluster_when_asked_runs_the_grid():
    table = vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=[0, 1], steps=100, workers=1, threads=1,
                        client="local")
    assert list(table["seed"]) == [0, 1] and table.attrs["cells_run"] == 1
    _same(table, vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=[0, 1], steps=100, client=False))


def test_the_default_uses_the_active_client(client):
    """client=None runs on the client this process already uses (the fixture's)."""
    grid = dict(methods=[vosim.ORCA()], scenarios=["headon_pair"], seeds=[0, 1], steps=100)
    assert distributed.Client.current() is client
    with distributed.get_task_stream(client) as stream:
        on_client = vosim.sweep(**grid)
    assert [task["key"] for task in stream.data if str(task["key"]).startswith("_run-")]
    _same(on_client, vosim.sweep(**grid, client=False))


def test_compare_by_default_uses_the_active_client_as_sweep_does(client):
    """compare(client=None) runs on the client this process already uses; client=False runs here."""
    grid = dict(methods=[vosim.ORCA()], scenarios=["headon_pair"], seeds=[0, 1], steps=100)
    assert distributed.Client.current() is client

    def tasks(stream):
        return [task for task in stream.data if str(task["key"]).startswith("_run_cell_on_worker-")]

    with distributed.get_task_stream(client) as stream:
        on_client = vosim.compare(**grid)
    assert len(tasks(stream)) == 1  # one method on one scenario: one task
    with distributed.get_task_stream(client) as stream:
        here = vosim.compare(**grid, client=False)
    assert not tasks(stream)
    _same(on_client, here)


def test_without_a_client_the_default_runs_here_without_dask():
    code = textwrap.dedent("""
        import sys, vosim
        table = vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=[0], steps=50)
        print(len(table), "distributed" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "False"]


def test_without_a_client_compare_runs_here_without_dask():
    code = textwrap.dedent("""
        import sys, vosim
        table = vosim.compare([vosim.ORCA()], ["headon_pair"], seeds=[0], steps=50)
        print(len(table), "distributed" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "False"]


SWEEP_SCRIPT = """\
import vosim

{indent}table = vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=[0], steps=50, client="local", workers=1)
{indent}print("rows", len(table))
"""


@pytest.mark.parametrize("guarded", [False, True])
def test_a_local_cluster_from_a_script_needs_the_main_guard(tmp_path, guarded):
    """A script starting a LocalCluster outside `if __name__ == "__main__":` is told the fix, before any process starts."""
    body = SWEEP_SCRIPT.format(indent="    " if guarded else "")
    if guarded:
        body = body.replace("\n    table", '\nif __name__ == "__main__":\n    table', 1)
    script = tmp_path / "sweep_script.py"
    script.write_text(body)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    if guarded:
        assert run.returncode == 0, run.stderr
        assert "rows 1" in run.stdout
    else:
        assert run.returncode != 0
        assert "Nanny failed to start" not in run.stderr
        assert 'if __name__ == "__main__":' in run.stderr and f"{script} again; its line 3" in run.stderr


def test_an_interrupted_sweep_resumes_without_redoing_cells(tmp_path, client):
    grid = dict(methods={"ORCA": vosim.ORCA()}, scenarios=["crossing"], seeds=[1, 2],
                scenario_params={"n_per_group": [2, 4, 6]}, steps=200)
    whole = vosim.sweep(**grid, client=False)

    class Stop(Exception):
        pass

    def stop_after_two(done, total):
        if done >= 2:
            raise Stop

    folder = tmp_path / "results"
    with pytest.raises(Stop):
        vosim.sweep(**grid, path=folder, client=client, progress=stop_after_two)
    parts = sorted(folder.glob("cell-*.parquet"))
    assert 2 <= len(parts) < 3
    written = {p: p.stat().st_mtime_ns for p in parts}
    resumed = vosim.sweep(**grid, path=folder, client=client)
    assert resumed.attrs["cells_reused"] == len(parts) and resumed.attrs["cells_run"] == 3 - len(parts)
    assert all(p.stat().st_mtime_ns == t for p, t in written.items())  # nothing redone
    _same(resumed, whole.astype(resumed.dtypes.to_dict()))
    _same(pd.read_parquet(folder).sort_values(["n_per_group", "seed"]).reset_index(drop=True)[resumed.columns], resumed)
    again = vosim.sweep(**grid, path=folder, client=False)
    assert again.attrs["cells_run"] == 0
    _same(again, resumed)


def test_a_killed_sweep_resumes(tmp_path):
    """The process running the sweep is killed mid-way; running it again finishes the rest."""
    folder = tmp_path / "killed"
    script = textwrap.dedent(f"""
        import functools, vosim
        from vosim import scenarios
        vosim.sweep([vosim.ORCA()], ["crossing"], seeds=[1], scenario_params={{"n_per_group": list(range(2, 40))}},
                    steps=2000, path={str(folder)!r}, client=False)
    """)
    process = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while not list(folder.glob("cell-*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.05)
            assert process.poll() is None, "the sweep ended before it could be killed"
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
    parts = sorted(folder.glob("cell-*.parquet"))
    assert 1 <= len(parts) < 38
    assert not [p for p in os.listdir(folder) if not p.startswith("cell-")] or all(
        p.startswith(".") for p in os.listdir(folder) if not p.startswith("cell-"))
    written = {p: p.stat().st_mtime_ns for p in parts}
    grid = dict(methods=[vosim.ORCA()], scenarios=["crossing"], seeds=[1],
                scenario_params={"n_per_group": list(range(2, 40))}, steps=2000)
    resumed = vosim.sweep(**grid, path=folder, client=False)
    assert resumed.attrs["cells_reused"] == len(parts)
    assert all(p.stat().st_mtime_ns == t for p, t in written.items())
    assert list(resumed["n_per_group"]) == list(range(2, 40))


def test_a_sweep_survives_a_killed_worker(tmp_path):
    """A worker process dies mid-sweep: Dask restarts it and runs its cells again; the table is complete."""
    grid = dict(methods={"ORCA": vosim.ORCA()}, scenarios=["crossing"], seeds=[1, 2],
                scenario_params={"n_per_group": [2, 4, 6, 8]}, steps=300)
    whole = vosim.sweep(**grid, client=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
        killed = []

        def kill_the_worker_once(done, total):
            if done == 1 and not killed:
                killed.extend(client.run(os.getpid).values())
                os.kill(killed[0], signal.SIGKILL)

        table = vosim.sweep(**grid, client=client, path=tmp_path, progress=kill_the_worker_once)
        assert killed and killed[0] not in client.run(os.getpid).values()  # a new worker process
    assert table.attrs["cells_run"] == 4 and len(list(tmp_path.glob("cell-*.parquet"))) == 4
    _same(table, whole.astype(table.dtypes.to_dict()))


def test_a_corrupt_part_is_run_again_with_a_warning_naming_the_file(tmp_path):
    grid = dict(methods=[vosim.ORCA()], scenarios=["headon_pair"], seeds=[0], steps=50)
    whole = vosim.sweep(**grid, path=tmp_path, client=False)
    (part,) = tmp_path.glob("cell-*.parquet")
    part.write_bytes(part.read_bytes()[:40])
    with pytest.warns(RuntimeWarning, match=rf"{part.name}: not a readable Parquet file.*running that cell again"):
        again = vosim.sweep(**grid, path=tmp_path, client=False)
    assert again.attrs["cells_run"] == 1 and again.attrs["cells_reused"] == 0
    _same(again, whole)
    assert vosim.sweep(**grid, path=tmp_path, client=False).attrs["cells_reused"] == 1  # the part was rewritten


def _resumable_sweep(tmp_path):
    grid = dict(methods=[vosim.ORCA()], scenarios=["crossing"], seeds=[1, 2],
                scenario_params={"n_per_group": [2, 4]}, steps=60, client=False)
    whole = vosim.sweep(**grid, path=tmp_path)
    parts = sorted(tmp_path.glob("cell-*.parquet"))
    assert len(parts) == 2 and len(whole) == 4
    return grid, whole, parts


def _empty(part, table):
    pd.DataFrame().to_parquet(part)


def _wrong_columns(part, table):
    table.rename(columns={"seed": "sead"}).to_parquet(part, index=False)


def _dropped_row(part, table):
    table.iloc[:1].to_parquet(part, index=False)


def _edited_value(part, table):
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrow = pq.read_table(part)  # its metadata kept: the cell key and the checksum
    frame = arrow.to_pandas()
    frame.loc[0, "arrival_rate"] = 0.123
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False).replace_schema_metadata(arrow.schema.metadata),
                   part)


@pytest.mark.parametrize("damage, reason", [
    (_empty, "no cell key"),
    (_wrong_columns, "no cell key"),
    (_dropped_row, "no cell key"),
    (_edited_value, "do not match its checksum"),
])
def test_a_resumed_sweep_runs_again_every_part_it_cannot_trust(tmp_path, damage, reason):
    grid, whole, parts = _resumable_sweep(tmp_path)
    damage(parts[0], pd.read_parquet(parts[0]))
    with pytest.warns(RuntimeWarning, match=rf"{parts[0].name}: .*{reason}.*running that cell again"):
        resumed = vosim.sweep(**grid, path=tmp_path)
    assert resumed.attrs["cells_run"] == 1 and resumed.attrs["cells_reused"] == 1
    _same(resumed, whole)


def test_a_part_of_another_cell_or_with_a_dropped_row_and_its_stamp_is_run_again(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    grid, whole, parts = _resumable_sweep(tmp_path)
    first, second = parts
    first.write_bytes(second.read_bytes())  # the other cell's rows under this cell's name
    with pytest.warns(RuntimeWarning, match=rf"{first.name}: it holds the rows of another cell"):
        _same(vosim.sweep(**grid, path=tmp_path), whole)
    arrow = pq.read_table(second)  # one row dropped, the metadata kept
    pq.write_table(pa.Table.from_pandas(arrow.to_pandas().iloc[:1], preserve_index=False)
                   .replace_schema_metadata(arrow.schema.metadata), second)
    with pytest.warns(RuntimeWarning, match=rf"{second.name}: it has 1 rows; the cell has 2"):
        _same(vosim.sweep(**grid, path=tmp_path), whole)


def test_a_folder_named_like_a_part_is_refused_before_anything_runs(tmp_path):
    grid, whole, parts = _resumable_sweep(tmp_path)
    parts[0].unlink()
    parts[0].mkdir()
    with pytest.raises(ValueError, match=rf"{parts[0].name}: not a file"):
        vosim.sweep(**grid, path=tmp_path)


def test_fixed_scenarios_run_once_with_their_seed():
    fixed = scenarios.circle(6, radius=5.0)
    table = vosim.sweep([vosim.ORCA()], [fixed, "headon_pair"], seeds=[0, 1], steps=50, client=False)
    assert table["seed"].isna().tolist() == [True, False, False]
    compared = vosim.compare([vosim.ORCA()], fixed, seeds=[0, 1], steps=50)
    assert len(compared) == 1 and compared["seed"].isna().all()


def test_sweep_checks_its_arguments():
    with pytest.raises(ValueError, match=r"method_params\['samples'\]: method 'ORCA' \(ORCA\) has no such field"):
        vosim.sweep([vosim.ORCA()], ["headon_pair"], method_params={"samples": [10]}, client=False)
    with pytest.raises(TypeError, match=r"agent_params\['radius'\]: expected a list of values, got float"):
        vosim.sweep([vosim.ORCA()], ["headon_pair"], agent_params={"radius": 0.5}, client=False)
    with pytest.raises(ValueError, match=r"scenario_params\['n'\]: expected at least one value"):
        vosim.sweep([vosim.ORCA()], ["crossing"], scenario_params={"n": []}, client=False)
    with pytest.raises(ValueError, match=r"agent_params\['seed'\]: the name is already a column"):
        vosim.sweep([vosim.ORCA()], ["crossing"], agent_params={"seed": [1]}, client=False)
    with pytest.raises(ValueError, match=r"threads is 0; must be >= 1"):
        vosim.sweep([vosim.ORCA()], ["crossing"], threads=0, client=False)
    with pytest.raises(TypeError, match=r"client: expected a distributed.Client, a scheduler address, 'local' or None"):
        vosim.sweep([vosim.ORCA()], ["headon_pair"], client=3)
    with pytest.raises(TypeError, match=r"scenario_params \{'n': 3\}, agent_params \{\}: .*unexpected keyword "
                                        r"argument 'n'"):
        vosim.sweep([vosim.ORCA()], ["crossing"], scenario_params={"n": [3]}, client=False)
    with pytest.raises(ValueError, match=r"agent_params: unknown parameter 'speed'"):
        vosim.sweep([vosim.ORCA()], ["headon_pair"], agent_params={"speed": [1.0]}, client=False)
    with pytest.raises(ValueError, match="two cells of the sweep are the same run"):
        vosim.sweep([vosim.ORCA()], ["headon_pair", "headon_pair"], client=False)
    with pytest.raises(TypeError, match=r"scenarios\[0\]: expected a scenario name, a function taking seed= or a"):
        vosim.compare([vosim.ORCA()], [3])


def test_compare_runs_on_a_client(client):
    local = vosim.compare([vosim.ORCA(), vosim.HRVO()], [CROSSING, scenarios.headon_pair()], seeds=[1, 2],
                          steps=200)
    remote = vosim.compare([vosim.ORCA(), vosim.HRVO()], [CROSSING, scenarios.headon_pair()], seeds=[1, 2],
                           steps=200, client=client)
    _same(local, remote)
    assert local.attrs["series"].keys() == remote.attrs["series"].keys()
    key = ("HRVO", "crossing", 2)
    np.testing.assert_array_equal(local.attrs["series"][key]["arrival_step"],
                                  remote.attrs["series"][key]["arrival_step"])


def test_importing_vosim_imports_no_dask():
    code = "import sys, vosim; print(any(m.split('.')[0] in ('dask', 'distributed', 'pyarrow') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


def test_seeds_as_a_count_as_in_compare():
    """seeds=K means seeds 0 to K-1, as in compare() and the command line; bad counts are named."""
    table = vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=2, steps=50, client=False)
    assert sorted(table["seed"]) == [0, 1]
    with pytest.raises(ValueError, match="seeds is -1"):
        vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=-1, client=False)
    with pytest.raises(TypeError, match="seeds: expected a number of seeds"):
        vosim.sweep([vosim.ORCA()], ["headon_pair"], seeds=2.5, client=False)
