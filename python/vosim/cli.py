"""Command line: ``python -m vosim`` (also installed as ``vosim``)."""

from __future__ import annotations

import argparse
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import numpy as np

from ._atomic import atomic_path, writable_folder
from ._io import check_trajectory_path
from ._summary import arrived_agents
from ._table_format import CSV_FLOAT_FORMAT, column_formatters
from .methods import DEADLOCK_RULES, short_names


def _save_figure(figure, path, dpi: int) -> None:
    """Write ``figure`` to ``path`` atomically (its format from the suffix)."""
    with atomic_path(path) as temporary:
        figure.savefig(temporary, dpi=dpi, bbox_inches="tight")


def _check_figure_path(path, argument: str, *, suffix_optional: bool = False) -> None:
    """Refuse, before anything runs, a figure path whose format matplotlib cannot tell or whose folder
    cannot take a file (``suffix_optional``: no suffix means PNG)."""
    from ._pyplot import pyplot_module

    pyplot_module()
    from matplotlib.backend_bases import FigureCanvasBase

    suffix = Path(path).suffix.lower().lstrip(".")
    formats = FigureCanvasBase.get_supported_filetypes()
    if suffix not in formats and not (suffix_optional and not suffix):
        raise ValueError(f"{argument}: cannot tell the image format of {str(path)!r}; end it in one of "
                         f"{', '.join('.' + name for name in sorted(formats))}")
    writable_folder(Path(path).parent, argument)


def _demo(args: argparse.Namespace) -> int:
    from . import scenarios

    out = args.out or f"{args.scenario}.png"
    _check_figure_path(out, "--out")
    scenario = scenarios.circle(args.agents) if args.scenario == "circle" else scenarios.blocks()
    sim = scenario.build()
    print(f"vosim demo: {scenario.name}, {scenario.num_agents} agents, {len(scenario.obstacles)} obstacles, "
          f"{sim.method.name}, time step {sim.time_step} s")
    max_steps = scenario.max_steps if args.max_steps is None else args.max_steps
    traj = _run_until_arrived(sim, max_steps, None if args.quiet else scenario.name)
    arrived = int(arrived_agents(traj).sum())
    clearance = float(traj.min_clearance_per_frame().min())
    print(f"steps:             {traj.steps_run}")
    print(f"simulated time:    {sim.time:.2f} s")
    print(f"wall time:         {traj.wall_time:.3f} s")
    print(f"agents arrived:    {arrived} of {sim.num_agents}")
    print(f"minimum clearance: {clearance:+.4f} m between agents (negative: overlap)")
    if traj.obstacles:
        print(f"                   {float(traj.min_obstacle_clearance_per_frame().min()):+.4f} m to obstacles")
    from . import plot

    figure = plot.trajectories(traj, title=f"{scenario.name}: {sim.method.name}, {scenario.num_agents} agents, "
                                           f"{traj.steps_run} steps ({sim.time:.4g} s)")
    _save_figure(figure, out, args.dpi)
    print(f"plot written to {out}")
    return 0 if traj.all_arrived else 1


def _method(text: str):
    """A method from its name, case-insensitive (orca, vo, rvo, hrvo, adaptive, grid, force, ...),
    optionally with settings, each read as its declared type: ``orca:time_gap=0.5:seed=3``."""
    from .methods import method_from_name, method_from_text

    try:
        method_from_name(text.strip().split(":")[0])
    except ValueError as error:  # an unknown name: the message lists the known ones
        raise argparse.ArgumentTypeError(str(error)) from None
    try:
        return method_from_text(text)
    except (ValueError, TypeError) as error:
        raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None


def _methods(text: str) -> list:
    parts = [part for part in text.split(",") if part.strip()]
    if not parts:
        raise argparse.ArgumentTypeError("expected comma-separated method names, e.g. orca,rvo,hrvo")
    return [_method(part) for part in parts]


def _scenario(text: str) -> str:
    from .scenarios import ALL_SCENARIOS

    if text not in ALL_SCENARIOS:
        raise argparse.ArgumentTypeError(f"unknown scenario {text!r}; choose from {', '.join(ALL_SCENARIOS)}")
    return text


def _dimensions(name: str) -> int:
    from .scenarios import SCENARIOS_3D

    return 3 if name in SCENARIOS_3D else 2


def _methods_for(dimensions: int) -> str:
    """The short names of the methods that run in ``dimensions``-D, for messages."""
    from .comparison import unsupported
    from .methods import method_from_name

    return ", ".join(name for name in short_names() if unsupported(method_from_name(name), dimensions) is None)


def _refuse_unsupported(method, option: str, scenario: str) -> None:
    """A clear error naming the option when ``method`` cannot run ``scenario`` (a planar method in 3D)."""
    from .comparison import unsupported

    dimensions = _dimensions(scenario)
    reason = unsupported(method, dimensions)
    if reason:
        raise ValueError(f"{option}: {reason}; scenario {scenario} is {dimensions}D: choose from "
                         f"{_methods_for(dimensions)}")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _dpi(text: str) -> int:
    """A plot resolution within the bounds every figure of vosim takes (``vosim.plot``'s ``MAX_DPI``)."""
    from .plot import MAX_DPI, MIN_DPI

    value = _positive(text)
    if not MIN_DPI <= value <= MAX_DPI:
        raise argparse.ArgumentTypeError(f"{value} is outside {MIN_DPI} to {MAX_DPI} dots per inch "
                                         f"(a figure at {MAX_DPI} dpi is already print quality)")
    return value
def _seeds(text: str):
    """--seeds: a number K (seeds 0 to K-1) or "auto"."""
    return "auto" if text.strip().lower() == "auto" else _positive(text)


def _precision(text: str) -> dict:
    """--precision: ``metric=half_width`` pairs, comma-separated."""
    wanted = {}
    for part in text.split(","):
        name, sep, value = part.strip().partition("=")
        try:
            wanted[name.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep or not name.strip() or not wanted[name.strip()] > 0:
            raise argparse.ArgumentTypeError(f"expected metric=half_width pairs such as makespan=0.5, got {part!r}")
    return wanted


def _run_until_arrived(sim, steps: int, label: str | None):
    """sim.run(steps, until_arrived=True), saying on stdout (not as a warning) when agents did not arrive."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"run\(until_arrived=True\)", category=RuntimeWarning)
        traj = sim.run(steps, until_arrived=True, progress=label or False)
    if not traj.all_arrived:
        stalled = int(np.sum(traj.metrics.get("stalled_agents", 0)))
        resolving = getattr(sim.method, "deadlock", "none") != "none"
        print(f"not every agent arrived within {traj.steps_run} steps ({stalled} stalled); more --steps"
              + ("" if resolving else ", or --deadlock sidestep if they are stuck"))
    return traj


def _run(args: argparse.Namespace) -> int:
    from . import scenarios

    # Refuse unusable output paths before the run, not after it.
    if args.out:
        check_trajectory_path(args.out, "--out")
    if args.animate:
        from .plot import animation_writer

        animation_writer(args.animate, "--animate")
    if args.plot:
        _check_figure_path(args.plot, "--plot")
    if args.view:
        from .view import check_page_path

        try:
            check_page_path(args.view)
        except ValueError as error:
            raise ValueError(f"--view: {error}") from None

    three_d = _dimensions(args.scenario) == 3
    if three_d and args.color_by is not None:
        raise ValueError(f"--color-by: the views of 3D scenario {args.scenario} colour the paths by agent; "
                         "leave the option out")
    factory = scenarios.ALL_SCENARIOS[args.scenario]
    if args.agents is not None:
        factory = _with_agents(factory, args.agents, args.scenario)
    seeds = list(range(args.seeds))
    if not scenarios.takes_seed(factory):
        if len(seeds) > 1:
            raise ValueError(f"--seeds is {args.seeds}; scenario {args.scenario} has one fixed layout (it takes no "
                             "seed): use --seeds 1")
        scenes = [factory()]
    else:
        scenes = [factory(seed=seed) for seed in seeds]
    method = scenes[0].method_for(args.method)
    _refuse_unsupported(method, "--method", args.scenario)
    if args.deadlock != "none":
        method = replace(method, deadlock=args.deadlock)
    sim = scenes[0].build(method) if len(seeds) == 1 else scenarios.build_batch(scenes, method=method)
    steps = args.steps if args.steps is not None else max(scene.max_steps for scene in scenes)
    print(f"vosim run: {scenes[0].name}, {scenes[0].num_agents} agents, {len(seeds)} seed(s), {method.name}, "
          f"time step {scenes[0].time_step} s, at most {steps} steps")
    traj = _run_until_arrived(sim, steps, None if args.quiet else f"{scenes[0].name}, {method.name}")
    arrived = arrived_agents(traj).reshape(len(seeds), -1).sum(axis=1)
    clearance = np.asarray(traj.min_clearance_per_frame()).reshape(len(traj.times), -1).min(axis=0)
    print(f"steps:             {traj.steps_run} ({traj.times[-1]:.2f} s simulated, {traj.wall_time:.3f} s wall time)")
    for k, seed in enumerate(seeds):
        print(f"seed {seed}: {arrived[k]} of {scenes[k].num_agents} arrived, "
              f"minimum clearance {clearance[k]:+.4f} m between agents (negative: overlap)")
    if args.out:
        written = traj.save(args.out, scenario=scenes[0] if len(seeds) == 1 else None)
        print(f"trajectory written to {written}")
    if args.view:
        from .view import size_text

        title = f"{scenes[0].name}: {method.name}" + (f", seed {seeds[0]}" if scenes[0].seed is not None else "")
        written = traj.to_html(args.view, scene=0, geometry_of=sim, title=title)
        print(f"page written to {written} ({size_text(written.stat().st_size)})")
    if args.plot or args.animate:
        from . import plot

        title = f"{scenes[0].name}: {method.name}, " + (f"seed {seeds[0]}" if scenes[0].seed is not None
                                                           else "fixed layout")
        if args.plot:
            if three_d:  # the top view and both side views, with the obstacle shapes
                figure = plot.projections(traj, obstacles=sim, scene=0, title=title)
            else:
                figure = plot.trajectories(traj, scene=0, color_by=args.color_by or "speed", title=title)
            _save_figure(figure, args.plot, args.dpi)
            print(f"plot written to {args.plot}")
        if args.animate:
            if three_d:
                plot.animate3d(traj, obstacles=sim, scene=0, path=args.animate, title=title)
            else:
                plot.animate(traj, scene=0, path=args.animate, title=title)
            print(f"animation written to {args.animate}")
    return 0 if traj.all_arrived else 1


#: What ``vosim compare`` runs without --methods (those that support the scenarios' dimensions).
DEFAULT_METHODS = "orca,rvo,hrvo,adaptive,force"


def _compare(args: argparse.Namespace) -> int:
    from .comparison import compare, summarize, unsupported

    dimensions = sorted({_dimensions(name) for name in args.scenario})
    if args.methods is None:  # the default methods that run every scenario given
        chosen = _methods(DEFAULT_METHODS)
        left_out = [m.name for m in chosen if any(unsupported(m, d) for d in dimensions)]
        args.methods = [m for m in chosen if m.name not in left_out]
        if left_out:
            print(f"leaving out {', '.join(left_out)}: planar only, and a scenario is 3D")
    for method in args.methods:
        for name in args.scenario:
            _refuse_unsupported(method, "--methods", name)
    if args.out:
        writable_folder(Path(args.out).parent, "--out")
    if args.plot:
        _check_figure_path(args.plot, "--plot", suffix_optional=True)
    methods = {}
    for method in args.methods:
        methods.setdefault(method.name, method)
    baseline = _baseline(args.baseline, methods) if args.report else None
    if (args.seeds == "auto") != (args.precision is not None):
        raise SystemExit("vosim compare: error: --seeds auto and --precision go together (the seeds are chosen "
                         "until each interval is that narrow)")
    if args.seeds == "auto":
        table = compare(methods, args.scenario, seeds="auto", precision=args.precision, max_seeds=args.max_seeds,
                        steps=args.steps, progress=not args.quiet)
        print(f"seeds chosen in rounds: {table.attrs['inputs']['seed_rounds']}")
    else:
        table = compare(methods, args.scenario, seeds=range(args.seeds), steps=args.steps, progress=not args.quiet)
    if args.out:
        with atomic_path(args.out) as temporary:
            table.to_csv(temporary, index=False, float_format=CSV_FLOAT_FORMAT)
        print(f"results written to {args.out}")
    summary = summarize(table)
    print(summary.to_string(formatters=column_formatters(summary), na_rep="-"))
    print("means over the seeds; finished: share of seeds in which every agent arrived; "
          "makespan (s) only where all seeds finished")
    if args.report:
        from .comparison import report

        written = report(table, args.report, baseline=baseline, interval=args.interval)
        print(f"report written to {written['report.md']} (inputs SHA-256 {written['inputs_sha256']})")
    if args.plot:
        from . import plot
        from .plot import FIGURES

        stem = args.plot.rsplit(".", 1)
        for name in FIGURES if table.attrs.get("series") else FIGURES[:1]:  # over time: with per-step data only
            figure = plot.compare(table, figure=name)
            path = f"{stem[0]}_{name}.{stem[1]}" if len(stem) == 2 else f"{args.plot}_{name}.png"
            _save_figure(figure, path, args.dpi)
            print(f"figure written to {path}")
    return 0


def _baseline(text: str | None, methods: dict) -> str | None:
    """The label of --baseline among the methods compared (a name or alias, any case); None: the first."""
    if text is None:
        return None
    wanted = _resolved_name(text) or text.strip().lower()
    for label in methods:
        if label.lower() == wanted:
            return label
    raise SystemExit(f"vosim compare: error: --baseline {text!r} is not among the methods compared "
                     f"({', '.join(methods)})")


def _resolved_name(text: str) -> str | None:
    try:
        return _method(text).name.lower()
    except (argparse.ArgumentTypeError, ValueError):
        return None


# A scenario's agent count, by the name of its parameter, and the groups the
# count is shared among.
AGENT_COUNTS = (("n", 1), ("n_per_group", 2))


def _with_agents(factory, agents: int, name: str):
    """The scenario factory with its agent count set from ``--agents``."""
    import functools
    import inspect

    parameters = inspect.signature(factory).parameters
    for parameter, groups in AGENT_COUNTS:
        if parameter in parameters:
            if agents % groups:
                raise ValueError(f"--agents is {agents}; scenario {name} has {groups} groups of equal size: "
                                 f"give a multiple of {groups}")
            return functools.partial(factory, **{parameter: agents // groups})
    raise ValueError(f"--agents is {agents}; scenario {name} has a fixed set of agents (it takes no count): "
                     "leave the option out")


def _validate(args: argparse.Namespace) -> int:
    from . import validation

    folder = writable_folder(args.plot, "--plot", create=True) if args.plot else None  # before any test runs
    if args.method_deprecated is not None:
        print("vosim validate: --method is deprecated; use --methods (as vosim compare does)", file=sys.stderr)
    methods = args.methods if args.methods is not None else args.method_deprecated or [_method("orca")]
    results = []
    for method in methods:
        results += validation.run_all(method, tests=args.tests, seeds=args.seeds, pass_mark=args.pass_mark,
                                      variant=args.variant)
    if args.quiet:  # the table alone; the exit code says whether everything passed
        print(validation.table(results, validation.NOT_EXPRESSIBLE))
        if folder is not None:
            _write_validation_figures(results, folder, args.dpi, quiet=True)
        return 0 if all(r.passed for r in results) else 1
    if args.variant:
        print(f"broken variant {args.variant}: {validation.VARIANTS[args.variant]}")
    print(validation.table(results, validation.NOT_EXPRESSIBLE))
    if results and results[0].seeds is not None:
        print("verdicts: " + results[0].criterion.rsplit("; ", 1)[-1] + " (each cell: pass or FAIL, k/n seeds passed, "
              "then seed 0's values)")
    for result in results:
        if result.notes:
            print(f"{result.test}, {result.method}: {result.notes}")
    print("criteria: " + "; ".join(dict.fromkeys(f"{r.test}: {r.criterion}" for r in results)))
    if folder is not None:
        _write_validation_figures(results, folder, args.dpi, quiet=False)
    return 0 if all(r.passed for r in results) else 1


def _write_validation_figures(results, folder, dpi: int, *, quiet: bool) -> None:
    import matplotlib.pyplot as plt

    from . import validation

    for result in results:  # one figure open at a time
        for stem, figure in validation.figures([result]).items():
            path = folder / f"{stem}.png"
            _save_figure(figure, path, dpi)
            plt.close(figure)
            if not quiet:
                print(f"figure written to {path}")


def _tests(text: str) -> list:
    from .validation import TESTS

    parts = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [part for part in parts if part not in TESTS]
    if not parts or unknown:
        raise argparse.ArgumentTypeError(f"expected comma-separated test ids from {', '.join(TESTS)} "
                                         "(RiMEA numbers, 'overlap' for vosim's no-overlap test, "
                                         "imo4/imo8 for IMO MSC.1/Circ.1238, iso7/iso9/iso12 for ISO 20414, bottleneck for flow "
                                         "against width)")
    return parts


def _first_line(function) -> str:
    """The first sentence of a docstring, as plain text (no reST roles or literals)."""
    import re

    paragraph = " ".join((function.__doc__ or "").strip().split("\n\n")[0].split())
    sentence = re.split(r"(?<=\.)\s", paragraph)[0]
    return re.sub(r":\w+:`~?([^`]+)`", r"\1", sentence).replace("``", "")


LISTS = ("scenarios", "methods", "tests")


def _list(args: argparse.Namespace) -> int:
    from . import _core, scenarios, validation
    from .methods import method_from_name

    shown = LISTS if args.what == "all" else (args.what,)
    if "scenarios" in shown:
        print("scenarios (run and compare --scenario NAME):")
        for name, make in scenarios.SCENARIOS.items():
            print(f"  {name:<28} {_first_line(make)}")
        for name, make in scenarios.SCENARIOS_3D.items():
            print(f"  {name:<28} 3D: {_first_line(make)}")
    if "methods" in shown:
        registry = {entry["name"]: entry for entry in _core.METHODS}
        print("methods (run --method NAME, compare --methods LIST, validate --method LIST):")
        for short in short_names():
            entry = registry[type(method_from_name(short)).__name__]
            dimensions = " and ".join(f"{d}D" for d in entry["dimensions"])
            print(f"  {short:<28} {entry['name']}: {entry['summary']} ({dimensions})")
    if "tests" in shown:
        print("validation tests (validate --tests LIST):")
        for test, function in validation.TESTS.items():
            print(f"  {test:<28} {_first_line(function)}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="vosim", description="Multi-agent collision avoidance simulations.")
    parser.add_argument("--version", action="version", version=f"vosim {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = commands.add_parser(
        "demo", help="run one of RVO2's example scenarios with ORCA and plot the trajectories",
        description="Runs one of RVO2's example scenarios with ORCA until every agent has arrived, "
                    "prints a summary (steps, times, arrivals, closest approach) and writes a plot. "
                    "circle: agents on a circle swap to the antipodes; blocks: four groups cross "
                    "between four square obstacles.")
    demo.add_argument("--scenario", choices=["circle", "blocks"], default="circle",
                      help="which scenario (default: %(default)s)")
    demo.add_argument("--out", default=None,
                      help="where to write the plot (default: the scenario's name, circle.png or blocks.png)")
    demo.add_argument("--agents", type=int, default=250,
                      help="number of agents of the circle scenario (default: %(default)s)")
    demo.add_argument("--max-steps", type=int, default=None,
                      help="give up after this many steps (default: the scenario's limit)")
    demo.add_argument("--dpi", type=_dpi, default=150, help="plot resolution (default: %(default)s)")
    demo.add_argument("--quiet", action="store_true", help="no progress bar")
    demo.set_defaults(handler=_demo)

    from .scenarios import SCENARIOS, SCENARIOS_3D

    names = f"{', '.join(SCENARIOS)}, or in 3D {', '.join(SCENARIOS_3D)}"
    run = commands.add_parser(
        "run", help="run a scenario with a method; save, plot or animate the result",
        description="Runs a ready-made scenario with an avoidance method until every agent has arrived (or "
                    "--steps have passed), prints a summary per seed, and optionally writes the trajectory "
                    "(.npz, read back with vosim.load), a plot and an animation. Exit code 0 when every "
                    "agent arrived, 1 otherwise, 2 for bad arguments.")
    run.add_argument("--scenario", type=_scenario, required=True, metavar="NAME",
                     help=f"the scenario: one of {names}")
    run.add_argument("--method", type=_method, default=None, metavar="NAME",
                     help=f"the avoidance method: {', '.join(short_names()[:-1])} or {short_names()[-1]}, with "
                          "default settings (default: the scenario's own, ORCA with whatever perturbation it needs)")
    run.add_argument("--agents", type=_positive, default=None, metavar="N",
                     help="how many agents, for a scenario that takes a count (two groups: N/2 each; default: "
                          "the scenario's own)")
    run.add_argument("--steps", type=_positive, default=None,
                     help="give up after this many steps (default: the scenario's suggested limit)")
    run.add_argument("--deadlock", choices=DEADLOCK_RULES, default="none",
                     help="deadlock resolution of the method (see vosim.Method; default: %(default)s)")
    run.add_argument("--seeds", type=_positive, default=1, metavar="K",
                     help="run seeds 0 to K-1 together as the scenes of one batch (default: %(default)s)")
    run.add_argument("--out", default=None, metavar="PATH", help="write the trajectory to this .npz file")
    run.add_argument("--plot", default=None, metavar="PATH",
                     help="write the paths of seed 0 to this image (3D: the top and both side views)")
    run.add_argument("--color-by", choices=["agent", "speed", "time"], default=None,
                     help="colour of the paths in --plot (default: speed; a 3D scenario's top and side views "
                          "colour them by agent)")
    run.add_argument("--animate", default=None, metavar="PATH",
                     help="write an animation of seed 0 (.gif with pillow, .mp4 when ffmpeg is installed; "
                          "3D: in 3D axes)")
    run.add_argument("--dpi", type=_dpi, default=150, help="resolution of --plot (default: %(default)s)")
    run.add_argument("--view", default=None, metavar="PATH",
                     help="write an interactive page of the run (the first seed) to this .html file: play, "
                          "scrub, zoom, click agents; one self-contained file")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.set_defaults(handler=_run)

    compare = commands.add_parser(
        "compare", help="compare methods on scenarios over seeds; write a table of metrics",
        description="Runs every method on every scenario for seeds 0 to K-1 (all seeds of a method in one "
                    "batch) and writes one row per method, scenario and seed with the engine's metrics "
                    "(collisions, arrivals, makespan, path efficiency, ...). Prints the mean per method.")
    compare.add_argument("--scenario", type=_scenario, action="append", required=True, metavar="NAME",
                         help=f"a scenario (repeat the option for several): one of {names}")
    compare.add_argument("--methods", type=_methods, default=None,
                         metavar="LIST", help=f"comma-separated methods: {', '.join(short_names())} "
                                              f"(default: {DEFAULT_METHODS}, without the planar ones "
                                              "when a scenario is 3D)")
    compare.add_argument("--seeds", type=_seeds, default=4, metavar="K",
                         help="seeds 0 to K-1 per method and scenario (default: %(default)s); 'auto' with "
                              "--precision: seeds in rounds until the intervals are that narrow")
    compare.add_argument("--precision", type=_precision, default=None, metavar="METRIC=H,...",
                         help="with --seeds auto: the half-width wanted of each metric's 95 %% interval, e.g. "
                              "makespan=0.5,mean_speed=0.01")
    compare.add_argument("--max-seeds", type=_positive, default=64,
                         help="with --seeds auto: the most seeds (default: %(default)s)")
    compare.add_argument("--steps", type=_positive, default=None,
                         help="most steps per run (default: the scenario's suggested limit)")
    compare.add_argument("--out", default=None, metavar="PATH", help="write the table to this .csv file")
    compare.add_argument("--plot", default=None, metavar="PATH",
                         help="write the standard figures next to this path (results.png gives "
                              "results_metrics.png, results_collisions.png, results_arrivals.png)")
    compare.add_argument("--dpi", type=_dpi, default=120, help="resolution of --plot (default: %(default)s)")
    compare.add_argument("--report", default=None, metavar="DIR",
                         help="write a report into this folder: Markdown and LaTeX tables of the means with "
                              "confidence intervals and of the paired differences from the baseline, figures, "
                              "and the provenance (version, methods, scenarios, seeds, machine, digest of the "
                              "inputs)")
    compare.add_argument("--baseline", default=None, metavar="METHOD",
                         help="the method --report pairs the others with (default: the first of --methods)")
    compare.add_argument("--interval", choices=("percentile", "bca", "t"), default="percentile",
                         help="the report's 95 %% intervals: bootstrap percentile, bootstrap BCa or Student's t "
                              "(default: %(default)s)")
    compare.add_argument("--quiet", action="store_true", help="no progress bars")
    compare.set_defaults(handler=_compare)

    validate = commands.add_parser(
        "validate", help="run the RiMEA verification tests vosim can express; print the table",
        description="Runs the RiMEA 4.1.1 verification tests that vosim's scenario features can express "
                    "(pedestrians of radius 0.25 m at 1.34 m/s, time step 0.1 s) with each method, prints a "
                    "table of pass/fail with the measured values (and the tests not expressible yet; vosim's own "
                    "no-overlap test runs as 'overlap'), and "
                    "optionally writes figures. Exit code 0 when every test passed, 1 otherwise.")
    validate.add_argument("--methods", type=_methods, default=None, metavar="LIST",
                          help=f"comma-separated methods: {', '.join(short_names())}, each optionally with "
                               "settings, e.g. orca:time_gap=0.5 (default: orca)")
    validate.add_argument("--method", type=_methods, default=None, dest="method_deprecated",
                          help=argparse.SUPPRESS)  # the name before --methods; deprecated
    validate.add_argument("--tests", type=_tests, default=None, metavar="LIST",
                          help="comma-separated test ids: RiMEA numbers, 'overlap' for the no-overlap test, "
                               "imo4, imo8 (IMO MSC.1/Circ.1238), iso7, iso9, iso12 (ISO 20414), bottleneck (flow against width) "
                               "(default: every test vosim can express)")
    from .validation import VARIANTS

    validate.add_argument("--seeds", type=_positive, default=5,
                          help="run each test with seeds 0 to N-1 and report k/N passed (default: %(default)s)")
    validate.add_argument("--pass-mark", type=_positive, default=None, metavar="K",
                          help="a verdict passes when at least K seeds pass (default: 4 of 5, the same share "
                               "of other counts, rounded up)")
    validate.add_argument("--variant", default=None, choices=sorted(VARIANTS),
                          help="run on a deliberately broken variant of every scene, which the verdicts must "
                               "catch: " + "; ".join(f"{k}: {v}" for k, v in VARIANTS.items()))
    validate.add_argument("--plot", default=None, metavar="DIR", help="write the figures into this folder")
    validate.add_argument("--dpi", type=_dpi, default=120, help="resolution of --plot (default: %(default)s)")
    validate.add_argument("--quiet", action="store_true",
                          help="print the table alone (no notes, criteria or file names); the exit code says "
                               "whether every verdict passed")
    validate.set_defaults(handler=_validate)

    listing = commands.add_parser(
        "list", help="list the scenarios, methods and validation tests by the names the other commands take",
        description="Prints the ready-made scenarios, the avoidance methods and the validation tests, each with "
                    "the name that run, compare and validate take and a line saying what it is.")
    listing.add_argument("what", nargs="?", choices=("all",) + LISTS, default="all",
                         help="what to list (default: %(default)s)")
    listing.set_defaults(handler=_list)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except (ValueError, TypeError) as error:
        print(f"vosim: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nvosim: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
