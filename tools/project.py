"""Facts about the project every tool reads: paths, languages, the repository URL, the sources."""

from __future__ import annotations

import copy
from functools import lru_cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
KINDS = ("chapters", "labs")


@lru_cache(maxsize=8)
def _parsed_yaml(text: str):
    return yaml.safe_load(text)


def read_yaml(path: Path):
    """``yaml.safe_load`` of a file: parsed once per content (the file is read at every call, so an
    edit is seen), a fresh copy each time (callers may change it). _config.yml is read thousands
    of times by a test run or a build (every link of a derived notebook asks for the site's URL):
    parsing it each time took 3.6 ms, about 20 s of a test run."""
    return copy.deepcopy(_parsed_yaml(Path(path).read_text(encoding="utf-8")))


def config() -> dict:
    return read_yaml(ROOT / "_config.yml")


def toc() -> dict:
    return read_yaml(ROOT / "_toc.yml")


def language_of(path: Path) -> str:
    """The language of a chapter or lab source: the folder it is in (chapters/<lang>/…)."""
    return Path(path).parent.name


def languages() -> list[str]:
    return list(config()["course"]["languages"])


def reference_language() -> str:
    return config()["course"]["reference_language"]


def repository_url() -> str:
    return config()["repository"]["url"].rstrip("/")


def release() -> str:
    """The version of the package that students install (``course.release`` in _config.yml)."""
    return str(config()["course"]["release"])


def release_tag() -> str:
    """The git tag of the release: ``v<release>``."""
    return f"v{release()}"


def install_spec() -> str:
    """The pip requirement the Colab cell (and Binder) installs: this repository at the release tag,
    never a moving branch, so the code a student runs is the code the stored outputs came from."""
    return f"beyond-accuracy @ git+{repository_url()}@{release_tag()}"


def site_url() -> str:
    """The published site (``course.site_url``), which every notebook's links and figures name."""
    return str(config()["course"]["site_url"]).rstrip("/")


def notebooks_branch() -> str:
    """The branch that holds the published student notebooks, which every launch button opens."""
    return str(config()["course"]["notebooks_branch"])


def notebook_sources(lang: str | None = None) -> list[Path]:
    """Every MyST notebook (a .md with a jupytext header) under chapters/ and labs/."""
    found = []
    for kind in KINDS:
        for path in sorted((ROOT / kind).glob(f"{lang or '*'}/*.md")):
            head = path.read_text(encoding="utf-8")[:400]
            if head.startswith("---") and "jupytext:" in head:
                found.append(path)
    return found


@lru_cache(maxsize=1)
def _terms_csv() -> dict[str, dict[str, str]]:
    """The package's terminology table, read from the checkout (tools that run before the package
    is installed, such as the Colab-like run in Colab's image, need its texts too)."""
    import csv

    with (ROOT / "src" / "beyond_accuracy" / "data" / "strings" / "terms.csv").open(
        encoding="utf-8", newline=""
    ) as f:
        return {row["key"]: row for row in csv.DictReader(f)}


def first_cell(lang: str) -> str:
    """The only code cell that differs between languages: it sets the language and, in Colab,
    installs the helper package from the repository named in _config.yml, says in the notebook's
    language what pip installed or upgraded, and stops (asking for a restart of the session) only
    if a package it upgraded had already been imported in the session."""
    said = {key: _terms_csv()[key][lang] for key in ("install_changed", "install_unchanged",
            "install_no_restart", "install_restart")}  # fmt: skip
    return f'''# The language of this notebook; in Google Colab, also install the course's helper package.
LANG = "{lang}"

import sys

if "google.colab" in sys.modules:
    import subprocess
    from importlib import metadata

    def installed():
        return {{d.metadata["Name"].lower().replace("_", "-"): d.version for d in metadata.distributions()}}

    before = installed()
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "{install_spec()}"],
        check=True,
    )
    changed = {{name: version for name, version in installed().items() if before.get(name) != version}}
    listed = ", ".join(f"{{n}} {{before[n]}} → {{v}}" if n in before else f"{{n}} {{v}}" for n, v in sorted(changed.items()))
    print({said["install_changed"]!r}.format(changes=listed) if changed else {said["install_unchanged"]!r})
    in_use = sorted(
        module
        for module, names in metadata.packages_distributions().items()
        if module in sys.modules and {{n.lower().replace("_", "-") for n in names}} & changed.keys()
    )
    if in_use:  # the session runs the old versions of these modules: a restart loads the new ones
        raise SystemExit({said["install_restart"]!r}.format(modules=", ".join(in_use)))
    print({said["install_no_restart"]!r})

from beyond_accuracy import set_language

set_language(LANG)'''
