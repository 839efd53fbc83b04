"""Files in and out of the report: every output is written to a temporary name and renamed into place
(os.replace), so a killed job never leaves half a file; tables and traces load from lists of paths."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd


def write_atomic(out, write) -> None:
    """write(tmp_path), then rename to out; the temporary file is removed on error."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_csv(frame: pd.DataFrame, path) -> None:
    """A DataFrame as CSV without its index, atomically."""
    write_atomic(path, lambda tmp: frame.to_csv(tmp, index=False))


def read_csvs(paths, paper=None) -> pd.DataFrame | None:
    """The CSV files at `paths` (missing and empty files skipped) as one frame, only the rows of
    `paper` if given; None if there is no file."""
    frames = [pd.read_csv(p) for p in paths if Path(p).exists() and Path(p).stat().st_size > 0]
    if not frames:
        return None
    df = pd.concat(frames, ignore_index=True)
    return df[df["paper"] == paper] if paper is not None and "paper" in df.columns else df


def load_tables(paths) -> pd.DataFrame:
    """The long tables at `paths` as one frame; empty if none."""
    df = read_csvs(paths)
    return pd.DataFrame() if df is None else df


def load_traces(paths) -> pd.DataFrame | None:
    """The trace tables at `paths` as one frame; None if none."""
    return read_csvs(paths)
