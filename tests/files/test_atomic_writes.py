"""Files vosim writes appear whole or not at all: a failed write leaves the old file and no temporary."""

import pytest

from vosim import cli
from vosim._atomic import atomic_path

pd = pytest.importorskip("pandas")


def _folder(path):
    return sorted(p.name for p in path.parent.iterdir())


def test_atomic_path_replaces_the_file_only_when_the_block_succeeds(tmp_path):
    target = tmp_path / "table.csv"
    target.write_text("old\n")
    with atomic_path(target) as temporary:
        assert temporary.parent == tmp_path and temporary.name.startswith(".") and temporary.suffix == ".csv"
        temporary.write_text("new\n")
        assert target.read_text() == "old\n"  # nothing visible before the block ends
    assert target.read_text() == "new\n" and _folder(target) == ["table.csv"]

    with pytest.raises(RuntimeError, match="disk full"):
        with atomic_path(target) as temporary:
            temporary.write_text("half a")
            raise RuntimeError("disk full")
    assert target.read_text() == "new\n" and _folder(target) == ["table.csv"]


def test_atomic_path_creates_nothing_when_the_writer_wrote_nothing(tmp_path):
    with pytest.raises(ValueError):
        with atomic_path(tmp_path / "figure.png"):
            raise ValueError("bad figure")
    assert _folder(tmp_path / "x") == []


def _fake_compare(methods, scenarios, seeds, steps, progress):
    return pd.DataFrame({"method": ["ORCA"], "scenario": ["headon_pair"], "seed": [0], "arrival_rate": [1.0],
                         "finished": [True], "makespan": [13.1], "collision_agent_steps": [0]})


def test_compare_csv_is_written_atomically(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("vosim.comparison.compare", _fake_compare)
    out = tmp_path / "results.csv"
    out.write_text("an earlier run's results\n")
    arguments = ["compare", "--scenario", "headon_pair", "--methods", "orca", "--seeds", "1", "--quiet",
                 "--out", str(out)]

    def half_written(self, path, **options):
        with open(path, "w") as stream:
            stream.write("method,scen")
        raise OSError("No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(pd.DataFrame, "to_csv", half_written)
        with pytest.raises(OSError, match="No space left"):
            cli.main(arguments)
    assert out.read_text() == "an earlier run's results\n" and _folder(out) == ["results.csv"]

    assert cli.main(arguments) == 0
    table = pd.read_csv(out)
    assert list(table["method"]) == ["ORCA"] and table["makespan"][0] == 13.1
    assert _folder(out) == ["results.csv"]
    assert f"results written to {out}" in capsys.readouterr().out


def test_cli_figures_are_written_atomically(tmp_path, monkeypatch):
    """A figure whose drawing fails half way leaves the earlier picture, not a broken PNG."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = tmp_path / "figure.png"
    out.write_bytes(b"earlier picture")
    figure = plt.figure()
    try:
        def failing(self, path, **options):
            with open(path, "wb") as stream:
                stream.write(b"\x89PNG half")
            raise OSError("No space left on device")

        with monkeypatch.context() as patch:
            patch.setattr(type(figure), "savefig", failing)
            with pytest.raises(OSError):
                cli._save_figure(figure, out, 50)
        assert out.read_bytes() == b"earlier picture" and _folder(out) == ["figure.png"]
        cli._save_figure(figure, out, 50)
        assert out.read_bytes()[:4] == b"\x89PNG" and _folder(out) == ["figure.png"]
    finally:
        plt.close(figure)
