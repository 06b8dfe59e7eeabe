"""The tests of one page: what `make test` would say about it, without running the whole suite.

    python -m tools.book.check chapters/en/02-imbalance.md                    # make check NB=...
    python -m tools.book.check --languages all chapters/en/02-imbalance.md    # make check NB=... ALL=1

Runs pytest on every fast test whose id names the page, in any language (the parity tests compare
the languages of a page with one another), the tests that read every page (EVERY_PAGE), and nbval
on the page's notebook in the languages asked for (default: the page's own), the languages in one
kernel as in `make test`, with the check that the committed .ipynb is what a re-execution writes.
Left out: the slow tests (a site build, the graders, the figures), which only `make test` runs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from tools.book.notebooks import rel, selected
from tools.project import KINDS, ROOT, notebook_sources

# Tests that read every page at once (typography, settled terms): a page's check runs them too.
EVERY_PAGE = (
    "test_every_source_is_typographically_clean",
    "test_settled_terms_do_not_drift_back_in_the_pages",
)


def command(page: Path, langs: str | None = None) -> list[str]:
    """The pytest command line that checks ``page`` (a chapter's or lab's .md in any language)."""
    page = Path(page).resolve()
    if page.suffix != ".md" or not page.exists() or page.parent.parent.name not in KINDS:
        raise ValueError(f"{page}: not a page of the book (chapters/<lang>/*.md or labs/<lang>/*.md)")
    nbval = []
    name = page.name  # a page that is not a notebook: its .md in the tests' ids
    if page in {p.resolve() for p in notebook_sources()}:
        nbval = [rel(p.with_suffix(".ipynb")) for p in selected([page], langs)]
        name = page.stem  # also the .ipynb's cells and the slides of the chapter
    args = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q"]
    args += ["-m", "not slow", "-k", " or ".join([name, *EVERY_PAGE]), "tests"]
    if nbval:
        args += [
            "--nbval",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            "tests/nbval_sanitize.cfg",
            *nbval,
        ]
    return args


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("page", type=Path, help="a chapter's or lab's .md")
    parser.add_argument("-l", "--languages", help='nbval in these languages: "all" or codes such as "it,es"')
    args = parser.parse_args(argv)
    try:
        cmd = command(args.page, args.languages)
    except ValueError as exc:
        parser.exit(2, f"{parser.prog}: {exc}\nnothing was run.\n")
    print(" ".join(cmd[1:]), flush=True)
    return subprocess.run(cmd, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
