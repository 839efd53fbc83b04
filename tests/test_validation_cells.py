"""The cells of the ns-3 validation study (simulator/validation/cells.py) and our side of one cell
(simulator/validation/run_cell.py): no ns-3 needed."""
import json

import pytest

from simulator import registry
from simulator.study_errors import StudyError
from simulator.validation import cells, run_cell
from workflow_copy import ROOT

STUDY = ROOT / "config/studies/validation_ns3.yaml"


def test_the_shipped_study_covers_every_level_of_every_factor_with_each_algorithm():
    study, found = cells.load_cells(STUDY)
    assert study.name == "validation_ns3" and len(found) == 64
    for alg in ("newreno", "cubic", "bbr", "vegas"):
        mine = [c.params for c in found if c.params["algorithm"] == alg]
        assert {p["flows"] for p in mine} == {1, 5}
        assert {p["bottleneck_mbps"] for p in mine} == {100, 10}
        assert {p.get("loss_fwd_pct", 0) for p in mine} == {0, 0.1}
        assert len({p["buffer_pkts"] for p in mine}) == 4          # deep and shallow at each rate


def test_loss_cells_run_on_our_side_too():
    _, found = cells.load_cells(STUDY)
    assert len([c for c in found if c.params.get("loss_fwd_pct")]) == 32
    assert "loss_fwd_pct" in registry.model("dumbbell").names


def study_file(tmp_path, text):
    f = tmp_path / "v.yaml"
    f.write_text("study: v\npaper: validation\ntitle: t\nmodel: dumbbell\n" + text)
    return f


def test_a_key_no_model_declares_is_still_rejected(tmp_path):
    f = study_file(tmp_path, "grid:\n  algorithm: [cubic]\n  flowz: [1]\n")
    with pytest.raises(StudyError, match="flowz"):
        cells.load_cells(f)


def test_only_the_dumbbell_model_is_built_in_ns3(tmp_path):
    f = tmp_path / "v.yaml"
    f.write_text("study: v\npaper: validation\ntitle: t\nmodel: ns2\ngrid:\n  algorithm: [reno]\n")
    with pytest.raises(StudyError, match="allowed values: dumbbell"):
        cells.load_cells(f)


def test_vegas_matches_ns3s_delayed_ack_count():
    _, found = cells.load_cells(STUDY)
    vegas = next(c for c in found if c.params["algorithm"] == "vegas")
    assert cells.ours_params(vegas)["delack_count"] == 1 and "delack_count 1 on both sides" in vegas.notes
    cubic = next(c for c in found if c.params["algorithm"] == "cubic")
    assert "delack_count" not in cells.ours_params(cubic) and "delack_count" not in cubic.notes


def test_every_cell_takes_ns3s_socket_buffers_as_its_receive_window():
    _, found = cells.load_cells(STUDY)
    for c in found:
        assert cells.ours_params(c)["rwnd_pkts"] == (16 << 20) // 1448 == 11586
        assert "rwnd_pkts 11586 on both sides (ns-3's 16 MB socket buffers)" in c.notes


def test_our_side_of_a_short_cell_writes_its_record(tmp_path):
    f = study_file(tmp_path, "grids:\n  - algorithm: [cubic]\n    flows: [2]\n"
                             "  - algorithm: [cubic]\n    flows: [2]\n    loss_fwd_pct: [0.5]\n"
                             "fixed:\n  duration: 3\n  warmup: 1\n  bottleneck_mbps: 10\n")
    out = tmp_path / "r.json"
    assert run_cell.main(["--study", str(f), "--cell", "algorithm~cubic/flows~2", "--seed", "1",
                          "--side", "ours", "--out", str(out)]) == 0
    rec = json.loads(out.read_text())
    m = rec["metrics"]
    assert 0 < m["utilization_warm"] <= 1448 / 1502 + 1e-9 and m["mean_rtt_ms"] > 40 and 0.5 <= m["jain"] <= 1
    assert m["retransmissions"] == round(m["retransmissions"]) and m["sent"] > 0
    assert run_cell.main(["--study", str(f), "--cell", "algorithm~cubic/flows~2/loss_fwd_pct~0.5", "--seed", "1",
                          "--side", "ours", "--out", str(out)]) == 0
    rec = json.loads(out.read_text())
    assert rec["metrics"] != m and rec["metrics"]["retransmissions"] > 0     # 0.5% random loss acted


def test_an_unknown_cell_is_an_error_naming_the_file(tmp_path, capsys):
    f = study_file(tmp_path, "grid:\n  algorithm: [cubic]\n")
    assert run_cell.main(["--study", str(f), "--cell", "algorithm~bbr", "--seed", "1", "--side", "ours",
                          "--out", str(tmp_path / "r.json")]) == 2
    assert str(f) in capsys.readouterr().err


def test_cells_whose_runs_depend_on_the_seed_run_the_studys_seeds_the_rest_one():
    _, found = cells.load_cells(STUDY)

    def cell(algorithm, flows, loss):
        return next(c for c in found if c.params["algorithm"] == algorithm and c.params["flows"] == flows
                    and bool(c.params.get("loss_fwd_pct")) == loss)
    for algorithm in ("newreno", "cubic", "vegas"):          # random loss moves a loss-based window
        assert list(cells.seeds(cell(algorithm, 1, True), 5)) == [1, 2, 3, 4, 5]
        assert list(cells.seeds(cell(algorithm, 5, False), 5)) == [1, 2, 3, 4, 5]     # start phases
        assert list(cells.seeds(cell(algorithm, 1, False), 5)) == [1]
    assert list(cells.seeds(cell("bbr", 1, True), 5)) == [1]   # one BBR flow: loss-blind, its phase barely matters
    for loss in (False, True):                                 # several BBR flows: their random gain-cycle phases
        assert list(cells.seeds(cell("bbr", 5, loss), 5)) == [1, 2, 3, 4, 5]


def test_several_bbr_flows_depend_on_the_seed_on_our_side(tmp_path):
    f = study_file(tmp_path, "grid:\n  algorithm: [bbr]\n"
                             "fixed:\n  duration: 4\n  warmup: 1\n  bottleneck_mbps: 10\n  flows: 3\n")
    (a, b) = (run_cell.record(f, "algorithm~bbr", seed, "ours")["metrics"] for seed in (1, 2))
    assert a != b


def test_without_random_loss_one_flow_does_not_depend_on_the_seed(tmp_path):
    f = study_file(tmp_path, "grid:\n  algorithm: [cubic, newreno]\n"
                             "fixed:\n  duration: 2\n  warmup: 0.5\n  bottleneck_mbps: 10\n  flows: 1\n")
    for path in ("algorithm~cubic", "algorithm~newreno"):
        (a, b) = (run_cell.record(f, path, seed, "ours")["metrics"] for seed in (1, 2))
        assert a == b


def test_seeds_of_several_deterministic_flows_space_their_starts_further_apart():
    """Seed s of a several-flow cell with nothing else random starts the flows (s - 1) x 0.5 ms further apart,
    on both sides (run_cell builds ns-3's cell from the same parameters); seed 1 keeps the study's spacing."""
    _, found = cells.load_cells(STUDY)
    newreno5 = next(c for c in found if c.params["algorithm"] == "newreno" and c.params["flows"] == 5
                    and not c.params.get("loss_fwd_pct"))
    assert "start_interval" not in cells.ours_params(newreno5, 1)
    assert [cells.ours_params(newreno5, s)["start_interval"] for s in (2, 3, 5)] == [0.1005, 0.101, 0.102]
    for other in (c for c in found if c.params["flows"] == 1 or c.params.get("loss_fwd_pct")
                  or c.params["algorithm"] == "bbr"):
        assert "start_interval" not in cells.ours_params(other, 3), other.path


def test_a_moved_start_spacing_moves_our_result_and_is_recorded(tmp_path):
    f = study_file(tmp_path, "grid:\n  algorithm: [newreno]\n"
                             "fixed:\n  duration: 3\n  warmup: 1\n  bottleneck_mbps: 10\n  flows: 3\n"
                             "  buffer_pkts: 9\n")
    one, two = (run_cell.record(f, "algorithm~newreno", seed, "ours") for seed in (1, 2))
    assert "start_interval_s" not in one and two["start_interval_s"] == 0.1005
    assert one["metrics"] != two["metrics"]
