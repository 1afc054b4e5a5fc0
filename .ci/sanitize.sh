#!/usr/bin/env bash
# The sanitizer lane: vosim built with AddressSanitizer and
# UndefinedBehaviorSanitizer (the VOSIM_SANITIZE CMake option) in its own
# virtual environment and build directory, then the test suite run under
# them. Any sanitizer report, in the test process or in a process it starts
# (a notebook kernel, a fresh interpreter), fails the lane.
#
# Only the tests that drive the C++ core with hostile or long-lived input
# run here (SANITIZE_TESTS below): file fuzzing and loading, the soak,
# the engine, obstacles, metrics, checkpoints. Under the sanitizers the whole
# suite runs several times slower than its 9 minutes, past CI's half hour
# with the build; the rest (plots, notebooks, sweeps, validation, parity
# runs, the CLI) goes through the same native calls with friendlier input.
# Tests marked slow are left out as well. (The subset: 665 tests, 7 min
# without the sanitizers on a busy 2-core machine.)
#
# Needs a GCC or Clang that ships libasan and libubsan (CXX, default g++).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.ci-venv-sanitize
python3 -m venv "$venv"
# shellcheck disable=SC1091
. "$venv/bin/activate"
python -m pip install --quiet --upgrade pip
pip install --quiet -Cbuild-dir=build/sanitize -Ccmake.build-type=RelWithDebInfo \
    -Ccmake.define.VOSIM_SANITIZE=ON ".[test]"

# Python itself is not built with the sanitizers, so their runtimes must be
# loaded first, before the interpreter.
cxx=${CXX:-g++}
runtimes=""
for name in libasan.so libubsan.so; do
    path=$("$cxx" -print-file-name="$name")
    if [[ ! -e $path ]]; then
        echo "sanitize.sh: $cxx has no $name (got '$path')" >&2
        exit 2
    fi
    runtimes="$runtimes $path"
done

SANITIZE_TESTS=(
    # untrusted files and inputs
    tests/files/test_fuzz_files.py tests/files/test_untrusted_files.py tests/files/test_corrupt_files.py tests/files/test_io.py
    tests/api/test_fuzz.py tests/api/test_fuzz3d.py tests/api/test_bad_input_3d.py tests/engine/test_degenerate.py
    # checkpoints and the soak
    tests/files/test_checkpoints.py tests/files/test_checkpoint_obstacles.py tests/files/test_checkpoint_deadlock.py tests/files/test_soak.py
    # the engine: agents, neighbours, obstacles, methods, metrics, threads
    tests/engine/test_agents.py tests/engine/test_agents3d.py tests/engine/test_run.py tests/engine/test_determinism.py
    tests/engine/test_neighbors.py tests/engine/test_neighbor_gathering.py tests/engine/test_large_maps.py
    tests/engine/test_obstacles.py tests/engine/test_obstacles3d_engine.py tests/engine/test_moving_obstacles.py tests/engine/test_shapes3d.py
    tests/methods/test_methods.py tests/methods/test_methods3d.py tests/methods/test_differential_drive.py tests/methods/test_nh_orca.py
    tests/engine/test_metrics.py tests/engine/test_metrics_bounded.py tests/engine/test_metric_table.py tests/engine/test_memory.py tests/engine/test_lazy_fields.py
    tests/engine/test_batch.py
    tests/engine/test_waypoints.py tests/engine/test_waypoints3d.py tests/engine/test_field_table.py tests/methods/test_deadlock.py tests/engine/test_sinks.py tests/engine/test_speed_zones.py
    tests/methods/test_collision_free_speed.py tests/methods/test_social_force.py
    # methods switched between runs, hostile parameters, walls, forks, checkpoints of every scene feature
    tests/methods/test_method_switching.py tests/methods/test_hostile_parameters.py tests/engine/test_walls_any_time_step.py
    tests/engine/test_fork_safety.py tests/files/test_checkpoint_features.py tests/files/test_crafted_states.py tests/methods/test_method_parameter_fuzz.py
    tests/features/test_waiting_stages.py tests/files/test_older_states.py
    # the lane kernels at every instruction-set level the machine has
    tests/engine/test_simd_levels.py
    # random API sequences (methods switched, agents, scene features, checkpoints, threads), in child processes
    tests/api/test_api_fuzz.py
)
# Fewer API-fuzz sequences than the normal lane's 40: each is several times slower here.
export VOSIM_API_FUZZ_SEEDS=12

reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
# detect_leaks=0: CPython does not free everything at exit, which
# LeakSanitizer would report as leaks. Reports are written to files so that
# those of child processes are seen too. allocator_may_return_null=1: an
# impossible allocation fails as it does without the sanitizer (Python raises
# MemoryError), so that a damaged pickle whose length field the unpickler
# believes is refused as in the normal lane instead of aborting the process.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:allocator_may_return_null=1:log_path=$reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan"

status=0
export LD_PRELOAD="${runtimes# }"
python -c 'import sys, vosim; sys.exit(0 if vosim._core.SANITIZED else "sanitize.sh: vosim was built without sanitizers")' &&
    python -m pytest -m "not slow" -p no:cacheprovider "${SANITIZE_TESTS[@]}" || status=$?
unset LD_PRELOAD

# With allocator_may_return_null=1 AddressSanitizer still writes a one-line
# warning for each impossible allocation it turned down; only other lines fail.
if compgen -G "$reports/*" > /dev/null; then
    echo "sanitize.sh: sanitizer reports:" >&2
    cat "$reports"/* >&2
    if grep -h -v -e 'WARNING: AddressSanitizer failed to allocate' -e '^[[:space:]]*$' "$reports"/* > /dev/null; then
        status=1
    else
        echo "sanitize.sh: (only allocations refused as the unsanitized build refuses them)" >&2
    fi
fi
if [[ $status -ne 0 ]]; then
    echo "sanitize.sh: FAILED (exit status $status)" >&2
fi
exit $status
