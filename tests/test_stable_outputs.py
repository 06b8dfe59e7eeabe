"""Stored numbers that a re-execution elsewhere must reproduce digit for digit.

nbval compares every re-executed text output with the stored one, and the glued numbers of the
prose are stored formatted. A number computed through BLAS (a model fit, a matrix product) can
differ in its last bits between CPUs, BLAS kernels and thread counts; its printed text flips only
if the value lies within that noise (~1e-15 relative) of a rounding boundary. This test reads
the raw value stored with every glued number and requires a margin of 1e-9 relative to the
boundary, or an exact decimal tie (the float nearest to ...5, which a ratio of counts gives
deterministically and model noise practically never does). glue stores the raw value rounded to a
few decimals more than it writes, but keeps a value that is on an edge whole, so that it is seen here
(beyond_accuracy.language._on_rounding_edge)."""

import nbformat
import pytest

from beyond_accuracy.language import _on_rounding_edge
from tools.project import ROOT, notebook_sources


def _glued_floats(path):
    nb = nbformat.read(path.with_suffix(".ipynb"), as_version=4)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            meta = out.get("metadata", {}).get("beyond_accuracy")
            if meta and isinstance(meta.get("raw"), float):
                yield out["metadata"]["scrapbook"]["name"], meta


def _fragile(meta) -> bool:
    return _on_rounding_edge(meta["raw"], meta["digits"], meta["percent"])


@pytest.mark.parametrize("path", notebook_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_glued_numbers_are_not_on_a_rounding_edge(path):
    fragile = [
        f"{name} = {meta['raw']!r} at {meta['digits']} digits"
        for name, meta in _glued_floats(path)
        if _fragile(meta)
    ]
    assert not fragile, (
        f"{path.relative_to(ROOT)}: glued numbers whose last digit float noise can flip: {fragile}"
    )


def test_the_edge_detector_works():
    assert _fragile({"raw": 0.12345 + 1e-13, "digits": 4, "percent": False})
    assert not _fragile({"raw": 0.7485, "digits": 3, "percent": False})  # 2994 / 4000: a tie of counts
    assert not _fragile({"raw": 0.2227505095766681, "digits": 4, "percent": False})
