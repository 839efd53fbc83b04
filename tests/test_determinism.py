"""Same parameters and seed: bit-identical summaries, in one process and across processes."""
import json
import subprocess
import sys

import simulator

P = {"model": "mm1", "variant": "standard", "algorithm": "cubic", "lambda": 12, "mu": 10, "K": 4,
     "theta": 1, "N": 300, "trace": True}


def test_same_seed_same_summary_in_process():
    assert simulator.run(P, 7) == simulator.run(P, 7)
    assert simulator.run(P, 7) != simulator.run(P, 8)


def test_same_seed_same_summary_across_processes():
    code = ("import json, simulator; "
            f"print(json.dumps(simulator.run({P!r}, 7), sort_keys=True))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout for _ in range(2)}
    assert len(outs) == 1
    assert json.loads(outs.pop()) == json.loads(json.dumps(simulator.run(P, 7)))
