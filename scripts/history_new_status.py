"""Fill the reading history's ``new_status`` column from the saved scorecards.

Run after the chapters' notebooks have been executed (their scorecards saved)::

    python scripts/history_new_status.py

Each entry's ``new_status`` becomes the present status of its claim
(:func:`privlib.scorecard.history_status`): the status of a reproduction row, the status and
kind of another row, or blank when the claim has no row of its own.
"""
from __future__ import annotations

import csv

from privlib.scorecard import HISTORY_COLUMNS, history_status, load_history, load_scorecards, readings_dir


def main() -> int:
    history = load_history()
    history["new_status"] = history_status(history, load_scorecards())
    path = readings_dir() / "history.csv"
    history[HISTORY_COLUMNS].to_csv(path, index=False, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    print(f"{path}: new_status of {int((history['new_status'] != '').sum())} of {len(history)} entries")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
