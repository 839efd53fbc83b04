#!/usr/bin/env bash
# Peak memory (max RSS) of the largest default-profile simulation jobs and of a whole workflow run.
#
#   scripts/peak_memory.sh              # the heaviest jobs, then `snakemake --cores 2` in a temp copy
#   scripts/peak_memory.sh --jobs-only  # only the single jobs (a few seconds)
#
# Single jobs are measured exactly as the workflow runs them (`python -m simulator batch`, all 10
# seeds of the default profile in one process) with GNU time's "Maximum resident set size".
# The whole run is `snakemake --cores 2` (every study, tables + report) in a temporary copy of the
# repository (results/ of this checkout are not touched); it reports the largest single process
# and the peak of the summed RSS of the snakemake process tree, sampled every 0.1 s.
# Environment: PYTHON (default: .venv/bin/python, else python3), CORES (default 2).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
PYTHON="${PYTHON:-$( [ -x .venv/bin/python ] && echo "$ROOT/.venv/bin/python" || command -v python3 )}"
CORES="${CORES:-2}"
JOBS_ONLY=$([ "${1:-}" = "--jobs-only" ] && echo 1 || echo 0)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time; Debian package 'time')" >&2; exit 1; }

N_SEEDS=$("$PYTHON" -c "import yaml; c = yaml.safe_load(open('config/config.yaml')); print(c['profiles'][c.get('profile', 'default')]['seeds'])")
echo "== single jobs (default profile: seeds 1-$N_SEEDS in one process, as rule simulate runs them)"
printf '%-16s %-56s %10s %8s\n' study point "max RSS" wall
# The largest points of the default studies: the longest flows (N = 2000) and the trace study.
for job in \
    "mm1_N_curve variant~standard/algorithm~cubic/N~2000" \
    "mm1_N_curve variant~standard/algorithm~newreno/N~2000" \
    "mm1_N_curve variant~as_published/algorithm~published_reno/N~2000" \
    "mm1_N_curve variant~as_published/algorithm~none/N~2000" \
    "mm1_cwnd variant~standard/algorithm~cubic/N~300"; do
    set -- $job
    /usr/bin/time -v -o "$TMP/time.txt" "$PYTHON" -m simulator batch "config/studies/$1.yaml" --point-path "$2" \
        --seeds "1-$N_SEEDS" --out "$TMP/out.jsonl" >/dev/null
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$TMP/time.txt")
    printf '%-16s %-56s %7.1f MB %8s\n' "$1" "$2" "$(awk -v r="$rss" 'BEGIN {print r / 1024}')" "$wall"
done

[ "$JOBS_ONLY" = 1 ] && exit 0

echo
echo "== whole workflow: snakemake --cores $CORES (all studies, default profile, report included) in a temp copy"
mkdir -p "$TMP/repo"
git ls-files --cached --others --exclude-standard | grep -v '^results/' | tar cf - -T - | tar xf - -C "$TMP/repo"
find simulator -name '*.so' | tar cf - -T - | tar xf - -C "$TMP/repo"
cd "$TMP/repo"
"$PYTHON" - "$PYTHON" "$CORES" <<'EOF'
import os, resource, subprocess, sys, time

python, cores = sys.argv[1], sys.argv[2]

def tree_rss(root):
    """Summed RSS (kB) of root and all its descendants, from /proc."""
    children, rss = {}, {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(pid))
            with open(f"/proc/{pid}/status") as f:
                rss[int(pid)] = next((int(l.split()[1]) for l in f if l.startswith("VmRSS:")), 0)
        except (OSError, StopIteration, IndexError):
            continue
    total, todo = 0, [root]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo += children.get(p, [])
    return total

t0 = time.monotonic()
proc = subprocess.Popen([python, "-m", "snakemake", "--cores", cores], stdout=subprocess.DEVNULL,
                        stderr=open("snakemake.log", "w"))
peak = 0
while proc.poll() is None:
    peak = max(peak, tree_rss(proc.pid))
    time.sleep(0.1)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
wall = time.monotonic() - t0
print(f"exit status {proc.returncode}, wall {wall:.0f} s")
print(f"largest single process (snakemake or any job, ru_maxrss): {children.ru_maxrss / 1024:.1f} MB")
print(f"peak of the summed RSS of the process tree (sampled):      {peak / 1024:.1f} MB")
if proc.returncode:
    print(open("snakemake.log").read()[-3000:])
    sys.exit(proc.returncode)
EOF
