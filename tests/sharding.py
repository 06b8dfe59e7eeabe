"""`make test SHARD=k/N`: the k-th of N parts of `make test`, for CI jobs that run side by side.

The parts are made of whole units of work (a test class, else a module; a notebook in every
language, which nbval runs in one kernel: the `--dist loadscope` units of tests/conftest.py), so a
module's fixtures are made in one part only and a notebook's languages stay in one kernel. Units are
dealt out longest first, each to the part that is lightest with it (a part that needs a built site
or every edition also pays for making it once), using the worker-seconds each unit took in a full
run (tests/scope_times.csv, written by `make test-times`); a unit the table does not know counts one
second per test. Every part is decided from the collection alone, the same in every xdist worker,
and the N parts together are exactly the whole run (tests/test_sharding.py).
"""

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path

TIMES = Path(__file__).with_name("scope_times.csv")
UNKNOWN_TEST_SECONDS = 1.0

# What a part pays once for a session fixture that its tests share, in seconds of a 2-core machine:
# the five-language site build runs beside the tests (each language about 32 s of wall time while
# the two workers run, tests/site_build.py's log), and it derives every edition first (about 20 s).
FIXTURE_SECONDS = {"site": 190.0, "editions": 20.0, "wheel_python": 5.0}


def parse(value: str) -> tuple[int, int]:
    """``"2/4"`` -> ``(2, 4)``; a ValueError saying what is wrong otherwise."""
    k, sep, n = value.partition("/")
    if not sep or not k.strip().isdigit() or not n.strip().isdigit():
        raise ValueError(f"--shard wants K/N with whole numbers, such as 2/4, not {value!r}")
    k, n = int(k), int(n)
    if not 1 <= k <= n:
        raise ValueError(f"--shard {value}: K must be between 1 and N")
    return k, n


def read_times(path: Path = TIMES) -> dict[str, float]:
    if not path.exists():
        return {}
    with open(path, encoding="utf-8") as f:
        return {row["scope"]: float(row["seconds"]) for row in csv.DictReader(f)}


def write_times(seconds: Mapping[str, float], path: Path = TIMES) -> None:
    with open(path, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["scope", "seconds"])
        for scope in sorted(seconds):
            out.writerow([scope, f"{seconds[scope]:.1f}"])


def assign(
    units: Mapping[str, tuple[int, Iterable[str]]],
    n: int,
    times: Mapping[str, float],
    fixture_seconds: Mapping[str, float] = FIXTURE_SECONDS,
) -> dict[str, int]:
    """``units``: scope -> (number of tests, fixture names its tests use). Returns scope -> part
    (1..n), the same answer for the same collection: longest unit first, each to the part that ends
    lightest with it, ties to the lowest part. The units that need the costliest fixture (the site
    build) may go to the first m parts only; of m = 1..n, the dealing whose heaviest part is
    lightest wins (dealing alone would build the site in every part)."""
    weight = {s: times.get(s, count * UNKNOWN_TEST_SECONDS) for s, (count, _) in units.items()}
    shared = {s: set(fixtures) & fixture_seconds.keys() for s, (_, fixtures) in units.items()}
    costliest = max(fixture_seconds, key=lambda f: (fixture_seconds[f], f), default=None)
    best: tuple[float, dict[str, int]] | None = None
    for m in range(1, n + 1):
        load = [0.0] * n
        paid: list[set[str]] = [set() for _ in range(n)]
        part = {}
        for scope in sorted(units, key=lambda s: (-weight[s], s)):
            allowed = range(m) if costliest in shared[scope] else range(n)
            cost = {
                i: load[i] + weight[scope] + sum(fixture_seconds[f] for f in shared[scope] - paid[i])
                for i in allowed
            }
            i = min(allowed, key=lambda i: (cost[i], i))
            load[i] = cost[i]
            paid[i] |= shared[scope]
            part[scope] = i + 1
        if best is None or max(load) < best[0]:
            best = (max(load), part)
    return best[1]
