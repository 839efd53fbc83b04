"""Helpers for tests that run the real workflow in a temporary copy of the repository.

A copy holds the repository's files (tracked and not ignored, plus the built simulator extensions)
and nothing beside it, as a user's clone: the reference data are the repository's reference/.
Snakemake runs with this test's interpreter; `python -m simulator` inside jobs then imports the copy's simulator package.
"""
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEST_CONFIG = "config/test/config.yaml"


def repo_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    built = [str(p.relative_to(ROOT)) for p in (ROOT / "simulator").rglob("*.so")]
    return sorted(set(out) | set(built))


def copy_repo(tmp_path: Path) -> Path:
    """tmp_path/repo: a copy of the repository without results/ and .snakemake/."""
    repo = tmp_path / "repo"
    for rel in repo_files():
        src = ROOT / rel
        if src.is_file() and not rel.startswith(("results/", ".snakemake/")):
            (repo / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, repo / rel)
    return repo


def snakemake_cmd(*args) -> list[str]:
    return [sys.executable, "-m", "snakemake", *map(str, args)]


def snakemake(repo: Path, *args, timeout=900) -> subprocess.CompletedProcess:
    return subprocess.run(snakemake_cmd(*args), cwd=repo, capture_output=True, text=True, timeout=timeout)


def simulator_cli(repo: Path, *args, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simulator", *map(str, args)], cwd=repo,
                          capture_output=True, text=True, timeout=timeout)


def snapshot(folder: Path) -> dict:
    """{relative path: (size, mtime_ns, sha256)} of every file under folder."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            st = p.stat()
            out[str(p.relative_to(folder))] = (st.st_size, st.st_mtime_ns, hashlib.sha256(p.read_bytes()).hexdigest())
    return out


def result_files(repo: Path) -> dict:
    """{path: bytes} of results/tables/*.csv, results/traces/*.csv and every results/runs/**.jsonl."""
    res = repo / "results"
    files = [*res.glob("tables/*"), *res.glob("traces/*.csv"), *res.glob("runs/**/*.jsonl")]
    return {str(p.relative_to(repo)): p.read_bytes() for p in sorted(files) if p.is_file()}


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group of proc (snakemake and every job it started)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=60)


def wait_for(predicate, timeout, interval=0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval)
    return False
