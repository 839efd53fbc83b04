"""The Provenance page's generated tables (simulator/report/provenance_page.py): seeds per grid point
are the seeds the runs used, counted from the provenance file's seed ranges, never the `n` of a
metric that no seed reports (which made the page say "0-10 seeds")."""
import json

import pandas as pd

from simulator.report import provenance_page as pp


def test_count_seeds_reads_aggregates_seed_ranges():
    assert pp.count_seeds("1-10") == 10 and pp.count_seeds("1-3,5") == 4 and pp.count_seeds("7") == 1
    assert pp.span([10, 10]) == "10" and pp.span([1, 100, 10]) == "1-100"


def write_study(tmp_path, study, seeds_per_point, n_of_missing_metric=0):
    """A table whose metric `reverse` no seed reported (n 0), and its provenance file."""
    rows, points = [], []
    for i, seeds in enumerate(seeds_per_point):
        point = f"algorithm~a{i}"
        n = pp.count_seeds(seeds)
        rows += [{"study": study, "point": point, "algorithm": f"a{i}", "metric": "throughput", "n": n},
                 {"study": study, "point": point, "algorithm": f"a{i}", "metric": "reverse", "n": n_of_missing_metric}]
        points.append({"point": point, "params": {}, "seeds": seeds, "run_files": []})
    table = tmp_path / f"{study}.csv"
    pd.DataFrame(rows).to_csv(table, index=False)
    prov = tmp_path / f"{study}.provenance.json"
    prov.write_text(json.dumps({"study": study, "n_runs": sum(pp.count_seeds(s) for s in seeds_per_point),
                                "simulator_version": ["0.3.1"], "git_commit": ["abc"], "points": points,
                                "study_file": f"config/studies/{study}.yaml", "study_file_sha256": "0" * 64}))
    return table, prov


def row_of(markdown, study):
    return next(line for line in markdown.splitlines()
                if line.startswith((f"| `{study}` |", f"| {study} |"))).split(" | ")


def test_studies_table_gives_the_seeds_the_runs_used_not_a_metrics_n(tmp_path):
    tb, tb_prov = write_study(tmp_path, "tb_matrix", ["1-10", "1-10"])
    mixed, mixed_prov = write_study(tmp_path, "mixed", ["1-3", "1-5"], n_of_missing_metric=1)
    provenance = pp.load_provenance([tb_prov, mixed_prov])
    text = pp.studies_table([tb, mixed], provenance)
    assert row_of(text, "tb_matrix")[-2:] == ["10", "20 |"]          # seeds per point, runs
    assert row_of(text, "mixed")[-2:] == ["3-5", "8 |"]
    assert "0-10" not in text
    # without a provenance file the table's largest n per point stands in (still not the empty metric's 0)
    assert row_of(pp.studies_table([tb], {}), "tb_matrix")[-2] == "10"


def test_generated_block_lists_build_then_both_tables(tmp_path):
    tb, tb_prov = write_study(tmp_path, "tb_matrix", ["1-10"])
    text = pp.generated({"git commit": "`abc`"}, [tb], [tb_prov])
    assert text.startswith("| | |\n|---|---|\n| git commit | `abc` |")
    assert row_of(text.split("What each table")[1], "tb_matrix")[-1] == "1-10 |"
