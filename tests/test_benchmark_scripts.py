"""benchmarks/scale.py and benchmarks/report_time.py run and print what they promise (no timing is
checked: speed is measured by the benchmarks, never in a test)."""
import base64
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEYS = {"name", "algorithm", "mbps", "sim_s", "loop_wall_s", "delivered_pkts", "events", "peak_rss_mb"}


def run_script(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def test_scale_quick_json_has_every_run_and_key():
    r = run_script("benchmarks/scale.py", "--quick", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    names = [x["name"] for x in doc["runs"]]
    assert names == [f"s1-{c}-{a}" for c in ("100m-3s", "100m-300s", "1g-60s") for a in ("cubic", "newreno")]
    for x in doc["runs"]:
        assert set(x) == KEYS
        assert x["sim_s"] == 0.2 and x["delivered_pkts"] > 0 and x["events"] > x["delivered_pkts"]
        assert x["loop_wall_s"] > 0 and x["peak_rss_mb"] > 0
        assert x["mbps"] == (1000.0 if "1g" in x["name"] else 100.0)
    assert set(doc["derived"]["per_algorithm"]) == {"cubic", "newreno"}


def test_scale_flow_sweep_runs_every_flow_count():
    r = run_script("benchmarks/scale.py", "--flow-sweep", "--quick", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    counts = (1, 10, 100, 1000, 10000)
    sweep, share = [f"flows-{n}-cubic" for n in counts], [f"share-{n}-cubic" for n in counts]
    assert [x["name"] for x in doc["runs"]] == sweep + share + ["openloop-85-cubic"]
    for x in doc["runs"]:
        assert set(KEYS) <= set(x) and x["delivered_pkts"] > 0 and x["peak_rss_mb"] > 0
    # flows-N: 1 Gbit/s whatever N; share-N: N flows with the rate each has among 1,000 (1 Mbit/s apiece)
    assert all(x["mbps"] == 1000.0 for x in doc["runs"][:5]) and [x["mbps"] for x in doc["runs"][5:10]] == list(counts)
    for names in (sweep, share):
        ratios = [doc["derived"]["per_run"][name]["cost_per_packet_vs_1_flow"] for name in names]
        assert ratios[0] == 1.0 and all(r > 0 for r in ratios)
    openloop = doc["runs"][-1]                     # flows arrive and finish: some finished even in 0.2 s
    assert openloop["load"] == 0.85 and 0 < openloop["flows_completed"] <= openloop["flows_arrived"]


def write_meta(meta, output, rule, job_hash, start, end):
    name = base64.urlsafe_b64encode(output.encode()).decode().rstrip("=")
    (meta / name).write_text(json.dumps({"rule": rule, "job_hash": job_hash, "starttime": start,
                                         "endtime": end, "incomplete": False, "log": []}))


def test_report_time_counts_a_job_of_several_outputs_once(tmp_path):
    meta = tmp_path / ".snakemake" / "metadata"
    meta.mkdir(parents=True)
    write_meta(meta, "results/runs/a/x~1/seeds~1-10.jsonl", "simulate_a_3", 1, 100.0, 104.0)   # one job,
    write_meta(meta, "results/runs/a/x~2/seeds~1-10.jsonl", "simulate_a_3", 1, 100.0, 104.0)   # two files
    write_meta(meta, "results/runs/b/x~1/seeds~1-10.jsonl", "simulate_b_0", 2, 100.0, 102.0)
    write_meta(meta, "results/tables/a.csv", "aggregate", 3, 104.0, 110.0)
    write_meta(meta, "results/tables/a.provenance.json", "aggregate", 3, 104.0, 110.0)
    r = run_script("benchmarks/report_time.py", tmp_path)
    assert r.returncode == 0, r.stderr
    rows = {}
    for line in r.stdout.splitlines():
        if line.strip():
            rows.setdefault(line.split()[0], line.split())       # the tables come before the phases
    assert "wall 10 s" in r.stdout
    assert rows["simulate"][1:4] == ["2", "6.0", "3.00"] and rows["simulate"][5] == "60.0%"
    assert rows["aggregate"][1:3] == ["1", "6.0"]
    assert rows["total"][1:3] == ["3", "12.0"]
    assert rows["a"][1:3] == ["1", "4.0"]              # simulate jobs per study
