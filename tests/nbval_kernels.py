"""nbval's kernels, shared by the languages of a notebook.

The five languages of a chapter or lab run the same code but for their first cell, which sets the
language (tests/test_notebooks.py::test_code_is_identical_across_languages proves it). So nbval runs
them one after another in one kernel: tests/conftest.py makes the languages of a notebook one unit
of work for pytest-xdist (:func:`family`), in an order that gives each language the first place
in two of the ten notebooks, and the first language of a unit runs in a fresh kernel; each next
language runs in the same kernel after :data:`RESET`. Every cell is still executed, and its output
compared, in every language; what the shared kernel saves is a kernel's start and the notebook's
imports (nbval of the 50 notebooks: 277 core-seconds with a kernel each, 223 shared).

Between two languages, :data:`RESET` empties the namespace (``%reset -f``: a name used before the
notebook defines it fails as in a fresh kernel), goes to the next notebook's folder (nbval starts a
kernel in it) and closes the open figures. What stays is the state of the imported modules: the
next language starts where the same code left it, which its first cells would bring it to anyway
(the imports, pandas' display options). Anything that would not come out the same a second time,
such as a counter in a module, changes an output and fails the comparison. nbval on notebook paths
alone (``pytest --nbval labs/it/03-trust-lab.ipynb``, without ``tests`` among the paths, so that
this folder's conftest.py is not loaded) runs each in a fresh kernel.
"""

from __future__ import annotations

import types
from functools import cache
from pathlib import Path

from tools.project import KINDS, languages

# Run between two languages, in the kernel they share; {cwd}: the next notebook's folder.
RESET = """
%reset -f
import os as _os, sys as _sys
_os.chdir({cwd!r})
if "matplotlib.pyplot" in _sys.modules: _sys.modules["matplotlib.pyplot"].close("all")
del _os, _sys
"""


def family(nodeid: str) -> str | None:
    """``labs/it/03-trust-lab.ipynb::Cell 4`` -> ``labs/*/03-trust-lab.ipynb``: the notebook in every
    language; None for anything but a chapter's or lab's notebook."""
    return _family_of_file(nodeid.split("::", 1)[0])


@cache
def _family_of_file(path: str) -> str | None:  # asked for every test, several times
    parts = path.split("/")
    if len(parts) == 3 and parts[0] in KINDS and parts[1] in _languages() and parts[2].endswith(".ipynb"):
        return f"{parts[0]}/*/{parts[2]}"
    return None


@cache
def _languages() -> tuple[str, ...]:
    return tuple(languages())


def language_rank(nodeid: str, families: list[str]) -> int:
    """The place of a notebook's language within its family's unit (``families``: every family
    of the run, sorted): the k-th family starts with the k-th language, so that each language
    runs first, in a fresh kernel, in len(families) / len(languages) of them."""
    langs = _languages()
    lang = nodeid.split("/", 2)[1]
    return (langs.index(lang) - families.index(family(nodeid))) % len(langs)


_shared = types.SimpleNamespace(kernel=None, family=None, fresh=0, reused=0)


def _run(kernel, code: str, timeout: float = 60) -> None:
    """Execute code in nbval's kernel (a RunningKernel); raise if it fails."""
    msg_id = kernel.kc.execute(code, store_history=False, allow_stdin=False)
    reply = kernel.get_message(stream="shell", timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kernel.get_message(stream="shell", timeout=timeout)
    kernel.await_idle(msg_id, timeout)  # its output read, so that no cell of the notebook gets it
    content = reply["content"]
    if content["status"] != "ok":
        raise RuntimeError(
            f"resetting the shared kernel failed: {content.get('ename')}: {content.get('evalue')}"
        )


def stop_shared_kernel() -> None:
    """Stop the kernel kept for a next language, if any (at the end of a run)."""
    if _shared.kernel is not None and _shared.kernel.is_alive():
        _shared.kernel.stop()
    _shared.kernel = _shared.family = None


def install() -> None:
    """Make nbval's notebook collector share kernels as described above (idempotent)."""
    from nbval.plugin import IPyNbFile

    if getattr(IPyNbFile.setup, "shared_kernels", False):
        return
    fresh_setup, fresh_teardown = IPyNbFile.setup, IPyNbFile.teardown

    def setup(self):
        name = family(self.nodeid)
        kernel = _shared.kernel
        if name is not None and name == _shared.family and kernel is not None and kernel.is_alive():
            self.kernel = kernel
            self.setup_sanitize_files()
            _run(kernel, RESET.format(cwd=str(Path(self.path).parent)))
            _shared.reused += 1
            return
        stop_shared_kernel()
        fresh_setup(self)
        _shared.fresh += 1
        if name is not None:
            _shared.kernel, _shared.family = self.kernel, name

    def teardown(self):
        if self.kernel is _shared.kernel and not self.timed_out and self.kernel.is_alive():
            return  # kept for the next language; stopped by the next setup of another notebook
        if self.kernel is _shared.kernel:
            _shared.kernel = _shared.family = None
        fresh_teardown(self)

    setup.shared_kernels = True
    IPyNbFile.setup, IPyNbFile.teardown = setup, teardown


def counts() -> tuple[int, int]:
    """(kernels started, languages run in a shared kernel) by this process."""
    return _shared.fresh, _shared.reused
