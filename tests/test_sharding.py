"""`make test SHARD=k/N` (tests/sharding.py): the parts of `make test` that CI runs side by side."""

import subprocess
import sys
from collections import Counter

import nbval_kernels
import pytest
import sharding
from hypothesis import given
from hypothesis import strategies as st

from tools.project import ROOT


@pytest.mark.parametrize("value", ["", "2", "0/4", "5/4", "a/4", "2/b", "-1/4", "1/0"])
def test_a_shard_that_is_not_k_of_n_is_refused(value):
    with pytest.raises(ValueError, match="--shard"):
        sharding.parse(value)


def test_a_shard_is_k_of_n():
    assert sharding.parse("2/5") == (2, 5) and sharding.parse("1/1") == (1, 1)


units_strategy = st.dictionaries(
    st.text("abcdef/*.:", min_size=1, max_size=8),
    st.tuples(st.integers(1, 50), st.sets(st.sampled_from(["site", "editions", "tmp_path"]))),
    min_size=1,
    max_size=40,
)


@given(
    units_strategy, st.integers(1, 6), st.dictionaries(st.text("abcdef/*.:", max_size=8), st.floats(0, 500))
)
def test_every_unit_goes_to_one_part_and_no_part_is_much_heavier_than_its_share(units, n, times):
    part = sharding.assign(units, n, times)
    assert part.keys() == units.keys() and set(part.values()) <= set(range(1, n + 1))
    assert part == sharding.assign(dict(reversed(units.items())), n, times)  # decided by content
    weight = {s: times.get(s, count * sharding.UNKNOWN_TEST_SECONDS) for s, (count, _) in units.items()}
    fixtures = sum(sharding.FIXTURE_SECONDS.values())
    load = Counter()
    for scope, k in part.items():
        load[k] += weight[scope]
    # longest first, each to the lightest part: no part exceeds an even share by more than one unit
    # (and the shared fixtures it pays for)
    assert max(load.values()) <= sum(weight.values()) / n + max(weight.values()) + fixtures + 1e-6


def collected(*args: str) -> list[str]:
    """The test ids that `pytest --collect-only` selects with args (notebooks of two languages and
    two test modules with classes: enough to see units kept whole)."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "--nbval",
         "--nbval-current-env", "tests/test_workflow.py", "tests/test_editions.py", "chapters/en",
         "chapters/it", "labs/fi", *args],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return [line for line in out.stdout.splitlines() if "::" in line]


def scope(nodeid: str) -> str:
    return nbval_kernels.family(nodeid) or nodeid.split("[", 1)[0].rsplit("::", 1)[0]


@pytest.mark.slow
def test_the_parts_together_are_the_whole_run_and_keep_each_unit_whole():
    whole = collected()
    parts = [collected("--shard", f"{k}/3") for k in (1, 2, 3)]
    assert sorted(sum(parts, [])) == sorted(whole), "a test is in no part or in two"
    owners = {}
    for k, ids in enumerate(parts):
        assert ids, f"part {k + 1} of 3 is empty"
        for nodeid in ids:
            assert owners.setdefault(scope(nodeid), k) == k, f"{scope(nodeid)} is split between parts"
    # a notebook's languages share a kernel: they stay in one part
    assert owners["chapters/*/01-confusion-matrix.ipynb"] in range(3)
    assert any("TestLab" in s for s in owners)


@pytest.mark.slow  # starts pytest: make test, not make unit
def test_a_wrong_shard_is_a_usage_error():
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests/test_sharding.py", "--shard", "3/2"],
        cwd=ROOT, capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == pytest.ExitCode.USAGE_ERROR and "K must be between 1 and N" in out.stderr


@pytest.mark.slow  # starts pytest: make test, not make unit
def test_the_times_are_recorded_per_unit(tmp_path):
    record = tmp_path / "times.csv"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--record-scope-times", str(record),
         "tests/test_sharding.py::test_a_shard_is_k_of_n"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    times = sharding.read_times(record)
    assert list(times) == ["tests/test_sharding.py"] and times["tests/test_sharding.py"] >= 0


def test_the_recorded_times_name_units_of_this_suite():
    """tests/scope_times.csv (`make test-times`) weighs the units; a unit it does not know counts a
    second per test, so a new test module needs no new row, but a row must not be garbage."""
    times = sharding.read_times()
    assert len(times) >= 50 and all(t >= 0 for t in times.values())
    for unit in times:
        path = unit.split("::", 1)[0].split("[", 1)[0]
        assert "*" in path or (ROOT / path).exists(), unit
