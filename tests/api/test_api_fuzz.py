"""A random API-sequence fuzz: whatever a user does in whatever order, vosim answers or refuses cleanly.

Each sequence (one seed) builds a simulator and then makes random calls:
methods switched among every planar method, agents added and removed,
obstacles, sinks, speed zones, a periodic axis, waypoints, goals and exits
set (moving obstacles among them), short runs and single steps, inspections, the time step changed, checkpoints (``save_state`` /
``load_state``, pickle, deepcopy) taken and continued from, values written
into the views, the thread count changed. Some calls get bad arguments on
purpose. Every call must either succeed or raise ValueError, TypeError or
RuntimeError with a message that is not an internal error; any other
exception, a crash, a hang, or a non-finite position of an active agent
after a step is a failure.

Sequences run in child processes, so that a crash is caught and reported
with its seed and the calls that led to it instead of ending pytest. The
test runs a fixed set of seeds (``VOSIM_API_FUZZ_SEEDS``, default 40); more,
standalone::

    python -m tests.api.test_api_fuzz --seeds 1000 --minutes 10
    python -m tests.api.test_api_fuzz --replay 17          # one sequence here, each call printed
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

#: Calls per sequence, and the most agents added at once (a crowd now and then, so that steps use threads).
CALLS = 60
MOST_ADDED = 25
CROWD = 1500
#: What a documented refusal may be.
DOCUMENTED = (ValueError, TypeError, RuntimeError)
#: Words of an error that should never reach a user (the core's internal-error message).
INTERNAL = ("internal error", "Please report")
#: Seconds a child may take per sequence before it counts as hung.
SECONDS_PER_SEQUENCE = 30.0
#: What a crash is put down to when the same sequence runs clean with every method the engine was given
#: kept alive: a thread's scratch recognised by the address of the method that made it, which a freed
#: method's successor could reuse (the method-switching crash, fixed; the diagnosis stays for the report).
METHOD_SWITCH_CRASH = "method switch: a freed method's scratch taken for its successor's"


def _planar_methods():
    import vosim
    from vosim.comparison import unsupported

    return [cls for cls in vosim.methods.METHODS.values() if unsupported(cls(), 2) is None]


class Sequence:
    """One seed's random calls on one simulator (replaced by its checkpoints as they are taken)."""

    def __init__(self, seed: int, folder: Path, log=None):
        import vosim

        self.vosim = vosim
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.folder = folder
        self.log = log or (lambda text: None)
        self.methods = _planar_methods()
        self.sim = vosim.Simulator(time_step=self.rng.choice([0.05, 0.1, 0.25]))
        self.obstacles: list[int] = []
        self.calls = 0
        self.refused = 0
        self.switches = 0

    # --- what the calls are made of -------------------------------------------------------------------

    def _point(self, spread: float = 10.0) -> list:
        return [self.rng.uniform(-spread, spread), self.rng.uniform(-spread, spread)]

    def _rectangle(self, size: float = 2.0) -> list:
        x, y = self._point(8.0)
        w, h = self.rng.uniform(0.2, size), self.rng.uniform(0.2, size)
        return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]]

    def _spoil(self, value):
        """Now and then a bad value in place of a good one (the call must refuse it cleanly)."""
        if self.rng.random() > 0.1:
            return value
        return self.rng.choice([float("nan"), -1.0, float("inf"), "text", None, [], 1e300, True])

    def _ids(self, share: float = 0.5) -> np.ndarray:
        ids = np.asarray(self.sim.ids)
        if len(ids) == 0:
            return ids
        return ids[self.np_rng.random(len(ids)) < share]

    # --- the calls -----------------------------------------------------------------------------------

    def switch_method(self):
        cls = self.rng.choice(self.methods)
        method = cls(seed=self.rng.randrange(1000), perturbation=self.rng.choice([0.0, 0.0, 0.01]))
        self.switches += 1
        self.sim.method = method
        return cls.__name__

    def add_agents(self):
        crowd = self.rng.random() < 0.1
        n = self.rng.randint(CROWD // 3, CROWD) if crowd else self.rng.randint(1, MOST_ADDED)
        spread = self.rng.choice([20.0, 40.0]) if crowd else self.rng.choice([1.0, 5.0, 10.0])
        positions = self.np_rng.uniform(-spread, spread, (n, 2))
        goals = self.np_rng.uniform(-12.0, 12.0, (n, 2))
        options = {"goals": goals, "radius": self._spoil(self.rng.uniform(0.1, 0.5))}
        if self.rng.random() < 0.3:
            options["max_acceleration"] = self.rng.uniform(0.5, 5.0)
        if self.rng.random() < 0.2:
            options["remove_at_goal"] = True
        if self.rng.random() < 0.2:
            options["start_time"] = self.rng.uniform(0.0, 1.0)
        if self.rng.random() < 0.15:
            options["kinematics"] = self.rng.choice(["differential_drive", "unicycle"])
        if self.rng.random() < 0.05:
            positions[self.rng.randrange(n)] = np.nan
        self.sim.add_agents(positions, **options)
        return f"{n} agents"

    def remove_agents(self):
        ids = self._ids(self.rng.choice([0.1, 0.5, 1.0]))
        self.sim.remove_agents(ids)
        return f"{len(ids)} ids"

    def add_obstacle(self):
        kind = self.rng.choice(["polygon", "polygon", "moving polygon", "wall", "moving wall", "boundary"])
        velocity = self._spoil([self.rng.uniform(-1.0, 1.0), self.rng.uniform(-1.0, 1.0)])
        if kind.endswith("polygon"):
            velocity = velocity if kind.startswith("moving") else None
            self.obstacles.append(self.sim.add_obstacle(self._spoil(self._rectangle()), velocity=velocity))
        elif kind.endswith("wall"):
            velocity = velocity if kind.startswith("moving") else None
            self.obstacles.append(self.sim.add_wall([self._point(), self._point()], velocity=velocity))
        else:
            box = self.rng.uniform(12.0, 20.0)
            self.obstacles.append(self.sim.add_boundary([[-box, -box], [box, -box], [box, box], [-box, box]]))
        return kind

    def remove_obstacle(self):
        if not self.obstacles:
            return "none"
        obstacle = self.obstacles.pop(self.rng.randrange(len(self.obstacles)))
        self.sim.remove_obstacle(obstacle)
        return str(obstacle)

    def add_sink(self):
        if self.rng.random() < 0.5:
            points = self._rectangle(3.0)
        else:
            points = [self._point(), self._point()]
        times = {}
        if self.rng.random() < 0.3:
            times = {"opens_at": self.rng.uniform(0.0, 1.0), "closes_at": self.rng.uniform(1.0, 5.0)}
        return str(self.sim.add_sink(self._spoil(points), **times))

    def remove_sink(self):
        sinks = self.sim.sinks
        if not sinks:
            return "none"
        sink = self.rng.choice(sinks).id
        self.sim.remove_sink(sink)
        return str(sink)

    def add_speed_zone(self):
        factor = self._spoil(self.rng.choice([0.3, 0.5, 0.8, 1.5, 2.0, 4.0]))
        return str(self.sim.add_speed_zone(self._rectangle(6.0), factor))

    def remove_speed_zone(self):
        zones = self.sim.speed_zones
        if not zones:
            return "none"
        zone = self.rng.choice(zones).id
        self.sim.remove_speed_zone(zone)
        return str(zone)

    def add_stage(self):
        ids = self._spoil(self._ids(self.rng.choice([0.1, 0.3])))
        places = self._spoil(self.np_rng.uniform(-10.0, 10.0, (self.rng.randint(1, 6), 2)))
        rules = {"release_after": self._spoil(self.rng.choice([None, 0.0, 0.5, 2.0])),
                 "release_count": self._spoil(self.rng.choice([None, 1, 3]))}
        add = self.sim.add_queue if self.rng.random() < 0.5 else self.sim.add_waiting_area
        return repr(add(places, agents=ids, **rules))

    def release_stage(self):
        stages = self.sim.waiting_stages
        if not stages:
            return "none"
        stage = self.rng.choice(stages)
        if self.rng.random() < 0.3:
            stage.join(self._spoil(self._ids(0.2)))
            return f"{stage.id} joined"
        return f"{stage.id}: {stage.release(self._spoil(self.rng.choice([None, 0, 1, 5])))}"

    def set_periodic(self):
        if self.rng.random() < 0.3:
            self.sim.clear_periodic()
            return "cleared"
        low = self.rng.uniform(-25.0, -5.0)
        bounds = (low, low + self._spoil(self.rng.uniform(5.0, 50.0)))
        self.sim.set_periodic(**{self.rng.choice(["x", "y"]): bounds})
        return str(bounds)

    def set_waypoints(self):
        ids = self._ids()
        waypoints = [self.np_rng.uniform(-10.0, 10.0, (self.rng.randint(1, 3), 2)) for _ in ids]
        self.sim.set_waypoints(ids, waypoints, waypoint_advance=self.rng.choice(["distance", "passed", "visible"]))
        return f"{len(ids)} tracks"

    def set_goals(self):
        ids = self._ids()
        plan = self.rng.choice([None, None, None, "roadmap"])
        self.sim.set_goals(ids, self.np_rng.uniform(-10.0, 10.0, (len(ids), 2)), plan=plan)
        return f"{len(ids)} goals, plan {plan}"

    def set_exits(self):
        sinks = [s.id for s in self.sim.sinks]
        chosen = self.rng.sample(sinks, self.rng.randint(1, len(sinks))) if sinks else [0]
        choice = self.rng.choice(["nearest", "quickest", "assigned"])
        options = {}
        if choice == "assigned":
            options["assignment"] = [self.rng.choice(chosen) for _ in range(self.sim.num_agents)]
        plan = self.rng.choice([None, None, "roadmap"])
        self.sim.set_exits(chosen, choice=choice, plan=plan, reevaluate=self.rng.choice([None, 0.5]), **options)
        return f"{chosen} {choice} plan {plan}"

    def write_view(self):
        name = self.rng.choice(["pref_speed", "max_speed", "radius", "velocities", "time_horizon", "priority"])
        view = getattr(self.sim, name)
        if np.size(view) == 0:
            return name
        value = self._spoil(self.rng.uniform(0.1, 2.0))
        view[self.rng.randrange(len(view))] = value
        return f"{name} = {value!r}"

    def run(self):
        steps = self.rng.randint(1, 5)
        traj = self.sim.run(steps, record_every=self.rng.choice([1, 2, 5]))
        if traj.periodic is not None and self.rng.random() < 0.3:
            try:
                traj.unwrapped_positions()
            except ValueError:  # frames too far apart to tell: documented
                pass
        return f"{steps} steps"

    def step(self):
        self.sim.step()
        return "1 step"

    def checkpoint(self):
        how = self.rng.choice(["file", "pickle", "deepcopy"])
        if how == "file":
            path = self.sim.save_state(self.folder / f"state{self.calls}.npz")
            self.sim = self.vosim.load_state(path)
        elif how == "pickle":
            self.sim = pickle.loads(pickle.dumps(self.sim))
        else:
            self.sim = copy.deepcopy(self.sim)
        return how

    def inspect(self):
        ids = np.asarray(self.sim.ids)
        agent = int(self.rng.choice(ids)) if len(ids) and self.rng.random() < 0.9 else self.rng.randrange(-2, 10**6)
        self.sim.inspect(agent)
        self.sim.neighbors()
        return str(agent)

    def time_step(self):
        self.sim.time_step = self._spoil(self.rng.choice([0.05, 0.1, 0.25, 0.5]))
        return str(self.sim.time_step)

    def threads(self):
        count = self.rng.choice([1, 2, 3, 4])
        self.vosim.set_num_threads(count)
        return str(count)

    CALLS_BY_WEIGHT = [("switch_method", 6), ("add_agents", 6), ("remove_agents", 2), ("add_obstacle", 2),
                       ("remove_obstacle", 1), ("add_sink", 2), ("remove_sink", 1), ("add_speed_zone", 2),
                       ("remove_speed_zone", 1), ("set_periodic", 1), ("set_waypoints", 1), ("set_goals", 1),
                       ("set_exits", 1), ("write_view", 2), ("run", 8), ("step", 3), ("checkpoint", 2),
                       ("inspect", 1), ("time_step", 1), ("threads", 1), ("add_stage", 2), ("release_stage", 2)]

    def make_calls(self, count: int = CALLS) -> list:
        """Make ``count`` random calls; the failures, as text (empty: all answered or refused cleanly)."""
        names = [name for name, weight in self.CALLS_BY_WEIGHT for _ in range(weight)]
        failures = []
        for k in range(count):
            name = self.rng.choice(names)
            self.calls = k
            self.log(f"call {k}: {name}")
            try:
                what = getattr(self, name)()
                self.log(f"call {k}: {name}: {what}")
            except DOCUMENTED as error:
                self.refused += 1
                text = str(error)
                self.log(f"call {k}: {name}: refused: {type(error).__name__}: {text[:200]}")
                if not text or any(word in text for word in INTERNAL):
                    failures.append(f"call {k} ({name}): {type(error).__name__} {text!r}")
            except Exception as error:  # noqa: BLE001 - anything else is what the fuzz looks for
                failures.append(f"call {k} ({name}): undocumented {type(error).__name__}: {error}")
                self.log(f"call {k}: {name}: FAILED {type(error).__name__}: {error}")
            if name in ("run", "step"):
                active = np.asarray(self.sim.active, dtype=bool)
                positions = np.asarray(self.sim.positions)[active]
                if not np.isfinite(positions).all():
                    failures.append(f"call {k} ({name}): a non-finite position of an active agent")
        return failures


def run_sequence(seed: int, log=None) -> dict:
    """One sequence, here: its counts and failures."""
    with tempfile.TemporaryDirectory() as folder:
        sequence = Sequence(seed, Path(folder), log)
        failures = sequence.make_calls()
    return {"seed": seed, "calls": CALLS, "refused": sequence.refused, "switches": sequence.switches,
            "failures": failures}


def _keep_methods_alive() -> None:
    """Keep every engine method made from now on alive, so that no method's address is ever reused."""
    from vosim.methods import Method

    made = []
    make = Method._make_core

    def kept(self):
        core = make(self)
        made.append(core)
        return core

    Method._make_core = kept


def _child(seeds: list[int], keep_methods: bool = False) -> None:
    """Run ``seeds`` one after another, saying on stdout where each begins, each call, and each result."""
    import faulthandler

    faulthandler.enable()
    if keep_methods:
        _keep_methods_alive()
    for seed in seeds:
        print(f"BEGIN {seed}", flush=True)
        result = run_sequence(seed, log=lambda text, s=seed: print(f"CALL {s} {text}", flush=True))
        print(f"END {json.dumps(result)}", flush=True)


def run_in_children(seeds: list[int], *, deadline: float | None = None, chunk: int = 10) -> dict:
    """Run ``seeds`` in child processes, ``chunk`` at a time; a crashed or hung child is reported with its
    seed and the calls it made, and the seeds after it go on in a new child. Stops starting sequences once
    ``deadline`` (``time.monotonic()``) has passed."""
    started = time.monotonic()
    here = Path(__file__).resolve()
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(p) for p in sys.path if p])}
    results, crashes = [], []
    todo = list(seeds)
    while todo and (deadline is None or time.monotonic() < deadline):
        batch, todo = todo[:chunk], todo[chunk:]
        try:
            child = subprocess.run([sys.executable, str(here), "--child", *map(str, batch)], capture_output=True,
                                   text=True, env=environment, timeout=SECONDS_PER_SEQUENCE * len(batch))
            out, err, status = child.stdout, child.stderr, child.returncode
        except subprocess.TimeoutExpired as expired:
            out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else (expired.stdout or "")
            err, status = "timed out", None
        done = [json.loads(line[4:]) for line in out.splitlines() if line.startswith("END ")]
        results += done
        finished = {r["seed"] for r in done}
        begun = [int(line.split()[1]) for line in out.splitlines() if line.startswith("BEGIN ")]
        broken = [s for s in begun if s not in finished]
        if status != 0 or broken:
            # The sequence under way; None when every sequence ended and the process died after them (at exit).
            seed = broken[0] if broken else (batch[0] if not done else None)
            trail = [line.split(" ", 2)[2] for line in out.splitlines() if line.startswith(f"CALL {seed} ")]
            kind = "hung" if status is None else f"exit status {status}" + ("" if seed is not None else
                                                                            f" at exit, after seeds {batch}")
            cause = None if status is None else _cause(batch if seed is None else [seed], environment)
            crashes.append({"seed": seed, "kind": kind, "calls": trail[-12:], "stderr": err[-3000:], "cause": cause})
            rest = [s for s in batch if s not in finished and s != seed]
            todo = rest + todo
    return {"results": results, "crashes": crashes, "seconds": time.monotonic() - started,
            "not_run": todo}


def _cause(seeds: list[int], environment: dict) -> str | None:
    """METHOD_SWITCH_CRASH when ``seeds`` run clean with every method kept alive, else None."""
    try:
        again = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--keep-methods", "--child",
                                *map(str, seeds)], capture_output=True, text=True, env=environment,
                               timeout=SECONDS_PER_SEQUENCE * len(seeds))
    except subprocess.TimeoutExpired:
        return None
    ends = [json.loads(line[4:]) for line in again.stdout.splitlines() if line.startswith("END ")]
    clean = again.returncode == 0 and len(ends) == len(seeds) and not any(end["failures"] for end in ends)
    return METHOD_SWITCH_CRASH if clean else None


def summary(outcome: dict) -> str:
    results = outcome["results"]
    calls = sum(r["calls"] for r in results)
    refused = sum(r["refused"] for r in results)
    failed = [r for r in results if r["failures"]]
    seeds = [r["seed"] for r in results] + [c["seed"] for c in outcome["crashes"] if c["seed"] is not None]
    span = f"seeds {min(seeds)}-{max(seeds)}" if seeds else "no seeds"
    return (f"api fuzz: {len(seeds)} sequences ({span}), {calls} calls "
            f"({refused} refused as documented, {sum(r['switches'] for r in results)} method switches), "
            f"{len(failed)} with failures, {len(outcome['crashes'])} crashed or hung, "
            f"{outcome['seconds']:.1f} s")


def report(outcome: dict) -> str:
    lines = [summary(outcome)]
    for result in outcome["results"]:
        for failure in result["failures"]:
            lines.append(f"seed {result['seed']}: {failure}")
    for crash in outcome["crashes"]:
        cause = f" ({crash['cause']})" if crash["cause"] else " (runs the same way with no method freed)"
        who = "a child" if crash["seed"] is None else f"seed {crash['seed']}"
        lines.append(f"{who}: {crash['kind']}{cause}" + (" after calls:" if crash["calls"] else ""))
        lines += [f"    {call}" for call in crash["calls"]]
        lines.append("    stderr: " + crash["stderr"].strip().replace("\n", "\n    ")[-1500:])
        if crash["seed"] is not None:
            lines.append(f"    replay: python -m tests.api.test_api_fuzz --replay {crash['seed']}")
    return "\n".join(lines)


def test_random_api_sequences_answer_or_refuse_cleanly():
    count = int(os.environ.get("VOSIM_API_FUZZ_SEEDS", "40"))
    outcome = run_in_children(list(range(count)))
    text = report(outcome)
    print(text)
    failures = [r for r in outcome["results"] if r["failures"]]
    # Every crash fails, the method-switching one too (fixed: scratch belongs to a method instance number).
    assert not failures and not outcome["crashes"], text
    assert len(outcome["results"]) == count, text


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.api.test_api_fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=40, help="seeds 0 to N-1 (default: %(default)s)")
    parser.add_argument("--first", type=int, default=0, help="the first seed (default: %(default)s)")
    parser.add_argument("--minutes", type=float, default=None, help="start no sequence after this long")
    parser.add_argument("--replay", type=int, default=None, help="run one seed here, printing every call")
    parser.add_argument("--child", type=int, nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--keep-methods", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        _child(args.child, args.keep_methods)
        return 0
    if args.replay is not None:
        import faulthandler

        faulthandler.enable()
        result = run_sequence(args.replay, log=print)
        print(json.dumps(result, indent=1))
        return 1 if result["failures"] else 0
    deadline = None if args.minutes is None else time.monotonic() + 60.0 * args.minutes
    outcome = run_in_children(list(range(args.first, args.first + args.seeds)), deadline=deadline)
    print(report(outcome))
    if outcome["not_run"]:
        print(f"not run (time was up): {len(outcome['not_run'])} seeds from {outcome['not_run'][0]}")
    known = sum(c["cause"] == METHOD_SWITCH_CRASH for c in outcome["crashes"])
    print(f"crashes put down to the method switch: {known} of {len(outcome['crashes'])}")
    return 1 if outcome["crashes"] or any(r["failures"] for r in outcome["results"]) else 0


if __name__ == "__main__":
    sys.exit(main())
