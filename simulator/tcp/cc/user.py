"""A researcher's own congestion control: a Python class named in a study, run by the compiled senders.

A study maps a short name to `path/to/file.py:ClassName` (path relative to the repository root,
the directory snakemake and `python -m simulator` run from). The file must lie inside the repository
or inside a folder named on purpose (the workflow config's `algorithm_folders`, or
`--algorithm-folder`: allow_folders), symlinks followed; its syntax is checked without running it,
so nothing outside those folders is ever imported. The class subclasses
simulator.tcp.cc.base.CongestionControl and overrides its hooks as ordinary methods; the senders
call them through cpdef dispatch, exactly as they call the built-in algorithms. It is constructed
with no arguments, one instance per flow; before the first hook the catalogue sets `self.stack`
(the model's catalogue.Stack: name, sack, ack_counting, key, flow). Optional class attributes:
RECOVERY (loss recovery on a sender without SACK: tahoe, reno or newreno; default newreno) and
NEEDS_RATE_SAMPLES (True: it needs the SACK sender's delivery-rate samples and pacing).

The file's sha256 is part of the run key and of each run's provenance, so editing the file reruns
the points that use it.
"""
from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from simulator.tcp.cc.base import CongestionControl, TcpState

RECOVERIES = ("tahoe", "reno", "newreno")
# folders outside the repository whose algorithms may run, named on purpose (allow_folders), resolved
FOLDERS = []
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


class UserAlgorithmError(ValueError):
    """A user's algorithm cannot be loaded, or one of its hooks raised during a run."""


@dataclass(frozen=True)
class UserAlgorithm:
    """One entry of a study's `algorithms:` mapping."""
    name: str          # the short name the grid uses
    source: str        # 'path.py:ClassName' as the user wrote it (messages and provenance show this)
    path: str          # the file, as written (relative to the repository root)
    class_name: str
    sha256: str

    def provenance(self) -> dict:
        return {"name": self.name, "file": self.path, "class": self.class_name, "sha256": self.sha256}


def parse(name: str, source) -> UserAlgorithm:
    """The entry `name: source`, its file read and hashed; UserAlgorithmError saying what is wrong."""
    if not isinstance(source, str) or source.count(":") != 1:
        raise UserAlgorithmError(f"{source!r} is not a class reference; allowed values: "
                                 "'path/to/file.py:ClassName' (path relative to the repository root)")
    path, class_name = (x.strip() for x in source.split(":"))
    if not NAME_PATTERN.match(name):
        raise UserAlgorithmError(f"{name!r} is not a short name; allowed values: lower-case letters, digits "
                                 "and underscores, starting with a letter (it becomes part of result paths)")
    if not path.endswith(".py"):
        raise UserAlgorithmError(f"{path!r}: allowed values: a .py file given relative to the repository root")
    if not class_name.isidentifier():
        raise UserAlgorithmError(f"{class_name!r} is not a Python class name")
    check_inside(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise UserAlgorithmError(f"file {path} does not exist (paths are relative to the repository root)") from None
    except OSError as e:
        raise UserAlgorithmError(f"cannot read {path}: {e.strerror}") from None
    check_syntax(path, data)
    return UserAlgorithm(name, f"{path}:{class_name}", path, class_name, hashlib.sha256(data).hexdigest())


def allowed_folders() -> list:
    """The folders user algorithms may lie in: the repository root (the working directory), then FOLDERS."""
    return [Path.cwd().resolve(), *FOLDERS]


def allow_folders(folders) -> None:
    """Let algorithms in `folders` (existing directories, checked by the caller) run in this process."""
    FOLDERS.extend(f for f in (Path(f).resolve() for f in folders) if f not in FOLDERS)


def check_inside(path: str) -> None:
    """`path`, symlinks and `..` resolved, lies in one of allowed_folders(); UserAlgorithmError naming them."""
    real = Path(path).resolve()
    folders = allowed_folders()
    if not any(real.is_relative_to(f) for f in folders):
        raise UserAlgorithmError(
            f"{path} lies outside the repository (it resolves to {real}), and algorithms run only from the "
            f"allowed folders: {', '.join(map(str, folders))}; allowed values: a .py file inside one of them. To "
            "run algorithms from another folder, name it in the workflow config's algorithm_folders "
            "(or give --algorithm-folder)")


def check_syntax(path: str, data: bytes) -> None:
    """The file compiles (without running it); UserAlgorithmError naming the line otherwise."""
    try:
        compile(data, path, "exec", dont_inherit=True)
    except SyntaxError as e:
        raise UserAlgorithmError(f"{path}, line {e.lineno}: syntax error: {e.msg}") from None
    except ValueError as e:          # e.g. a NUL byte
        raise UserAlgorithmError(f"{path}: not Python source: {e}") from None


@lru_cache(maxsize=None)
def load(spec: UserAlgorithm) -> type:
    """The class of `spec`, imported once per process and checked (check_class)."""
    module_name = f"simulator_user_cc.{spec.name}_{spec.sha256[:12]}"
    try:
        loader_spec = importlib.util.spec_from_file_location(module_name, spec.path)
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[module_name] = module        # dataclasses and pickling look the module up
        loader_spec.loader.exec_module(module)
    except SyntaxError as e:
        sys.modules.pop(module_name, None)
        raise UserAlgorithmError(f"{spec.path}, line {e.lineno}: syntax error: {e.msg}") from None
    except Exception as e:
        sys.modules.pop(module_name, None)
        raise UserAlgorithmError(f"{spec.path}: importing it raised {type(e).__name__}: {e}") from None
    cls = getattr(module, spec.class_name, None)
    if cls is None:
        raise UserAlgorithmError(f"{spec.path} has no class {spec.class_name!r}")
    check_class(cls, spec)
    return cls


def _own(cls, hook: str) -> bool:
    """Whether `cls` (or a base below CongestionControl) defines `hook`, rather than inheriting the no-op."""
    return next(k for k in cls.__mro__ if hook in vars(k)) is not CongestionControl


def check_class(cls, spec: UserAlgorithm) -> None:
    """The class subclasses CongestionControl, constructs without arguments, and overrides the hooks it
    needs: ssthresh and cong_avoid, or cong_control with owns_cwnd set."""
    where = f"{spec.path}:{spec.class_name}"
    if not (isinstance(cls, type) and issubclass(cls, CongestionControl)):
        raise UserAlgorithmError(f"{where} is not a CongestionControl: subclass "
                                 "simulator.tcp.cc.base.CongestionControl and override its hooks")
    try:
        owns_cwnd = bool(cls().owns_cwnd)
    except Exception as e:
        raise UserAlgorithmError(f"{where}: constructing it with no arguments raised {type(e).__name__}: {e}") from None
    needed = ("cong_control",) if owns_cwnd else ("ssthresh", "cong_avoid")
    missing = [h for h in needed if not _own(cls, h)]
    if missing:
        how = "owns_cwnd is set, so cong_control sets cwnd" if owns_cwnd else "the sender calls them for every window change"
        raise UserAlgorithmError(f"{where} does not define hook(s) {', '.join(missing)} ({how}); "
                                 f"hooks: init, pkts_acked, set_state, ssthresh, cong_avoid, cwnd_event, cong_control")
    recovery = getattr(cls, "RECOVERY", "newreno")
    if recovery not in RECOVERIES:
        raise UserAlgorithmError(f"{where}: RECOVERY {recovery!r} is not a loss recovery; allowed values: "
                                 f"{', '.join(RECOVERIES)}")


def make(spec: UserAlgorithm, stack):
    """One flow's controller: a fresh instance that knows its stack."""
    cc = load(spec)()
    cc.stack = stack
    return cc


HOOKS = ("init", "pkts_acked", "set_state", "ssthresh", "cong_avoid", "cwnd_event", "cong_control")


def hook_failure(spec: UserAlgorithm, error: BaseException) -> UserAlgorithmError | None:
    """The message for `error` raised inside one of the user's hooks (class, hook, simulated time),
    found from the traceback at no cost to the hot loop; None if it did not come from a hook."""
    tb, frame = error.__traceback__, None
    while tb is not None:
        f = tb.tb_frame
        if f.f_code.co_name in HOOKS and isinstance(f.f_locals.get("self"), load(spec)):
            frame = f
        tb = tb.tb_next
    if frame is None:
        return None
    state = next((v for v in frame.f_locals.values() if isinstance(v, TcpState)), None)
    when = f"at simulated time {state.now:.6f} s" if state is not None else "at an unknown simulated time"
    return UserAlgorithmError(f"{spec.path}:{spec.class_name}.{frame.f_code.co_name} raised "
                              f"{type(error).__name__}: {error} {when}; the run stopped and wrote no result")
