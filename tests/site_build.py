"""Building a site once for a whole test run, shared by every pytest-xdist worker.

The first process to take ``<root>/.lock`` builds (tools/book/build.py) and writes ``<root>/.status``;
the others wait on the lock and read the status. tests/conftest.py starts one such build per site
in the background as soon as the tests are collected (this file run as a script), so that the
site is built while the workers execute notebooks, instead of a worker waiting for it.

    python tests/site_build.py ROOT --editions DIR [--jobs N]   # ROOT/site
"""

from __future__ import annotations

import argparse
import fcntl
import os
import sys
from pathlib import Path

LOCKED = ".locked"  # written once the lock is held: the other processes may wait on it from then on


def once(root: Path, make) -> Path:
    """Run ``make(root)`` once for every process of the run: the first to take ``root/.lock``
    makes the folder, the others wait for it."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        status = root / ".status"
        if not status.exists():
            make(root)
            status.write_text("ok")
    return root


def write_editions_once(folder: Path) -> Path:
    """Every student notebook and answer key (tools/editions/derive.py) in folder/publish and
    folder/answer-keys, written once per run (the ``editions`` fixture and the site's build)."""
    from tools.editions.derive import write_editions

    return once(folder, lambda root: write_editions(publish=root / "publish", keys=root / "answer-keys"))


def build_locked(root: Path, editions: Path, jobs: int = 2) -> bool:
    """Build the site into root once (whoever holds the lock first), from the editions written
    once into ``editions``; True if that build succeeded."""
    from tools.book.build import build

    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        (root / LOCKED).touch()
        status = root / ".status"
        if not status.exists():
            code = build(root=root, jobs=jobs, editions=write_editions_once(editions))
            status.write_text("ok" if code == 0 else "failed")
        return status.read_text() == "ok"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("root", type=Path)
    parser.add_argument(
        "--editions", type=Path, required=True, help="the folder of the editions, written once"
    )
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    return 0 if build_locked(args.root, args.editions, args.jobs) else 1


# Handouts (tools/teaching/handouts.py) print every deck of a language in headless Chromium, minutes
# a language (en: 134 s on a loaded 2-core machine, 2026-12-07): `make test` prints the reference
# language's only, and BA_ALL_HANDOUTS=1 prints every language's (`make handouts-test`).
def handout_languages() -> list[str]:
    from tools.project import languages, reference_language

    return languages() if os.environ.get("BA_ALL_HANDOUTS") == "1" else [reference_language()]


if __name__ == "__main__":
    sys.exit(main())
