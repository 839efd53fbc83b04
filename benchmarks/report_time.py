"""Where the time of a report build goes: per Snakemake rule, jobs, job seconds and share of the wall.

    python benchmarks/report_time.py RESULTS_REPO_DIR [--all] [--top N]

Reads RESULTS_REPO_DIR/.snakemake/metadata/ (one JSON file per output, named by its base64-encoded
path; each holds the rule, the job's hash and the job's start and end times) read-only.  Outputs of
one job (same rule and job hash) count once: the job runs from the earliest start to the latest end
of its outputs.  By default only jobs of the newest build count (started at or after the time in the
name of the newest .snakemake/log/*.snakemake.log); --all counts every job in the metadata.

Per rule: jobs, total job seconds, mean, max, and that total over the build's wall time (first job
start to last job end); with 2 cores busy the shares add up to about 200 %.  Then the simulate jobs
per study (results/runs/<study>/...), the N heaviest.  Prints figures; not a test.
"""
import argparse
import base64
import collections
import datetime
import json
import os
import re
import sys


def output_path(name):
    """The output path a metadata file name encodes (urlsafe base64, padding dropped)."""
    try:
        return base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return name


def newest_build_start(repo):
    """Start time (epoch s) of the newest build, from its Snakemake log's file name; None if none."""
    logdir = os.path.join(repo, ".snakemake", "log")
    stamps = []
    for f in os.listdir(logdir) if os.path.isdir(logdir) else []:
        m = re.match(r"(\d{4}-\d\d-\d\dT\d{6}\.\d+)\.snakemake\.log$", f)
        if m:
            stamps.append((datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H%M%S.%f"), f))
    if not stamps:
        return None, None
    when, f = max(stamps)
    elapsed = None
    with open(os.path.join(logdir, f), errors="replace") as fh:
        for line in fh:
            m = re.match(r"Elapsed time: (?:(\d+) days?, )?(\d+):(\d\d):(\d\d(?:\.\d+)?)", line)
            if m:
                elapsed = (int(m.group(1) or 0) * 86400 + int(m.group(2)) * 3600 + int(m.group(3)) * 60
                           + float(m.group(4)))
    return when.timestamp(), elapsed


def rule_family(rule):
    """'simulate_<study>_<job>' -> 'simulate' (workflow/rules/simulate.smk makes one rule per job)."""
    return "simulate" if re.fullmatch(r"simulate_\w+_\d+", rule) else rule


def jobs(repo):
    """{(rule, job_hash): {"start", "end", "outputs"}} from the metadata."""
    meta = os.path.join(repo, ".snakemake", "metadata")
    if not os.path.isdir(meta):
        sys.exit(f"{meta}: no Snakemake metadata (build the report in {repo} first)")
    out = {}
    for root, _, files in os.walk(meta):
        for f in files:
            path = os.path.join(root, f)
            with open(path) as fh:
                try:
                    m = json.load(fh)
                except ValueError:
                    continue
            if m.get("starttime") is None or m.get("endtime") is None or m.get("incomplete"):
                continue
            name = output_path(os.path.relpath(path, meta).replace(os.sep, ""))
            j = out.setdefault((rule_family(m["rule"]), m.get("job_hash")),
                               {"start": m["starttime"], "end": m["endtime"], "outputs": []})
            j["start"], j["end"] = min(j["start"], m["starttime"]), max(j["end"], m["endtime"])
            j["outputs"].append(name)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("repo", help="repository directory of a complete report build")
    ap.add_argument("--all", action="store_true", help="every job in the metadata, not the newest build's only")
    ap.add_argument("--top", type=int, default=12, help="studies shown in the simulate breakdown")
    args = ap.parse_args()
    every = jobs(args.repo)
    since, elapsed = (None, None) if args.all else newest_build_start(args.repo)
    picked = {k: j for k, j in every.items() if since is None or j["start"] >= since - 1.0}
    if not picked:
        sys.exit("no finished job in the metadata")
    start = min(j["start"] for j in picked.values())
    end = max(j["end"] for j in picked.values())
    wall = end - start
    print(f"{len(picked)} jobs ({len(every) - len(picked)} of earlier builds left out); wall "
          f"{wall:.0f} s from first job start to last job end"
          + (f"; Snakemake's elapsed time {elapsed:.0f} s" if elapsed else ""))
    rules = collections.defaultdict(list)
    for (rule, _), j in picked.items():
        rules[rule].append(j["end"] - j["start"])
    total = sum(sum(v) for v in rules.values())
    print(f"\n{'rule':<26}{'jobs':>6}{'total s':>10}{'mean s':>9}{'max s':>9}{'% of wall':>11}{'% of job s':>12}")
    for rule, d in sorted(rules.items(), key=lambda kv: -sum(kv[1])):
        print(f"{rule:<26}{len(d):>6}{sum(d):>10.1f}{sum(d) / len(d):>9.2f}{max(d):>9.1f}"
              f"{100 * sum(d) / wall:>10.1f}%{100 * sum(d) / total:>11.1f}%")
    print(f"{'total':<26}{sum(len(v) for v in rules.values()):>6}{total:>10.1f}{'':>9}{'':>9}"
          f"{100 * total / wall:>10.1f}%{100.0:>11.1f}%")
    studies = collections.defaultdict(list)
    for (rule, _), j in picked.items():
        if rule == "simulate":
            m = re.match(r"results/runs/([^/]+)/", j["outputs"][0])
            studies[m.group(1) if m else "?"].append(j["end"] - j["start"])
    if studies:
        sim = sum(sum(v) for v in studies.values())
        print(f"\nsimulate jobs per study, the {min(args.top, len(studies))} heaviest of {len(studies)}")
        print(f"{'study':<26}{'jobs':>6}{'total s':>10}{'mean s':>9}{'max s':>9}{'% of simulate':>15}")
        for study, d in sorted(studies.items(), key=lambda kv: -sum(kv[1]))[:args.top]:
            print(f"{study:<26}{len(d):>6}{sum(d):>10.1f}{sum(d) / len(d):>9.2f}{max(d):>9.1f}"
                  f"{100 * sum(d) / sim:>14.1f}%")
    print("\nphases (first start .. last end of each rule, s after the first job):")
    spans = collections.defaultdict(lambda: [float("inf"), 0.0])
    for (rule, _), j in picked.items():
        spans[rule][0] = min(spans[rule][0], j["start"])
        spans[rule][1] = max(spans[rule][1], j["end"])
    for rule, (a, b) in sorted(spans.items(), key=lambda kv: kv[1][0]):
        print(f"  {rule:<26}{a - start:>7.0f} .. {b - start:>5.0f}")


if __name__ == "__main__":
    main()
