"""A Jupyter kernel the grader drives itself: started in an empty folder, inside a sandbox where the
system allows one, one cell at a time, with limits on computing time that hold on a busy machine.

Limits count CPU seconds (of the kernel and every process it starts), not wall-clock seconds: a
loaded machine slows a cell down but does not make it use more CPU, so a correct notebook is not
stopped because other work shares the cores. A cell that waits without computing (a ``sleep``, a
lock) is stopped after ``idle`` seconds without CPU progress. A stopped cell is interrupted (the
kernel lives on and the next cells run); a kernel that does not answer the interrupt is killed.

The sandbox (:func:`isolation`), best first: ``unshare`` into new user, mount, network and process
namespaces, with the course's folder, the submissions and the output folder mounted read-only
(the submission cannot change the grader, the other submissions or the grades, and every process
it starts ends with it); else new user and network namespaces; else none (say so in the log).
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import psutil
from jupyter_client import BlockingKernelClient
from jupyter_client.connect import write_connection_file

# mounts the first folders given read-only and hides the next ones (an empty, read-only tmpfs over
# each), then runs the kernel; the shell stays the namespace's first process (a kernel that is pid 1
# could not kill itself, as kernels elsewhere can)
_MOUNT_SCRIPT = """n=$1; shift
while [ "$n" -gt 0 ]; do
  mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 97
  shift; n=$((n - 1))
done
n=$1; shift
while [ "$n" -gt 0 ]; do
  mount -t tmpfs -o ro,size=4k,mode=555 tmpfs "$1" || exit 98
  shift; n=$((n - 1))
done
"$@"
"""


# user, mount, network and process namespaces, a /proc of its own (no other process is visible)
_NAMESPACES = ("-rmnpf", "--mount-proc", "--kill-child")


def protect_grader() -> None:
    """No process of this user may read the grader's memory, where the references live (Linux:
    PR_SET_DUMPABLE 0; elsewhere nothing)."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
    except Exception:
        pass


@dataclass(frozen=True)
class Limits:
    """How long a submission may compute. CPU seconds unless said otherwise."""

    cell_cpu: float = 120.0  # one cell
    idle: float = 60.0  # wall seconds a running cell may go without any CPU progress
    total_cpu: float = 900.0  # the whole notebook, every attempt included
    total_wall: float = 3600.0  # wall seconds for the whole notebook: the last resort
    start: float = 300.0  # wall seconds for a kernel to start
    grace: float = 20.0  # wall seconds for a stopped cell to answer the interrupt

    def __post_init__(self):
        for name in ("cell_cpu", "idle", "total_cpu", "total_wall", "start", "grace"):
            if not getattr(self, name) > 0:
                raise ValueError(f"the limit {name} must be positive, not {getattr(self, name)!r}")


@dataclass
class Outcome:
    """What one execute request gave: ``status`` is ``ok``, ``error``, ``time limit`` (the kernel
    answered the interrupt and lives on), ``stuck`` (it did not: killed) or ``kernel died``."""

    status: str
    count: int | None = None
    ename: str = ""
    evalue: str = ""
    user_expressions: dict = field(default_factory=dict)
    cpu: float = 0.0
    why: str = ""  # for a time limit: "cpu" or "idle"
    request: str = ""  # the execute request's id


@lru_cache(maxsize=1)
def isolation() -> str:
    """The best sandbox this system allows: ``"namespaces"``, ``"network"`` or ``"none"``."""
    unshare = shutil.which("unshare")
    if not unshare:
        return "none"
    with tempfile.TemporaryDirectory(prefix="ba-probe-") as probe:
        hidden = Path(probe) / "hidden"
        hidden.mkdir()
        full = [unshare, *_NAMESPACES, "sh", "-c", _MOUNT_SCRIPT, "sh", "1", probe, "1", str(hidden), "true"]
        if subprocess.run(full, capture_output=True).returncode == 0:
            return "namespaces"
    if subprocess.run([unshare, "-rn", "true"], capture_output=True).returncode == 0:
        return "network"
    return "none"


def kernel_command(read_only: list[Path], level: str | None = None, hidden: list[Path] = ()) -> list[str]:
    """The prefix that runs a kernel inside the sandbox: the ``read_only`` folders mounted
    read-only, the ``hidden`` ones replaced by an empty folder (with namespaces only)."""
    level = isolation() if level is None else level
    unshare = shutil.which("unshare") or "unshare"
    if level == "namespaces":
        folders = [str(Path(p).resolve()) for p in dict.fromkeys(read_only) if Path(p).exists()]
        hide = [str(Path(p).resolve()) for p in dict.fromkeys(hidden) if Path(p).is_dir()]
        return [
            unshare,
            *_NAMESPACES,
            "sh",
            "-c",
            _MOUNT_SCRIPT,
            "sh",
            str(len(folders)),
            *folders,
            str(len(hide)),
            *hide,
        ]
    if level == "network":
        return [unshare, "-rn"]
    return []


def kernel_env(extra: dict | None = None) -> dict:
    """The kernel's environment: one thread per library (the grader runs several kernels), no
    inline figures (nothing looks at them), no bytecode written, no user start-up files."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JPY_", "JUPYTER_", "PYTEST_"))}
    env.pop("PYTHONSTARTUP", None)
    env.update(
        OMP_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        MPLBACKEND="Agg",
        PYTHONDONTWRITEBYTECODE="1",
        PIP_NO_INDEX="1",  # a `%pip install` in a submission installs nothing
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PYDEVD_DISABLE_FILE_VALIDATION="1",
    )
    env.update(extra or {})
    return env


class Kernel:
    """One kernel, started in ``workdir``; its connection files live in ``runtime`` (a folder of
    the grader's, outside the working folder and its parents)."""

    def __init__(self, workdir: Path, runtime: Path, limits: Limits, prefix: list[str], env: dict):
        self.workdir, self.runtime, self.limits = Path(workdir), Path(runtime), limits
        self.prefix, self.env = prefix, env
        self.proc: subprocess.Popen | None = None
        self.client: BlockingKernelClient | None = None
        self.cpu_used = 0.0  # CPU seconds of every cell executed in this kernel
        self.total_cpu = 0.0  # CPU seconds of the kernel's processes, start-up included (at kill)

    # -- life -------------------------------------------------------------------------------------
    def start(self) -> None:
        self.runtime.mkdir(parents=True, exist_ok=True)
        connection = self.runtime / f"kernel-{secrets.token_hex(4)}.json"
        write_connection_file(
            str(connection),
            transport="ipc",
            ip=str(self.runtime / "ipc"),
            key=secrets.token_hex(32).encode(),
        )
        ipython = self.runtime / "ipython"
        ipython.mkdir(exist_ok=True)
        cmd = [
            *self.prefix,
            sys.executable,
            "-m",
            "ipykernel_launcher",
            "-f",
            str(connection),
            "--HistoryManager.enabled=False",
            "--IPKernelApp.log_level=CRITICAL",
        ]
        stderr = open(self.runtime / "kernel.log", "wb")  # noqa: SIM115 (closed with the process)
        self.proc = subprocess.Popen(
            cmd,
            cwd=self.workdir,
            env={**self.env, "IPYTHONDIR": str(ipython)},
            stdin=subprocess.DEVNULL,
            stdout=stderr,
            stderr=stderr,
            start_new_session=True,
        )
        stderr.close()
        self.client = BlockingKernelClient(connection_file=str(connection))
        self.client.load_connection_file()
        self.client.start_channels(shell=True, iopub=False, stdin=False, hb=False, control=True)
        deadline = time.monotonic() + self.limits.start
        msg_id = self.client.kernel_info()
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the kernel did not start: {self.log()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the kernel did not start within {self.limits.start:.0f} s")
            try:
                reply = self.client.get_shell_msg(timeout=0.5)
            except queue.Empty:
                continue
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        connection.unlink()  # the key now lives only in the two processes

    def log(self) -> str:
        path = self.runtime / "kernel.log"
        return path.read_text(encoding="utf-8", errors="replace")[-500:] if path.exists() else ""

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.total_cpu = max(self.total_cpu, self.cpu())
        if self.client is not None:
            with contextlib.suppress(Exception):
                self.client.stop_channels()
            self.client = None
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            self.proc.wait()
            self.proc = None

    def cpu(self) -> float:
        """CPU seconds of the kernel's processes (the sandbox's, the kernel's and its children's)."""
        if self.proc is None:
            return 0.0
        try:
            root = psutil.Process(self.proc.pid)
            tree = [root, *root.children(recursive=True)]
        except psutil.Error:
            return 0.0
        total = 0.0
        for process in tree:
            try:
                t = process.cpu_times()
            except psutil.Error:
                continue
            total += t.user + t.system + t.children_user + t.children_system
        return total

    def interrupt(self) -> None:
        """Ask the kernel to interrupt the running cell (a message: works inside the sandbox)."""
        if self.client is None:
            return
        message = self.client.session.msg("interrupt_request", {})
        self.client.control_channel.send(message)

    # -- cells ------------------------------------------------------------------------------------
    def execute(
        self,
        code: str,
        *,
        store_history: bool = True,
        user_expressions: dict | None = None,
        budget_cpu: float | None = None,
        deadline: float | None = None,
    ) -> Outcome:
        """Run one cell; stop it at the cell's CPU limit, after ``idle`` seconds without CPU
        progress, when ``budget_cpu`` (what is left of the notebook's CPU) is used up or at the
        wall-clock ``deadline``."""
        if not self.alive() or self.client is None:
            return Outcome("kernel died")
        msg_id = self.client.execute(
            code,
            silent=False,
            store_history=store_history,
            user_expressions=user_expressions or {},
            allow_stdin=False,
            stop_on_error=False,
        )
        start_cpu = last_cpu = self.cpu()
        last_progress = time.monotonic()
        limit = self.limits.cell_cpu if budget_cpu is None else min(self.limits.cell_cpu, budget_cpu)
        why = ""
        interrupted_at = None
        while True:
            reply = self._reply(msg_id, 0.2)
            now = time.monotonic()
            cpu = self.cpu()
            if reply is not None:
                used = max(0.0, cpu - start_cpu)
                self.cpu_used += used
                content = reply["content"]
                status = content.get("status", "error")
                if interrupted_at is not None:
                    status = "time limit"
                elif status == "aborted":
                    status = "error"
                return Outcome(
                    status if status in ("ok", "error", "time limit") else "error",
                    content.get("execution_count"),
                    str(content.get("ename", ""))[:100],
                    str(content.get("evalue", ""))[:300],
                    content.get("user_expressions") or {},
                    used,
                    why,
                    msg_id,
                )
            if not self.alive():
                self.total_cpu = max(self.total_cpu, last_cpu)
                self.cpu_used += max(0.0, last_cpu - start_cpu)
                return Outcome("kernel died", cpu=max(0.0, last_cpu - start_cpu), why=why, request=msg_id)
            if cpu - last_cpu > 0.02:
                last_cpu, last_progress = cpu, now
            if interrupted_at is None:
                if cpu - start_cpu > limit:
                    why = "cpu"
                elif now - last_progress > self.limits.idle:
                    why = "idle"
                elif deadline is not None and now > deadline:
                    why = "wall"
                if why:
                    self.interrupt()
                    interrupted_at = now
            elif now - interrupted_at > self.limits.grace:
                used = max(0.0, cpu - start_cpu)
                self.cpu_used += used
                self.kill()
                return Outcome("stuck", cpu=used, why=why, request=msg_id)

    def _reply(self, msg_id: str, timeout: float):
        try:
            reply = self.client.get_shell_msg(timeout=timeout)
        except queue.Empty:
            return None
        except Exception:  # the channel broke with the kernel
            return None
        if reply.get("parent_header", {}).get("msg_id") != msg_id:
            return None  # an answer to an earlier, abandoned request
        return reply
