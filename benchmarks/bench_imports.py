"""Import cost of every privlib module, next to ``import numpy, pandas`` (issue 13, item 8).

    python benchmarks/bench_imports.py [privlib.module ...]

For ``import numpy, pandas`` itself and for each privlib module: the seconds and the MB of
peak memory (max RSS) that importing it adds, in a fresh interpreter, best of 3 (least time).
A module's cost is measured after ``import numpy, pandas`` (what it adds to them); the target
is at most 0.1 s and 10 MB per module.  Without arguments: ``privlib`` and every module and
package found under ``privlib/`` (private submodules included).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S, TARGET_MB = 0.1, 10.0

_CODE = ("import time, resource; {pre}r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; "
         "t = time.perf_counter(); {stmt}; dt = time.perf_counter() - t; "
         "r1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; print(dt, (r1 - r0) / 1024)")


def measure(stmt: str, pre: str = "import numpy, pandas; ", repeat: int = 3) -> tuple[float, float]:
    """(seconds, MB) that ``stmt`` adds after ``pre``, best of ``repeat`` fresh interpreters."""
    best = None
    for _ in range(repeat):
        res = subprocess.run([sys.executable, "-c", _CODE.format(pre=pre, stmt=stmt)], capture_output=True,
                             text=True, cwd=ROOT)
        if res.returncode != 0:
            raise RuntimeError(res.stderr.strip().splitlines()[-1])
        dt, mb = map(float, res.stdout.split())
        best = (dt, mb) if best is None or dt < best[0] else best
    return best


def modules() -> list[str]:
    """Every module under ``privlib/``, found from the files: nothing is imported here (a child
    process starts with its parent's peak memory on Linux, which would hide the children's)."""
    out = []
    for path in sorted((ROOT / "privlib").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(".".join(parts))
    return sorted(out)


def main(argv: list[str]) -> None:
    names = argv or modules()
    base = measure("import numpy, pandas", pre="")
    print(f"{'import':<40s} {'seconds':>8s} {'MB':>7s}   (baseline: import numpy, pandas)")
    print(f"{'numpy, pandas (from nothing)':<40s} {base[0]:8.3f} {base[1]:7.1f}")
    over = []
    for name in names:
        try:
            dt, mb = measure(f"import {name}")
        except RuntimeError as exc:
            print(f"{name:<40s}   failed: {exc}")
            continue
        flag = "" if dt <= TARGET_S and mb <= TARGET_MB else "   over target"
        if flag:
            over.append(name)
        print(f"{'+ ' + name:<40s} {dt:8.3f} {mb:7.1f}{flag}")
    print(f"\ntarget: +{TARGET_S} s and +{TARGET_MB:.0f} MB per module; over: {over or 'none'}")


if __name__ == "__main__":
    main(sys.argv[1:])
