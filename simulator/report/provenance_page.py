"""The generated part of the book's Provenance page (book/provenance.md, `{{ generated }}`): this
build (commit, simulator version, profile, studies), then per study what its table was computed
from, from results/tables/<study>.csv and results/tables/<study>.provenance.json.

Seeds per grid point are the seeds the runs used, counted from the provenance file's seed ranges
('1-10' is 10 seeds), never from a table's `n`: a metric that no seed reports (a reverse-direction
throughput in a one-way run) has n = 0 and says nothing about the seeds that ran.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd


def count_seeds(ranges: str) -> int:
    """'1-3,5' -> 4 (aggregate.seed_ranges' format)."""
    n = 0
    for part in filter(None, str(ranges).split(",")):
        a, _, b = part.partition("-")
        n += int(b or a) - int(a) + 1
    return n


def span(values) -> str:
    """'10' when every value is 10, '1-100' when they differ."""
    lo, hi = min(values), max(values)
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def study_seeds(prov: dict) -> str:
    """Seeds per grid point of one study, from its provenance file: '10', or '3-10' when points differ."""
    return span([count_seeds(p["seeds"]) for p in prov["points"]]) if prov.get("points") else "0"


def table_seeds(df: pd.DataFrame) -> str:
    """Seeds per grid point from a table alone (no provenance file): the largest n of each point."""
    per_point = df.groupby("point")["n"].max() if "point" in df else df["n"]
    return span([int(v) for v in per_point.dropna()]) if len(per_point.dropna()) else "0"


def load_provenance(files) -> dict:
    """{study: provenance dict} of results/tables/<study>.provenance.json files."""
    out = {}
    for f in files:
        p = json.loads(Path(f).read_text())
        out[p["study"]] = p
    return out


def studies_table(tables, provenance: dict) -> str:
    """Markdown table: per study its variants, algorithms, grid points, seeds per point and runs (the study
    file, `config/studies/<study>.yaml`, is in runs_table)."""
    rows = ["| study | variants | algorithms | grid points | seeds per point | runs |", "|---|---|---|---|---|---|"]
    for path in tables:
        df = pd.read_csv(path)
        if df.empty:
            continue
        study = df["study"].iloc[0]
        prov = provenance.get(study)
        points = df["point"].nunique() if "point" in df else len(df) // max(df["metric"].nunique(), 1)
        seeds = study_seeds(prov) if prov else table_seeds(df)
        runs = str(prov["n_runs"]) if prov else "–"
        # names as a study file spells them, in code type: what a reader types to run them
        variants = ", ".join(f"`{v}`" for v in sorted(df["variant"].dropna().unique())) if "variant" in df else "–"
        algorithms = ", ".join(f"`{a}`" for a in sorted(df["algorithm"].dropna().unique())) if "algorithm" in df else "–"
        rows.append(f"| `{study}` | {variants} | {algorithms} | {points} | {seeds} | {runs} |")
    return "\n".join(rows)


def runs_table(provenance: dict) -> str:
    """Markdown table: per study the study file's hash, simulator versions, commits and seed numbers."""
    rows = ["| study | study file (sha256) | simulator version | git commit | seed numbers |", "|---|---|---|---|---|"]
    for study, p in provenance.items():
        seeds = "; ".join(sorted({pt["seeds"] for pt in p["points"]}))
        sha = p.get("study_file_sha256", "")[:12]
        # one commit a line: a study whose runs were made at several commits must not widen the page
        rows.append(f"| `{study}` | `{p.get('study_file', '?')}` ({sha}) | {', '.join(p['simulator_version'])} | "
                    f"{'<br>'.join(f'`{c[:12]}`' for c in p['git_commit'])} | {seeds} |")
    return "\n".join(rows)


def shown_path(path: str) -> str:
    """A user's file as the page shows it: as written (relative to the repository root); the name alone
    for an absolute path, which the page never shows."""
    return Path(path).name if Path(path).is_absolute() else path


def user_algorithms_table(provenance: dict) -> str:
    """Markdown table of the researchers' own algorithms the studies ran (their provenance files'
    user_algorithms): short name, file, class, sha256 and the studies; '' when there are none."""
    used = {}
    for study, p in provenance.items():
        for u in p.get("user_algorithms", ()):
            used.setdefault((u["name"], u["file"], u["class"], u["sha256"]), []).append(study)
    rows = [f"| {name} | `{shown_path(file)}` | `{cls}` | `{sha[:12]}` | {', '.join(sorted(studies))} |"
            for (name, file, cls, sha), studies in sorted(used.items())]
    return "\n".join(["| algorithm | file | class | sha256 | studies |", "|---|---|---|---|---|", *rows]) if rows else ""


def generated(build: dict, tables, provenance_files) -> str:
    """The page's generated block: `build` rows (label -> markdown value), then the two tables, and the
    user algorithms' table when a study ran one."""
    provenance = load_provenance(provenance_files)
    users = user_algorithms_table(provenance)
    return "\n".join([
        "| | |", "|---|---|", *(f"| {k} | {v} |" for k, v in build.items()),
        "", "Studies of this book, as aggregated (seeds per point: the seeds every grid point ran; a study "
        "file's `seeds:` overrides the profile's count):", "", studies_table(tables, provenance),
        "", "What each table was computed from (from `results/tables/<study>.provenance.json`; every run "
        "record in `results/runs/` also carries its parameters, seed, simulator version and git commit):",
        "", runs_table(provenance),
        *(["", "Researchers' own algorithms (a study's `algorithms:` or the config's `extra_algorithms`; "
            "the file's sha256 is part of each run key of a point that runs it):", "", users] if users else []),
    ])
