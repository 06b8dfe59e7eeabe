"""Facts about the project every tool reads: paths, languages, the repository URL, the sources."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "_build"
KINDS = ("chapters", "labs")


def config() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def toc() -> dict:
    return yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def languages() -> list[str]:
    return list(config()["course"]["languages"])


def reference_language() -> str:
    return config()["course"]["reference_language"]


def repository_url() -> str:
    return config()["repository"]["url"].rstrip("/")


def install_spec() -> str:
    """The pip requirement the Colab cell installs: this repository at the configured branch."""
    repo = config()["repository"]
    return f"beyond-accuracy @ git+{repo['url'].rstrip('/')}@{repo['branch']}"


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
