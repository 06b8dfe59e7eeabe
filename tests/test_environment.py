"""environment.yml (conda, Binder) and pyproject.toml (pip) declare the same dependencies."""

import re

import tomllib
import yaml

from tools.project import ROOT


def normalise(spec: str) -> tuple[str, str]:
    name, constraint = re.match(r"^([A-Za-z0-9_.\-]+)\s*(.*)$", spec.strip()).groups()
    return name.lower().replace("_", "-"), constraint.replace(" ", "")


def pip_dependencies() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in ("book", "lab", "test"):
        specs += project["optional-dependencies"][extra]
    return dict(normalise(s) for s in specs)


def conda_dependencies() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    plain = [d for d in env["dependencies"] if isinstance(d, str)]
    return dict(normalise(d) for d in plain if not d.startswith(("python=", "pip")) or d.startswith("pyyaml"))


def test_environment_matches_pyproject():
    assert conda_dependencies() == pip_dependencies()


def test_environment_installs_the_package_itself():
    env = yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))
    pip_section = [d for d in env["dependencies"] if isinstance(d, dict)][0]["pip"]
    assert "-e ." in pip_section


def test_constraints_pin_every_dependency():
    pins = {
        normalise(line.split("==")[0])[0]
        for line in (ROOT / "constraints.txt").read_text().splitlines()
        if "==" in line
    }
    missing = set(pip_dependencies()) - pins
    assert not missing, f"constraints.txt does not pin {missing}: run `make lock`"


# ---------------------------------------------------------------------------------------------
# The bounds of the package's dependencies, against the trials `make bounds` recorded


def _trials():
    from tools.maintenance.bounds import read_table

    return read_table()


def test_no_dependency_bound_admits_a_version_that_failed_with_the_pinned_scikit_learn():
    """A bound that admits a version which cannot be imported (or fails the package's tests) lets
    pip keep that version where it is already installed; the trials say which versions fail."""
    from packaging.version import Version

    from tools.maintenance.bounds import FAILURES, canonical, dependencies, pinned

    trials = _trials()
    for req in dependencies():
        failed = [
            t for t in trials if canonical(t["package"]) == canonical(req.name) and t["result"] in FAILURES
        ]
        for t in failed:
            assert not req.specifier.contains(t["version"], prereleases=True), (
                f"{req} admits {req.name} {t['version']}, which failed on Python {t['python']}"
                f" with scikit-learn {t['scikit_learn']}: {t['detail']}"
            )
    sklearn = next(r for r in dependencies() if canonical(r.name) == "scikit-learn")
    assert sklearn.specifier.contains(pinned("scikit-learn"))
    assert all(Version(t["scikit_learn"]) >= Version("1.8") for t in trials if t["scikit_learn"])


def test_every_lower_bound_was_tried_passed_and_is_the_oldest_that_passed():
    from packaging.version import Version

    from tools.maintenance.bounds import EVERY_LOWER_BOUND, PASS, canonical, dependencies, lower_bound

    trials = _trials()
    for req in dependencies():
        bound = lower_bound(req)
        assert bound, f"{req}: no lower bound"
        mine = [t for t in trials if canonical(t["package"]) == canonical(req.name)]
        together = [t for t in trials if t["package"] == EVERY_LOWER_BOUND and t["result"] == PASS]
        held = {canonical(n): v for t in together for n, v in (p.split("==") for p in t["version"].split())}
        assert any(Version(t["version"]) == Version(bound) and t["result"] == PASS for t in mine) or (
            Version(held.get(canonical(req.name), "0")) == Version(bound)
        ), f"{req}: no trial with {req.name} {bound} passed (`make bounds`)"
        older = [t for t in mine if Version(t["version"]) < Version(bound) and t["result"] == PASS]
        assert not older, (
            f"{req}: {req.name} {older[0]['version']} passed too: the bound is higher than needed"
        )
    latest = [t for t in trials if t["package"] == EVERY_LOWER_BOUND]
    assert latest and latest[-1]["result"] == PASS, "every dependency at its lower bound, together"
    held = {canonical(n): v for n, v in (p.split("==") for p in latest[-1]["version"].split())}
    bounds = {canonical(r.name): str(Version(lower_bound(r))) for r in dependencies()}
    assert held == bounds, f"the joint trial held {held}, the bounds are {bounds}: `make bounds`"


def test_colabs_preinstalled_versions_satisfy_every_bound_but_scikit_learns():
    """In Colab the install cell upgrades scikit-learn (1.8 or newer needed) and nothing else that
    Colab already has (tools/editions/colab_runtime.csv)."""
    from tools.editions.colab import colab_runtime
    from tools.maintenance.bounds import canonical, dependencies

    colab = {canonical(n): v for n, v in colab_runtime().packages.items()}
    outside = [
        f"{req} (Colab: {colab.get(canonical(req.name))})"
        for req in dependencies()
        if canonical(req.name) in colab and not req.specifier.contains(colab[canonical(req.name)])
    ]
    assert outside == [f"scikit-learn>=1.8 (Colab: {colab['scikit-learn']})"]
    missing = [req.name for req in dependencies() if canonical(req.name) not in colab]
    assert not missing, f"not in the Colab table: {missing}"
    assert "ipywidgets" not in {canonical(r.name) for r in dependencies()}, "anywidget brings Colab's"
