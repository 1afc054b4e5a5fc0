"""Only the simulator classes (self._engine) touch the engine; the package's
other modules go through the simulators' methods."""

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "vosim"


def test_no_module_reads_another_objects_engine():
    reads = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in re.finditer(r"(\w+)\._engine\b", line):
                if match.group(1) != "self":
                    reads.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    assert reads == []
