"""Run one grading notebook (inside the grader's isolation): ``python -m tools.teaching.grading.run_one
notebook workdir status.json cell_timeout``. Writes what went wrong, if anything, to status.json."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError


def main(argv=None) -> int:
    notebook, workdir, status, cell_timeout = (argv or sys.argv[1:])[:4]
    nb = nbformat.read(notebook, as_version=4)
    info = {"error": "", "notes": []}
    # ipc: the kernel talks to this process over Unix sockets, so it needs no network at all.
    # AsyncKernelManager, as nbclient makes its own: with a (blocking) KernelManager, nbclient
    # 0.10 never raises CellTimeoutError, and a cell that sleeps runs on to the notebook's limit.
    km = AsyncKernelManager(
        kernel_name="python3", transport="ipc", ip=str(Path(status).resolve().parent / "kernel")
    )
    client = NotebookClient(nb, km=km, timeout=int(cell_timeout), allow_errors=True, kernel_name="python3")
    try:
        client.execute(cwd=workdir, cleanup_kc=True)  # shut the kernel down, even one still busy
    except CellTimeoutError:
        info["error"] = f"time limit: a cell ran longer than {cell_timeout} s"
    except DeadKernelError:
        info["error"] = "the kernel died"
    except Exception as error:
        info["error"] = f"could not run: {type(error).__name__}: {error}"[:300]
    errors = [
        (i, out.get("ename", ""))
        for i, cell in enumerate(nb.cells)
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    if errors:
        i, name = errors[0]
        info["notes"].append(f"{len(errors)} cell(s) raised an error (the first: {name} in cell {i - 1})")
    Path(status).write_text(json.dumps(info), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
