"""The algorithm catalogue (simulator/tcp/cc/catalogue/): one declaration per algorithm, one meaning
per name, and every network model runs every network algorithm its sender can carry."""
import json
import math
from pathlib import Path

import pytest

import simulator
from simulator import registry
from simulator.report import style
from simulator.scenarios import mm1_queue
from simulator.tcp import recovery
from simulator.tcp.cc import catalogue
from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.bbr import Bbr
from simulator.tcp.cc.cubic import Cubic
from simulator.tcp.cc.published import PublishedReno
from simulator.tcp.cc.qtcol import QtCol, QtColFair
from simulator.tcp.cc.vegas import Vegas

CATALOGUE = Path(catalogue.__file__).parent
SACK = catalogue.Stack("ns3", sack=True)
NS2 = catalogue.Stack("ns2", sack=False)


def test_one_module_per_algorithm_each_declaring_itself():
    files = sorted(p.stem for p in CATALOGUE.glob("*.py") if not p.stem.startswith("_"))
    assert files == sorted(catalogue.NAMES)
    for name in catalogue.NAMES:
        a = catalogue.algorithm(name)
        assert a.name == name
        assert a.description and "\n" not in a.description and len(a.description) < 100
        assert a.module.__doc__, f"{name}: no docstring saying what it is and its reference"
        assert a.recovery in ("tahoe", "reno", "newreno", None)
        assert a.recovery is not None or a.needs_rate_samples or not a.sack or a.family == "published"
        for p in a.params:
            assert p.default is not None and p.help


def test_unknown_name_lists_the_catalogue():
    with pytest.raises(ValueError, match="algorithm 'renoo' unknown; allowed: tahoe, reno, newreno"):
        catalogue.algorithm("renoo")


@pytest.mark.parametrize("name, cls", [("tahoe", RenoGrowth), ("reno", RenoGrowth), ("newreno", RenoGrowth),
                                       ("cubic", Cubic), ("vegas", Vegas), ("bbr", Bbr), ("qtcol", QtCol),
                                       ("qtcolfair", QtColFair), ("published_reno", PublishedReno)])
def test_each_name_builds_its_own_controller(name, cls):
    stack = SACK if name == "bbr" else catalogue.Stack("textbook", sack=False)
    cc, _ = catalogue.build(name, stack)
    assert type(cc) is cls
    assert cc.name == name.removeprefix("published_") or name.startswith("published_")


def test_recovery_pairing_follows_the_declaration_and_the_stack():
    pairs = {"tahoe": recovery.TahoeRecovery, "reno": recovery.RenoRecovery,
             "newreno": recovery.NewRenoRecovery, "cubic": recovery.NewRenoRecovery,
             "vegas": recovery.Ns2VegasRecovery, "qtcol": recovery.NewRenoRecovery}
    for name, cls in pairs.items():
        assert type(catalogue.build(name, NS2)[1]) is cls
    # Vegas declares Reno's recovery; the ns2 stack gives it NS-2's Vegas agent's own (NS2_RECOVERY)
    assert type(catalogue.build("vegas", catalogue.Stack("textbook", sack=False))[1]) is recovery.RenoRecovery
    # a SACK stack does its own recovery, except for Tahoe, which has no fast recovery to do
    assert catalogue.build("reno", SACK)[1] is None
    assert type(catalogue.build("tahoe", SACK)[1]) is recovery.TahoeRecovery


def test_bbr_needs_a_sender_with_rate_samples():
    with pytest.raises(ValueError, match="needs delivery-rate samples and pacing.*ns2 stack"):
        catalogue.build("bbr", NS2)


def test_stack_details_reach_the_controller():
    linux = catalogue.build("vegas", catalogue.Stack("linux", sack=True))[0]
    ns2 = catalogue.build("vegas", NS2)[0]
    assert (linux.alpha, linux.beta) == (2, 4) and (ns2.alpha, ns2.beta) == (1, 3)
    q = catalogue.build("qtcolfair", catalogue.Stack("ns3", sack=True, alpha=1.4))[0]
    assert q.alpha == pytest.approx(1.4)


def test_models_take_their_algorithm_lists_from_the_catalogue():
    network = set(catalogue.NETWORK)
    assert set(registry.model("dumbbell").algorithms) == network
    assert set(registry.model("testbed").algorithms) == network
    assert set(registry.model("ns2").algorithms) == network     # BBR on the SACK sender there
    assert set(mm1_queue.ALGORITHMS_OF["standard"]) == network | {"none"}   # BBR on the SACK sender
    assert mm1_queue.ALGORITHMS_OF["as_published"] == ["none", *catalogue.PUBLISHED]   # catalogue names
    assert mm1_queue.ALGORITHMS_OF["as_published"] == ["none", "published_tahoe", "published_reno", "published_cubic"]


def test_every_algorithm_has_one_colour_and_label_in_the_book():
    for name in catalogue.NAMES:
        assert name in style.PALETTE and name in style.LABELS and name in style.ALGORITHMS
    network = {a: c for a, c in style.PALETTE.items() if a not in catalogue.PUBLISHED}
    assert len(set(network.values())) == len(network)
    for name in catalogue.PUBLISHED:   # the paper's code: its base algorithm's colour, its own label
        base = name.removeprefix("published_")
        assert style.base(name) == base and style.PALETTE[name] == style.PALETTE[base]
        assert style.LABELS[name] == f"{style.LABELS[base]} (model of the paper's code)"


SHORT = {
    "dumbbell": dict(model="dumbbell", flows=2, duration=4, warmup=1, bottleneck_mbps=10),
    "ns2": dict(model="ns2", topology="linear", flows=1, duration=10, warmup=2),
    "testbed": dict(model="testbed", link_setup="eth_wifi", background="light", duration=3),
    "mm1": dict(model="mm1", variant="standard", **{"lambda": 5}, mu=10, K=5, theta=1, N=200),
}
RATE = {"dumbbell": "goodput_warm_mbps", "ns2": "throughput_mbps", "testbed": "throughput_mean_mbps",
        "mm1": "throughput"}
CAPACITY = {"dumbbell": 10, "ns2": 10, "testbed": 50, "mm1": 10}


@pytest.mark.parametrize("model, name", [(m, a) for m in SHORT for a in registry.model(m).algorithms
                                         if a != "none"])
def test_every_model_runs_every_algorithm_it_accepts(model, name):
    params = {**SHORT[model], "algorithm": name}
    if name in catalogue.PUBLISHED:
        params["variant"] = "as_published"      # the M/M/1 paper's code runs only there
    out = simulator.run(params, 1)
    rate = out.get("metrics", out)[RATE[model]]
    assert math.isfinite(rate) and 0 < rate <= CAPACITY[model] * 1.05, (model, name, rate)
    again = simulator.run(params, 1)
    assert json.dumps(out, sort_keys=True) == json.dumps(again, sort_keys=True)   # deterministic
