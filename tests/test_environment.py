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
