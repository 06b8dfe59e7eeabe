"""Mutation testing of the helper package: how many deliberate one-line bugs the fast tests catch.

mutmut (configured in pyproject.toml, [tool.mutmut]) plants one small change at a time ("mutant")
in metrics.py, language.py, ordinal.py, checks/_engine.py and plots.py, and runs, for each mutant,
only the fast tests of the listed test files that call the mutated function (fastest first,
stopping at the first failure). A mutant is killed when a test fails (or hangs: a timeout), and
survives when every test still passes. Its working copy is mutants/ (git-ignored).

Some survivors cannot be killed by any input: the mutated code computes the same thing (an
"equivalent mutant"). They are listed, each with the reason, in tools/maintenance/mutation_equivalents.csv
(columns mutant, mutated_line, reason; a mutant that only deletes a line has "(deleted) <line>"
as its mutated_line); the score leaves them out:

    score = killed / (mutants - equivalent)

An entry whose mutated line no longer matches the mutant of that name (the source changed and
mutmut renumbered) is reported as stale and not counted.

    python -m tools.maintenance.mutation                      # everything, from scratch (make mutation)
    python -m tools.maintenance.mutation --resume             # keep mutants/ and test only what is unchecked
    python -m tools.maintenance.mutation 'beyond_accuracy.language*'   # one module (mutmut name patterns)
    python -m tools.maintenance.mutation --report             # print the score of the last run, run nothing

Hypothesis runs derandomised, without its example database and without shrinking (a failing
example is enough to kill a mutant), so a run gives the same verdicts every time.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import os
import resource
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

from tools.project import ROOT

EQUIVALENTS = Path(__file__).with_name("mutation_equivalents.csv")
WORK = ROOT / "mutants"
DETECTED = {"killed", "timeout", "caught by type check", "segfault"}


def hypothesis_profile() -> None:
    """Deterministic verdicts: no random seed, no database of earlier failures, no shrinking."""
    from hypothesis import Phase, settings

    settings.register_profile(
        "mutation", derandomize=True, database=None, phases=[Phase.explicit, Phase.generate]
    )
    settings.load_profile("mutation")


def run_mutmut(patterns: list[str], max_children: int) -> None:
    """``mutmut run`` in this process, so that its forked workers inherit the Hypothesis profile."""
    from mutmut.__main__ import cli

    hypothesis_profile()
    try:
        cli.main(["run", "--max-children", str(max_children), *patterns], standalone_mode=False)
    except SystemExit as stop:
        if stop.code not in (0, None):
            raise


def results() -> dict[str, tuple[str, Path]]:
    """Every mutant of the last run: name -> (status, source file)."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.stats import status_by_exit_code
    from mutmut.utils.file_utils import walk_mutatable_files

    out = {}
    for path in walk_mutatable_files():
        data = SourceFileMutationData(path=path)
        data.load()
        for name, code in data.exit_code_by_key.items():
            out[name] = (status_by_exit_code[code], path)
    return out


def diff_of(name: str, path: Path) -> str:
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    return get_diff_for_mutant(name, path=path)


def mutated_lines(diff: str) -> list[str]:
    """The lines a mutant writes; for a mutant that only deletes, "(deleted) " and each line it
    deletes (the form of its row in tools/maintenance/mutation_equivalents.csv)."""
    added = [
        line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")
    ]
    if added:
        return added
    return [
        "(deleted) " + line[1:].strip()
        for line in diff.splitlines()
        if line.startswith("-") and not line.startswith("---")
    ]


def read_equivalents() -> list[dict[str, str]]:
    with EQUIVALENTS.open(encoding="utf-8", newline="") as f:
        return [row for row in csv.DictReader(f) if row["mutant"].strip()]


def module_of(name: str) -> str:
    return name.split(".x")[0].removeprefix("beyond_accuracy.")


def report(patterns: list[str]) -> int:
    found = results()
    if patterns:
        found = {n: r for n, r in found.items() if any(fnmatch.fnmatch(n, p) for p in patterns)}
    if not found:
        print("no mutants: run `python -m tools.maintenance.mutation` first")
        return 1
    equivalent, stale = {}, []
    for row in read_equivalents():
        name = row["mutant"].strip()
        if name not in found:
            if not patterns:
                stale.append((name, "no such mutant"))
            continue
        status, path = found[name]
        if row["mutated_line"].strip() not in mutated_lines(diff_of(name, path)):
            stale.append((name, "the mutant of that name changes another line now"))
        elif status in DETECTED:
            stale.append((name, f"listed as equivalent but {status}"))
        else:
            equivalent[name] = row["reason"]

    unchecked = sorted(n for n, (s, _) in found.items() if s == "not checked")
    survivors = sorted(n for n, (s, _) in found.items() if s not in DETECTED and n not in equivalent)
    survivors = [n for n in survivors if n not in unchecked]

    print("\nMutation score per module (killed / (mutants - equivalent)):")
    modules = sorted({module_of(n) for n in found})
    for module in modules:
        names = [n for n in found if module_of(n) == module and n not in unchecked]
        killed = sum(found[n][0] in DETECTED for n in names)
        eq = sum(n in equivalent for n in names)
        print(
            f"  {module:18} {killed:5} / {len(names) - eq:5}  ({_pct(killed, len(names) - eq)})"
            f"   mutants checked {len(names)}, equivalent {eq}"
        )
    statuses = Counter(s for s, _ in found.values())
    killed = sum(n for s, n in statuses.items() if s in DETECTED)
    total = len(found) - len(unchecked) - len(equivalent)

    if equivalent:
        print(f"\nEquivalent mutants ({len(equivalent)}), from {EQUIVALENTS.relative_to(ROOT)}:")
        for name, reason in sorted(equivalent.items()):
            print(f"  {name}: {reason}")
    if stale:
        print(f"\nStale entries of {EQUIVALENTS.relative_to(ROOT)} (not counted):")
        for name, why in stale:
            print(f"  {name}: {why}")
    if survivors:
        print(f"\nSurviving mutants ({len(survivors)}):")
        for name in survivors:
            status, path = found[name]
            print(f"\n# {name}: {status}")
            print(
                "\n".join(
                    line
                    for line in diff_of(name, path).splitlines()
                    if line[:1] in "+-" and line[:3] not in ("+++", "---")
                )
            )
    if unchecked:
        print(
            f"\nINCOMPLETE: {len(unchecked)} of {len(found)} mutants were not checked (an interrupted or"
            " partial run): the score covers the checked ones only; `--resume` finishes the run"
        )
    print("\nStatuses:", ", ".join(f"{s} {n}" for s, n in statuses.most_common()))
    print(
        f"MUTATION SCORE: {killed} killed / {total} non-equivalent mutants = {_pct(killed, total)}"
        f"  ({len(survivors)} surviving, {len(equivalent)} equivalent)"
    )
    return 0


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "n/a"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "patterns", nargs="*", help="mutmut mutant-name patterns, e.g. 'beyond_accuracy.ordinal*'"
    )
    parser.add_argument("--max-children", type=int, default=int(os.environ.get("JOBS", 2)))
    parser.add_argument("--resume", action="store_true", help="keep mutants/ from the last run")
    parser.add_argument("--report", action="store_true", help="only print the last run's results")
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    if not args.report:
        if not args.resume and not args.patterns:
            shutil.rmtree(WORK, ignore_errors=True)
        start = time.perf_counter()
        run_mutmut(args.patterns, args.max_children)
        wall = time.perf_counter() - start
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
        print(f"\nmutmut run: wall {wall:.0f} s, CPU {cpu:.0f} s ({args.max_children} children)")
    return report(args.patterns)


if __name__ == "__main__":
    sys.exit(main())
