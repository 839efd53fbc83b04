"""The tracked reference data (reference/) and its checks (simulator/reference.py).

Unit tests break a copy of each file in one way and expect ReferenceDataError naming the file, the
line and what was expected; the workflow tests break a file in a repository copy that already has
results and expect `snakemake` to stop before any job, with the same message, leaving every result
file byte for byte as it was.
"""
import shutil
from pathlib import Path

import pytest
import yaml

from simulator.report.papers.mininet import reference_data as mininet_data
from simulator.report.papers.mm1 import reference_data as mm1_data
from simulator.report.papers.qtcol import reference_data as qtcol_data
from simulator import reference as ref
from simulator.workflow_config import _model_of
from workflow_copy import ROOT, TEST_CONFIG, snakemake, snapshot

REFERENCE = ROOT / "reference"
STUDIES = {p.stem: _model_of(p) for p in (ROOT / "config/studies").rglob("*.yaml")}   # study -> its model


@pytest.fixture
def refdir(tmp_path):
    """A writable copy of reference/."""
    shutil.copytree(REFERENCE, tmp_path / "reference")
    return tmp_path / "reference"


def edit_line(path: Path, lineno: int, fn) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[lineno - 1] = fn(lines[lineno - 1])
    path.write_text("".join(lines))


# --------------------------------------------------------------------------- the tracked files

def test_tracked_reference_data_is_complete_and_valid():
    got = ref.check_reference_dir(REFERENCE, STUDIES)
    assert len(got["mm1_tables"]) == 108 and len(got["qtcol_results"]) == 105
    assert [(r["algorithm"], r["value"]) for r in got["mininet_numbers"] if r["kind"] == "result"] == [("cubic", "10.5")]
    assert {p: len(rows) for p, rows in got["paper_numbers"].items()} == {"ns2": 9, "testbed": 12}
    assert set(got["papers"]) == {"mm1", "qtcol", "mininet", "ns2", "testbed"}
    ids = [c["id"] for c in got["claims"]]
    assert len(ids) == 32 == len(set(ids))
    assert {i.split("-")[0] for i in ids} == {"mm1", "qt", "mn", "ns2", "tb"}


def test_every_reference_file_has_a_readme_naming_its_source():
    for folder, source in (("mm1", "Table"), ("qtcol", "result files"), ("mininet", "Throughput paragraph"),
                           ("ns2", "Result and Discussion"), ("testbed", "Results & Analysis")):
        readme = (REFERENCE / folder / "README.md").read_text()
        assert source in readme and "catalogue.yaml" in readme
    index = (REFERENCE / "README.md").read_text()
    for name in (ref.CLAIMS, mm1_data.MM1_TABLES, qtcol_data.QTCOL_RESULTS, mininet_data.MININET_NUMBERS,
                 *ref.paper_numbers_files().values()):
        assert name in index


def test_product_never_reads_outside_the_repository():
    """No tracked file of the product, its tests or CI points at a folder beside the repository."""
    import subprocess

    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    needle = "../" + "shared"  # split so this file does not match itself
    offenders = [f for f in files if (ROOT / f).is_file() and needle in (ROOT / f).read_text(errors="ignore")]
    assert offenders == []
    # papers are cited by full reference (catalogue.yaml), never by a file path outside the repository
    import re
    path_citation = re.compile("(?<![A-Za-z_/])" + "papers" + r"/[a-z0-9-]+\.md")
    cited = [f for f in files if (ROOT / f).is_file() and path_citation.search((ROOT / f).read_text(errors="ignore"))]
    assert cited == []


# --------------------------------------------------------------------------- malformed copies

MM1 = mm1_data.MM1_TABLES
QT = qtcol_data.QTCOL_RESULTS
MN = mininet_data.MININET_NUMBERS
PN = ref.paper_numbers_files()["testbed"]


@pytest.mark.parametrize("name, break_it, expected", [
    ("deleted", lambda d: (d / MM1).unlink(), [MM1, "not found", "columns table, metric"]),
    ("empty", lambda d: (d / MM1).write_text(""), [MM1, "line 1", "expected the header"]),
    ("truncated_rows", lambda d: (d / MM1).write_text("".join((d / MM1).read_text().splitlines(True)[:60])),
     [MM1, "59 of 108 numbers", "truncated"]),
    ("truncated_mid_line", lambda d: (d / MM1).write_text((d / MM1).read_text()[:-30]),
     [MM1, "line 109", "fields; expected 8", "truncated"]),
    ("non_numeric_value", lambda d: edit_line(d / MM1, 5, lambda l: l.replace("8.429", "8.4x9")),
     [MM1, "line 5", "value '8.4x9' is not a number", "finite number"]),
    ("nan_value", lambda d: edit_line(d / MM1, 5, lambda l: l.replace("8.429", "nan")),
     [MM1, "line 5", "value 'nan' is not a number"]),
    ("unknown_algorithm", lambda d: edit_line(d / MM1, 5, lambda l: l.replace("tahoe", "vegas")),
     [MM1, "line 5", "algorithm 'vegas'", "allowed values: none, tahoe, reno, cubic"]),
    ("unknown_table", lambda d: edit_line(d / MM1, 2, lambda l: "XIV" + l[1:]),
     [MM1, "line 2", "table 'XIV'", "allowed values: V, VI"]),
    ("duplicate_row", lambda d: edit_line(d / MM1, 3, lambda l: l.replace(",10,", ",5,", 1)),
     [MM1, "line 3", "repeats line 2"]),
    ("bad_fixed", lambda d: edit_line(d / MM1, 2, lambda l: l.replace("K=5;", "")),
     [MM1, "line 2", "fixed", "expected name=number for each of"]),
    ("qt_deleted", lambda d: (d / QT).unlink(), [QT, "not found"]),
    ("qt_truncated", lambda d: (d / QT).write_text("".join((d / QT).read_text().splitlines(True)[:40])),
     [QT, "39 rows; expected 105", "truncated"]),
    ("qt_non_numeric", lambda d: edit_line(d / QT, 2, lambda l: l.replace("93.82", "n/a")),
     [QT, "line 2", "value 'n/a' is not a number"]),
    ("qt_unknown_metric", lambda d: edit_line(d / QT, 2, lambda l: l.replace("goodput", "goodputt")),
     [QT, "line 2", "metric 'goodputt'", "allowed values: goodput"]),
    ("qt_wrong_unit", lambda d: edit_line(d / QT, 2, lambda l: l.replace("Mbps", "Gbps")),
     [QT, "line 2", "unit 'Gbps'", "allowed values: Mbps"]),
    ("mn_deleted", lambda d: (d / MN).unlink(), [MN, "not found"]),
    ("mn_non_numeric", lambda d: edit_line(d / MN, 5, lambda l: l.replace("10.5", "ten")),
     [MN, "line 5", "value 'ten' is not a number"]),
    ("mn_unknown_kind", lambda d: edit_line(d / MN, 5, lambda l: l.replace("result,", "finding,")),
     [MN, "line 5", "kind 'finding'", "allowed values: setting, result"]),
    ("paper_numbers_deleted", lambda d: (d / PN).unlink(), [PN, "not found", "columns source, study"]),
    ("paper_numbers_header_only", lambda d: (d / PN).write_text((d / PN).read_text().splitlines(True)[0]),
     [PN, "no rows"]),
    ("paper_numbers_unknown_study", lambda d: edit_line(d / PN, 2, lambda l: l.replace("tb_wifi_matrix", "tb_wifi_matrx")),
     [PN, "line 2", "study 'tb_wifi_matrx'", "tb_wifi_matrix"]),
    ("paper_numbers_reversed_range", lambda d: edit_line(d / PN, 2, lambda l: l.replace(",25,40,", ",40,25,")),
     [PN, "line 2", "low 40 above high 25"]),
    ("paper_numbers_bad_where", lambda d: edit_line(d / PN, 2, lambda l: l.replace("link_setup=", "link_setup~")),
     [PN, "line 2", "where 'link_setup~wifi_wifi'", "name=value or name>number"]),
])
def test_malformed_table_is_rejected_naming_file_and_line(refdir, name, break_it, expected):
    break_it(refdir)
    with pytest.raises(ref.ReferenceDataError) as e:
        ref.check_reference_dir(refdir, STUDIES)
    for part in expected:
        assert part in str(e.value), (name, str(e.value))


def mutate_claims(refdir, fn):
    """fn edits the claims of every paper's claims file joined in the catalogue's order (as the scorecard
    reads them); each file then gets its own claims back."""
    from simulator import claims_files

    paths = claims_files.paper_files(refdir / ref.CLAIMS)
    docs = [yaml.safe_load(p.read_text()) for p in paths]
    joined = [c for d in docs for c in d["claims"]]
    fn(joined)
    start = 0
    for path, doc in zip(paths, docs):
        n = len(doc["claims"])
        doc["claims"], start = joined[start:start + n], start + n
        path.write_text(yaml.safe_dump(doc, sort_keys=False))


@pytest.mark.parametrize("name, fn, expected", [
    ("no_study", lambda cs: cs[0].pop("studies"), ["claim mm1-1", "missing key(s) studies"]),
    ("empty_studies", lambda cs: cs[0].update(studies=[]), ["claim mm1-1", "studies: expected a non-empty list"]),
    ("unknown_study", lambda cs: cs[0].update(studies=["mm1_lamda"]),
     ["claim mm1-1", "studies: 'mm1_lamda' is not allowed", "mm1_lambda"]),
    ("unknown_paper", lambda cs: cs[0].update(paper="mm2"), ["claim mm1-1", "paper: 'mm2'", "allowed values: mininet"]),
    ("duplicate_id", lambda cs: cs[1].update(id="mm1-1"), ["claim mm1-1", "used twice"]),
    ("bad_id", lambda cs: cs[0].update(id="claim one"), ["claims[0].id", "'claim one'"]),
    ("unknown_key", lambda cs: cs[0].update(studys=["mm1_lambda"]), ["claim mm1-1", "unknown key(s) studys"]),
    ("no_text", lambda cs: cs[0].update(claim=""), ["claim mm1-1", "claim: expected non-empty text"]),
    ("no_metrics", lambda cs: cs[0].update(metrics="throughput"), ["claim mm1-1", "metrics: expected a non-empty list"]),
    ("unknown_metric", lambda cs: cs[0].update(metrics=["throughputt"]),
     ["claim mm1-1", "metrics: 'throughputt' is not reported by model mm1", "allowed values: avg_delay"]),
    ("trace_column_without_trace", lambda cs: cs[0].update(metrics=["cwnd"]), ["claim mm1-1", "metrics: 'cwnd'"]),
    ("other_models_metric", lambda cs: cs[9].update(metrics=["cwnd_mean"]),
     ["claim qt-1", "'cwnd_mean' is not reported by model dumbbell"]),
])
def test_malformed_claim_is_rejected_naming_the_claim_and_key(refdir, name, fn, expected):
    mutate_claims(refdir, fn)
    with pytest.raises(ref.ReferenceDataError) as e:
        ref.check_reference_dir(refdir, STUDIES)
    for part in expected:
        assert part in str(e.value), (name, str(e.value))


def test_claims_file_that_is_not_yaml_or_not_a_list(refdir):
    (refdir / ref.CLAIMS).write_text("claims: [unclosed\n")
    with pytest.raises(ref.ReferenceDataError, match="claims.yaml: not valid YAML"):
        ref.check_reference_dir(refdir, STUDIES)
    (refdir / ref.CLAIMS).write_text("- id: mm1-1\n")
    with pytest.raises(ref.ReferenceDataError, match="a mapping with a list `claims:`"):
        ref.check_reference_dir(refdir, STUDIES)


def test_missing_reference_folder(tmp_path):
    with pytest.raises(ref.ReferenceDataError, match="reference folder not found"):
        ref.check_reference_dir(tmp_path / "nope", STUDIES)


# --------------------------------------------------------------------------- through the workflow

@pytest.mark.slow
@pytest.mark.parametrize("name, break_it, expected", [
    ("deleted_table", lambda r: (r / "reference" / MM1).unlink(), [f"reference/{MM1}", "not found"]),
    ("non_numeric", lambda r: edit_line(r / "reference" / MM1, 5, lambda l: l.replace("8.429", "abc")),
     [f"reference/{MM1}", "line 5", "'abc' is not a number"]),
    ("claim_without_study", lambda r: mutate_claims(r / "reference", lambda cs: cs[3].pop("studies")),
     ["reference/mm1/claims.yaml", "claim mm1-4", "missing key(s) studies"]),
    ("claim_unknown_metric", lambda r: mutate_claims(r / "reference", lambda cs: cs[3].update(metrics=["loss"])),
     ["reference/mm1/claims.yaml", "claim mm1-4", "metrics: 'loss' is not reported by model mm1", "loss_rate"]),
    ("claim_unknown_comparison", lambda r: mutate_claims(
        r / "reference", lambda cs: cs[0]["decide"]["parts"][0].update(between=[1, 2, 3])),
     ["reference/mm1/claims.yaml", "claim mm1-1", "unknown key(s) between", "extreme, for, near"]),
    ("claim_unknown_algorithm", lambda r: mutate_claims(
        r / "reference", lambda cs: cs[0]["decide"]["parts"][0]["order"][2].update(algorithm="westwood")),
     ["reference/mm1/claims.yaml", "claim mm1-1", "algorithm: 'westwood' is not allowed", "newreno"]),
])
def test_workflow_stops_before_any_job_and_keeps_results(built_report, name, break_it, expected):
    repo = built_report
    before = snapshot(repo / "results")
    backup = repo.parent / "reference.bak"
    shutil.copytree(repo / "reference", backup)
    try:
        break_it(repo)
        for args in (["-n"], ["--cores", "1"]):
            r = snakemake(repo, *args, "--configfile", TEST_CONFIG, timeout=300)
            out = r.stdout + r.stderr
            assert r.returncode != 0, out
            for part in ["invalid reference data", *expected]:
                assert part in out, (name, args, out[-2000:])
            assert "rule simulate" not in out and "localrule" not in out
    finally:
        shutil.rmtree(repo / "reference")
        shutil.copytree(backup, repo / "reference")
        shutil.rmtree(backup)
    assert snapshot(repo / "results") == before


def test_validate_command_checks_the_reference_folder(refdir, tmp_path):
    import subprocess
    import sys

    edit_line(refdir / MM1, 7, lambda l: l.replace("9.289", "eight"))
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml.safe_dump({"studies": ["mm1_lambda"], "study_dir": str(ROOT / "config/studies"),
                                   "reference_dir": str(refdir), "profiles": {"default": {"seeds": 2}}}))
    r = subprocess.run([sys.executable, "-m", "simulator", "validate", str(cfg)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "reference_dir" in r.stderr + r.stdout and "line 7" in r.stderr + r.stdout and "'eight'" in r.stderr + r.stdout
