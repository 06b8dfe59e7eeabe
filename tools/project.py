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


def site_url(student: bool = False) -> str:
    """The published reader's site (``course.site_url``), or the student site under it."""
    url = str(config()["course"]["site_url"]).rstrip("/")
    return f"{url}/student" if student else url


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


def first_cell(lang: str) -> str:
    """The only code cell that differs between languages: it sets the language and, in Colab,
    installs the helper package from the repository named in _config.yml."""
    return f'''# The language of this notebook; in Google Colab, also install the course's helper package.
LANG = "{lang}"

import sys

if "google.colab" in sys.modules:
    import subprocess

    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "{install_spec()}"],
        check=True,
    )

from beyond_accuracy import set_language

set_language(LANG)'''
