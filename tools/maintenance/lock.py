"""Re-pin constraints.txt from the environment the tools run in (`make lock`)."""

import subprocess
import sys

from tools.project import ROOT

HEADER = (
    "# Exact versions the stored notebook outputs and figures were produced with (pip constraints).\n"
    "# Refresh with 'make lock' after changing dependencies, then 'make notebooks figures'.\n"
)


def main() -> int:
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--all", "--exclude-editable"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines = [
        line
        for line in frozen.splitlines()
        if line and not line.startswith(("beyond-accuracy", "pip=="))  # pip itself is not pinned
    ]
    (ROOT / "constraints.txt").write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"constraints.txt: {len(lines)} pins")
    return 0


if __name__ == "__main__":
    sys.exit(main())
