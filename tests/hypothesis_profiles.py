"""How many examples a property test (hypothesis) tries.

`make test` runs hypothesis's "default" profile: every property test tries the examples it states
(``@examples(200)``) or hypothesis's default (100). `make unit` passes ``--hypothesis-profile=unit``:
each property test tries at most UNIT_EXAMPLES, enough to catch a broken function in the
workflow's fast job; the full search runs in `make test` (and in `make mutation`, which uses the
default profile). tests/conftest.py imports this module, so the profile is registered before
hypothesis's pytest plugin loads it.
"""

from __future__ import annotations

from hypothesis import settings

UNIT = "unit"
UNIT_EXAMPLES = 20

settings.register_profile(UNIT, max_examples=UNIT_EXAMPLES)


def examples(n: int) -> settings:
    """``@examples(200)``: the test's settings (no deadline: the machine may be busy), with ``n``
    examples in `make test` and at most UNIT_EXAMPLES under the "unit" profile (`make unit`).
    Called when the test module is imported, after the profile was loaded."""
    if settings.get_current_profile_name() == UNIT:
        n = min(n, UNIT_EXAMPLES)
    return settings(max_examples=n, deadline=None)
