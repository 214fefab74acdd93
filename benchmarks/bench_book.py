"""Execution time of every notebook of the table of contents, one at a time.

    python benchmarks/bench_book.py                      # all notebooks, in TOC order
    python benchmarks/bench_book.py book/ch3_diffgen/diffgen.ipynb ...
    python benchmarks/bench_book.py --out benchmarks/results/book_times.csv

Each notebook runs in a fresh kernel of this interpreter (nbclient, as the build and nbval do)
in memory: the notebook file keeps its stored outputs (a chapter still rewrites its scorecard
CSV, as in the build).  Reported: wall time, the kernel's CPU time (user + system of the kernel
process and of its children reaped so far; worker processes still alive are not counted) and
the machine's load average when the notebook started, since a loaded machine stretches wall
time.
"""
from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its reaped children (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[i]) for i in (11, 12, 13, 14)) / ticks


def run_one(path: Path, *, cells: bool = False) -> dict:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=1800, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    load = os.getloadavg()[0]
    start = time.perf_counter()
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid if client.km.provisioner else None
        for index, cell in enumerate(nb.cells):
            t = time.perf_counter()
            client.execute_cell(cell, index)
            if cells and cell.cell_type == "code" and time.perf_counter() - t > 1:
                print(f"    cell {index:3d}: {time.perf_counter() - t:7.1f} s  {cell.source.splitlines()[0][:60]}",
                      flush=True)
        cpu = _cpu_seconds(pid) if pid else float("nan")
    wall = time.perf_counter() - start
    return {"notebook": str(path.relative_to(ROOT)), "wall_s": round(wall, 1),
            "kernel_cpu_s": round(cpu, 1), "load_at_start": round(load, 2)}


def main(argv=None) -> None:
    from conftest import toc_files

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="notebooks (default: every one of _toc.yml)")
    parser.add_argument("--out", help="also write the table to this CSV file")
    parser.add_argument("--cells", action="store_true", help="also print every cell that takes over 1 s")
    args = parser.parse_args(argv)
    paths = [Path(p).resolve() for p in args.notebooks] or [p for p in toc_files() if p.suffix == ".ipynb"]
    rows = []
    for path in paths:
        row = run_one(path, cells=args.cells)
        rows.append(row)
        print(f"{row['notebook']:<50s} {row['wall_s']:8.1f} s wall {row['kernel_cpu_s']:8.1f} s CPU"
              f"   (load {row['load_at_start']:.2f})", flush=True)
    total = sum(r["wall_s"] for r in rows)
    print(f"{'total':<50s} {total:8.1f} s wall")
    if args.out:
        with open(args.out, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
