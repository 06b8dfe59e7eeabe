"""How long each lab takes to run, as a student runs it: the pack README's week-by-week plan reads
the times from ``lab_times.csv`` beside this file.

    python -m tools.teaching.lab_times            # measure every lab (English) -> tools/teaching/lab_times.csv
    python -m tools.teaching.lab_times --lab 2    # one lab (the other rows are kept)
    python -m tools.teaching.lab_times --grading  # make grade on a class of lab 2 -> grading_time.csv

For each lab: the English student notebook (tools/editions/derive.py, the file the buttons open),
with the answers of the answer key typed into its answer cells (tools/teaching/grading/trial.py's
``Filler.right``), is run top to bottom in a fresh kernel, in an empty folder, as "Restart & Run
All" runs it. Recorded: the wall time, the kernel's CPU seconds, the number of code cells, how many
checks printed ✅ (all of them, or the row says so), and the words of the notebook's prose (what a
student reads; the pack README counts them afresh from the student notebook). The code of the labs is the same in every language, so one language is measured.
The time a student spends reading and thinking is not measured.

``--grading`` times ``make grade`` on a class of submissions of lab 2 (tools/teaching/grading/trial.py's
``class_of``: realistic submissions, right and wrong answers), one at a time, and records the wall
time per submission in ``grading_time.csv`` (the pack README's grading guide reads it).
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import re
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from tools.editions.derive import is_check_cell
from tools.project import ROOT
from tools.teaching.grading.core import LABS, lab_source

TIMES = Path(__file__).with_name("lab_times.csv")
GRADING = Path(__file__).with_name("grading_time.csv")
GRADING_FIELDS = ["lab", "lang", "submissions", "jobs", "wall_seconds", "per_submission_seconds", "measured"]
FIELDS = [
    "lab",
    "lang",
    "notebook",
    "code_cells",
    "checks",
    "checks_correct",
    "wall_seconds",
    "kernel_cpu_seconds",
    "words",
    "measured",
    "python",
    "scikit_learn",
]
_WORD = re.compile(r"[^\W\d_][\w'’-]*")


def prose_words(nb) -> int:
    """The words of a notebook's Markdown cells (code and URLs left out)."""
    words = 0
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            text = re.sub(r"```.*?```|`[^`]*`|\(https?://[^)]*\)|\$[^$]*\$", " ", cell.source, flags=re.S)
            words += len(_WORD.findall(text))
    return words


def measure(lab: int, lang: str = "en") -> dict:
    """Run the student notebook of ``lab`` with the key's answers filled in; its row."""
    import sklearn
    from nbclient import NotebookClient

    from tools.teaching.grading.trial import Filler

    nb = Filler(lab, lang).right()
    words = prose_words(nb)
    with tempfile.TemporaryDirectory() as tmp:
        before, start = os.times(), time.perf_counter()
        client = NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": tmp}})
        client.execute()
        wall = time.perf_counter() - start
        after = os.times()  # the kernel was a child of this process, ended and waited for
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    checks = [c for c in nb.cells if c.cell_type == "code" and is_check_cell(c.source)]
    correct = sum(
        any("✅" in (o.get("text", "") + str(o.get("data", {}).get("text/plain", ""))) for o in c.outputs)
        for c in checks
    )
    return {
        "lab": lab,
        "lang": lang,
        "notebook": lab_source(lab, lang).with_suffix(".ipynb").relative_to(ROOT).as_posix(),
        "code_cells": sum(c.cell_type == "code" for c in nb.cells),
        "checks": len(checks),
        "checks_correct": correct,
        "wall_seconds": f"{wall:.1f}",
        "kernel_cpu_seconds": f"{cpu:.1f}",
        "words": words,
        "measured": date.today().isoformat(),
        "python": platform.python_version(),
        "scikit_learn": sklearn.__version__,
    }


def read_times(path: Path = TIMES) -> dict[int, dict]:
    """The recorded rows, by lab."""
    with path.open(encoding="utf-8", newline="") as fh:
        return {int(row["lab"]): row for row in csv.DictReader(fh)}


def write_times(rows: dict[int, dict], path: Path = TIMES) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS, lineterminator="\n")
        writer.writeheader()
        for lab in sorted(rows):
            writer.writerow({k: rows[lab][k] for k in FIELDS})


def measure_grading(lab: int = 2, lang: str = "en", n: int = 8) -> dict:
    """``make grade`` (one submission at a time) on a class of ``n`` submissions; its row."""
    import subprocess

    from tools.teaching.grading import trial

    with tempfile.TemporaryDirectory() as tmp:
        trial.write(trial.class_of(lab, lang, n), Path(tmp), lab, lang, system_files=False)
        start = time.perf_counter()
        cmd = [sys.executable, "-m", "tools.teaching.grading", f"--lab={lab}", f"--lang={lang}",
               f"--submissions={Path(tmp) / 'submissions'}", f"--out={Path(tmp) / 'out'}", "--jobs=1"]  # fmt: skip
        subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True)
        wall = time.perf_counter() - start
    return {
        "lab": lab,
        "lang": lang,
        "submissions": n,
        "jobs": 1,
        "wall_seconds": f"{wall:.1f}",
        "per_submission_seconds": f"{wall / n:.1f}",
        "measured": date.today().isoformat(),
    }


def read_grading(path: Path = GRADING) -> dict:
    with path.open(encoding="utf-8", newline="") as fh:
        return next(csv.DictReader(fh))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lab", type=int, action="append", choices=LABS, help="only these labs")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--grading", action="store_true", help="time make grade instead")
    args = parser.parse_args(argv)
    if args.grading:
        row = measure_grading(lang=args.lang)
        with GRADING.open("w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=GRADING_FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerow(row)
        print(
            f"make grade: {row['per_submission_seconds']} s per submission ({row['submissions']} of lab {row['lab']})"
        )
        return 0
    rows = read_times() if TIMES.exists() else {}
    for lab in args.lab or LABS:
        row = measure(lab, args.lang)
        rows[lab] = row
        print(
            f"lab {lab}: {row['wall_seconds']} s wall, {row['kernel_cpu_seconds']} s kernel CPU, "
            f"{row['checks_correct']}/{row['checks']} checks ✅, {row['words']} words"
        )
        write_times(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
