"""What the grader runs *inside* a kernel, before the notebook's first cell.

The grader sends this module's source to the kernel (silently, outside the history, so the
cells keep the numbers Jupyter shows) and calls :func:`install`. Nothing here judges anything and
nothing here knows an answer: in a submission's kernel the labs' checks are replaced by
recorders (``check.<name>(answer, *inputs)`` keeps the answer as plain data and a fingerprint of
the inputs), and :func:`report` hands the grader, through the Jupyter protocol's
``user_expressions``, a JSON text of what was recorded and of the ``answer_<name>`` variables.
The grader reads that text as untrusted data (never unpickles, never evaluates it) and judges the
values in its own process. A submission that tampers with this module can only change the values
it reports for its own answers, which it could anyway.

In the answer key's kernel (``mode="reference"``) the real checks are kept and each call also
records the exercise's :class:`~beyond_accuracy.checks._engine.Reference` (expected answer and
mistakes' values) computed from the lab's own objects: the grader's reference, computed once per
lab in a clean kernel.

Only the standard library is imported at module level; numpy and pandas are used when present.
"""

import collections.abc
import hashlib
import importlib
import importlib.abc
import json
import math
import numbers
import sys
import types

_dumps = json.dumps  # bound before any cell of the notebook can patch json
_MAX_ITEMS = 10_000  # longer sequences are reported by type only
_MAX_TEXT = 2_000
_MAX_CALLS = 20  # per exercise, the last ones
_CALLS = {}  # exercise -> list of recorded calls
_STATE = {"mode": None, "labs": {}}


def plain(x, depth=0):
    """An answer as JSON-able plain data: numbers, strings, lists; anything else as a marker
    (``{"__type__": name}``) that the grader judges as an answer of the wrong form."""
    if x is Ellipsis:
        return {"__ellipsis__": True}
    if x is None:
        return None
    if isinstance(x, bool) or type(x).__name__ == "bool_":
        return bool(x)
    if isinstance(x, str):
        return str(x)[:_MAX_TEXT]
    if isinstance(x, (bytes, bytearray)):
        return {"__type__": "bytes"}
    shape = getattr(x, "shape", None)
    if shape == () and hasattr(x, "item"):  # numpy scalars and 0-d arrays
        try:
            return plain(x.item(), depth)
        except Exception:
            return {"__type__": type(x).__name__}
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        value = float(x)
        return value if math.isfinite(value) else {"__nonfinite__": repr(value)}
    if isinstance(x, (collections.abc.Mapping, set, frozenset)):
        return {"__type__": type(x).__name__}
    if depth < 2 and hasattr(x, "__len__") and hasattr(x, "__iter__") and (shape is None or len(shape) == 1):
        try:
            if len(x) <= _MAX_ITEMS:
                return [plain(v, depth + 1) for v in list(x)]
        except Exception:
            pass
    return {"__type__": type(x).__name__}


def _canon(x, depth=0):
    """A canonical, JSON-able form of an exercise's input, for its fingerprint."""
    if depth > 6:
        return ["deep"]
    name = type(x).__name__
    module = type(x).__module__ or ""
    if module.startswith("pandas") and name == "DataFrame":
        return [
            "DataFrame",
            [str(c) for c in x.columns],
            [str(i) for i in x.index],
            _canon(x.to_numpy(), depth + 1),
        ]
    if module.startswith("pandas") and name == "Series":
        return ["Series", [str(i) for i in x.index], _canon(x.to_numpy(), depth + 1)]
    if module.startswith("numpy") and name == "ndarray":
        import numpy as np

        if x.dtype.kind in "fc":
            values = np.round(np.asarray(x, dtype=float), 9)
            return ["array", list(x.shape), [None if v != v else float(v) for v in values.ravel().tolist()]]
        if x.dtype.kind in "biu":
            return ["array", list(x.shape), np.asarray(x).ravel().tolist()]
        return ["array", list(x.shape), [str(v) for v in np.asarray(x).ravel().tolist()]]
    if isinstance(x, dict):
        return ["dict", sorted([str(k), _canon(v, depth + 1)] for k, v in x.items())]
    if isinstance(x, (list, tuple)):
        return ["seq", [_canon(v, depth + 1) for v in x]]
    if isinstance(x, bool):
        return bool(x)
    if isinstance(x, numbers.Integral):
        return int(x)
    if isinstance(x, numbers.Real):
        value = float(x)
        return round(value, 9) if math.isfinite(value) else repr(value)
    if isinstance(x, str):
        return x
    if hasattr(x, "to_numpy"):
        return [name, _canon(x.to_numpy(), depth + 1)]
    return ["object", module, name]


def fingerprint(inputs) -> str:
    """A short hash of an exercise's inputs (the objects its check is passed)."""
    try:
        text = _dumps(_canon(list(inputs)), sort_keys=True, default=str)
    except Exception as error:  # an input that cannot be described: say so, never fail
        text = "unreadable:" + type(error).__name__
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


def _shell():
    try:
        from IPython import get_ipython

        return get_ipython()
    except Exception:
        return None


def _request_id():
    """The id of the execute request running now (the grader knows which cell it sent with it)."""
    try:
        return str(_shell().parent_header.get("msg_id", ""))[:64]
    except Exception:
        return ""


def _record(name, answer, inputs, extra=None):
    call = {
        "answer": plain(answer),
        "inputs": fingerprint(inputs),
        "n_inputs": len(inputs),
        "request": _request_id(),
    }
    if extra:
        call.update(extra)
    calls = _CALLS.setdefault(name, [])
    calls.append(call)
    del calls[:-_MAX_CALLS]


class _Recorder:
    """Stands for a lab's ``check`` while grading: records, prints nothing, knows no answer."""

    __slots__ = ("_names",)

    def __init__(self, names):
        object.__setattr__(self, "_names", tuple(names))

    def __dir__(self):
        return sorted(self._names)

    def __repr__(self):
        return f"<checks: {', '.join(self._names)}>"

    def __getattr__(self, name):
        if name not in object.__getattribute__(self, "_names"):
            raise AttributeError(f"no check named {name!r}")

        def check(answer=Ellipsis, *inputs):
            _record(name, answer, inputs)

        check.__name__ = check.__qualname__ = name
        return check


class _Reference:
    """Wraps a lab's real ``check`` in the answer key's kernel: records the call and the exercise's
    reference (expected answer, mistakes' values) from the lab's own inputs, then checks."""

    def __init__(self, checker, exercises):
        self._checker = checker
        self._exercises = exercises

    def __getattr__(self, name):
        real = getattr(self._checker, name)
        exercise = self._exercises[name]

        def check(answer=Ellipsis, *inputs):
            reference = exercise.reference(*inputs)
            extra = {
                "expected": plain(reference.expected),
                "mistakes": [
                    [key, None if value is None else plain(value)] for key, value in reference.mistakes
                ],
            }
            _record(name, answer, inputs, extra)
            return real(answer, *inputs)

        return check


class _NoChecks(importlib.abc.MetaPathFinder):
    """While grading, the real check modules cannot be imported again."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "beyond_accuracy.checks" or fullname.startswith("beyond_accuracy.checks."):
            raise ImportError(f"{fullname} is not available while grading")
        return None


def _unavailable(*args, **kwargs):
    raise RuntimeError("the checks' internals are not available while grading")


def _no_network():
    """Refuse connections to other hosts (the sandbox has no network anyway where it can)."""
    import socket

    local = ("127.0.0.1", "::1", "localhost")
    connect = socket.socket.connect

    def guarded(self, address, *args):
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and self.family in (socket.AF_INET, socket.AF_INET6) and host not in local:
            raise OSError("network access is disabled while grading")
        return connect(self, address, *args)

    socket.socket.connect = guarded


def install(mode, labs):
    """Set the kernel up: ``labs`` maps a lab number to its exercises' names."""
    _STATE["mode"] = mode
    _STATE["labs"] = {int(k): list(v) for k, v in labs.items()}
    _set_non_dumpable()
    _no_network()
    if mode == "reference":
        from beyond_accuracy.checks._engine import lab_exercises

        for lab in _STATE["labs"]:
            module = importlib.import_module(f"beyond_accuracy.checks.lab{lab}")
            module.check = _Reference(module.check, lab_exercises(lab))
        return
    import beyond_accuracy

    for name in [
        m for m in sys.modules if m == "beyond_accuracy.checks" or m.startswith("beyond_accuracy.checks.")
    ]:
        del sys.modules[name]
    package = types.ModuleType("beyond_accuracy.checks")
    package.__path__ = []
    package.__doc__ = "The labs' checks are replaced by recorders while grading."
    engine = types.ModuleType("beyond_accuracy.checks._engine")
    for constant, value in (
        ("CORRECT", "correct"),
        ("NOT_YET", "not yet"),
        ("NOT_ATTEMPTED", "not attempted"),
        ("BAD_FORM", "bad form"),
    ):
        setattr(engine, constant, value)
        setattr(package, constant, value)
    engine.exercises_of = engine.lab_exercises = engine.verdict = _unavailable
    package._engine = engine
    sys.modules["beyond_accuracy.checks"] = package
    sys.modules["beyond_accuracy.checks._engine"] = engine
    for lab, names in _STATE["labs"].items():
        module = types.ModuleType(f"beyond_accuracy.checks.lab{lab}")
        module.check = _Recorder(names)
        module.__all__ = ["check"]
        sys.modules[module.__name__] = module
        setattr(package, f"lab{lab}", module)
    beyond_accuracy.checks = package
    sys.meta_path.insert(0, _NoChecks())


def _set_non_dumpable():
    """No other process of this user may read this kernel's memory (Linux: PR_SET_DUMPABLE 0)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
    except Exception:
        pass


def report(spec=None):
    """The recorded calls and the answer variables, as JSON text. ``spec`` maps an exercise to
    ``{"var": "answer_<name>", "inputs": "<the lab's input expressions>", "names": [...]}``;
    with ``final`` set, the input expressions are evaluated too (at the end of the notebook)."""
    shell = _shell()
    namespace = getattr(shell, "user_ns", None) or {}
    spec = spec or {}
    out = {"calls": _CALLS, "answers": {}, "inputs_at_end": {}, "names": {}}
    for name, item in spec.get("exercises", {}).items():
        var = item.get("var")
        if var in namespace:
            out["answers"][name] = plain(namespace[var])
        for other in item.get("names", []):
            if other in namespace:
                out["names"].setdefault(name, {})[other] = plain(namespace[other])
        if spec.get("final") and item.get("inputs") is not None:
            try:
                inputs = (
                    eval(item["inputs"], namespace) if item["inputs"] else ()
                )  # the lab's own expressions
                out["inputs_at_end"][name] = fingerprint(inputs if isinstance(inputs, tuple) else (inputs,))
            except Exception as error:
                out["inputs_at_end"][name] = "missing:" + type(error).__name__
    return _dumps(out, default=str)
