#!/usr/bin/env bash
# The sanitizer lane: vosim built with AddressSanitizer and
# UndefinedBehaviorSanitizer (the VOSIM_SANITIZE CMake option) in its own
# virtual environment and build directory, then the test suite run under
# them. Any sanitizer report, in the test process or in a process it starts
# (a notebook kernel, a fresh interpreter), fails the lane.
#
# Left out, because under the sanitizers they take several times as long
# and reach the core only through calls the other tests make: the tests
# marked slow (whole reference runs), and those whose time goes into
# matplotlib and Jupyter (pictures, notebooks, the README's examples).
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

reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
# detect_leaks=0: CPython does not free everything at exit, which
# LeakSanitizer would report as leaks. Reports are written to files so that
# those of child processes are seen too.
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:log_path=$reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan"

status=0
export LD_PRELOAD="${runtimes# }"
python -c 'import sys, vosim; sys.exit(0 if vosim._core.SANITIZED else "sanitize.sh: vosim was built without sanitizers")' &&
    python -m pytest -m "not slow" -p no:cacheprovider \
        --ignore=tests/test_notebooks.py --ignore=tests/test_figures.py --ignore=tests/test_figures_truthful.py \
        --ignore=tests/test_plot.py --ignore=tests/test_plot3d.py --ignore=tests/test_plot_headings.py \
        --deselect=tests/test_readme.py::test_every_readme_block_runs || status=$?
unset LD_PRELOAD

if compgen -G "$reports/*" > /dev/null; then
    echo "sanitize.sh: sanitizer reports:" >&2
    cat "$reports"/* >&2
    status=1
fi
if [[ $status -ne 0 ]]; then
    echo "sanitize.sh: FAILED (exit status $status)" >&2
fi
exit $status
