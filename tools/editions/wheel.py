"""The package as a student gets it: a wheel built from this checkout, installed non-editable.

- :func:`build_wheel` builds the wheel offline (no build isolation: setuptools comes from the
  environment, pinned in constraints.txt) from a copy of the project files, so the checkout gets
  no build/ or egg-info folder.
- :func:`wheel_environment` makes a virtual environment that holds nothing of the repository but
  that wheel: the package is installed into it with pip, non-editable; its dependencies come from
  the running environment through a ``.pth`` line (their .pth files, among them the editable
  install of the package, are not read), and a kernel spec starts its Python.

    python -m tools.editions.wheel            # -> dist/beyond_accuracy-<version>-py3-none-any.whl
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from tools.project import ROOT

PROJECT_FILES = ("pyproject.toml", "README.md", "LICENSE", "src")


def build_wheel(dest: Path) -> Path:
    """Build the package's wheel into dest (offline) and return its path."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="ba-wheel-src-") as tmp:
        for name in PROJECT_FILES:
            src = ROOT / name
            if src.is_dir():
                shutil.copytree(
                    src, Path(tmp) / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info")
                )
            else:
                shutil.copy2(src, Path(tmp) / name)
        before = set(dest.glob("*.whl"))
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
             "--no-index", "--wheel-dir", str(dest), tmp],
            check=True,
        )  # fmt: skip
    wheels = sorted(set(dest.glob("beyond_accuracy-*.whl")) - before) or sorted(
        dest.glob("beyond_accuracy-*.whl")
    )
    if not wheels:
        raise RuntimeError(f"no wheel was built in {dest}")
    return wheels[-1]


def venv_python(venv: Path) -> Path:
    return Path(venv) / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def site_packages(python: Path) -> Path:
    out = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    )
    return Path(out.stdout.strip())


def install(python: Path, *requirements: str, quiet: bool = True, no_deps: bool = False) -> str:
    """pip install into the environment of ``python`` (with the running pip); returns pip's output."""
    cmd = [sys.executable, "-m", "pip", "--python", str(python), "install"]
    cmd += ["--quiet"] * quiet + ["--no-deps", "--no-index"] * no_deps + list(requirements)
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def kernel_spec(python: Path, folder: Path, name: str = "student") -> Path:
    """A Jupyter kernel spec (in folder/name/) that starts ipykernel with this Python."""
    spec = Path(folder) / name
    spec.mkdir(parents=True, exist_ok=True)
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": f"Python ({name})", "language": "python"}),
        encoding="utf-8",
    )
    return spec


def wheel_environment(folder: Path, wheel: Path) -> Path:
    """A virtual environment in folder/venv with the wheel installed non-editable; returns its Python."""
    venv = Path(folder) / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv_python(venv)
    install(python, str(wheel), no_deps=True)
    deps = Path(sysconfig.get_paths()["purelib"])
    (site_packages(python) / "_course_dependencies.pth").write_text(f"{deps}\n", encoding="utf-8")
    return python


def main() -> int:
    wheel = build_wheel(ROOT / "dist")
    print(wheel.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
