"""The cells of a validation study: its grid points, each to be run in our simulator and in ns-3.

A validation study is an ordinary dumbbell study (config/studies/validation_ns3.yaml).
"""
from __future__ import annotations

from dataclasses import dataclass

from simulator.study import load_study
from simulator.study_errors import StudyError, read_yaml_mapping
from simulator.validation.ns3_dumbbell import MSS, SOCKET_BUFFER

# ns-3 socket settings of a variant that our side matches through a model key
# (simulator/validation/ns3_dumbbell.py VEGAS_SOCKET: Vegas acks every segment)
MATCHED_KEYS = {"vegas": {"delack_count": 1}}
# ... and of every cell: ns-3's 16 MB socket buffers bound each flow's data beyond snd_una (its advertised window
# less what the receiver holds out of order; and what the send buffer holds), our receive window in packets
SOCKET_KEYS = {"rwnd_pkts": SOCKET_BUFFER // MSS}


@dataclass(frozen=True)
class Cell:
    path: str              # grid point path, algorithm~cubic/bottleneck_mbps~100/...
    params: dict           # the point's parameters as the study gives them (model included)
    notes: str             # settings both sides take in this cell beyond the study's


def load_cells(path) -> tuple:
    """(study, [Cell]) of the validation study in `path`; StudyError for a bad study."""
    doc = read_yaml_mapping(path, "study")
    if doc.get("model") != "dumbbell":
        raise StudyError(f"{path}: model: {doc.get('model')!r} is not allowed; allowed values: dumbbell "
                         "(the one model built in ns-3, simulator/validation/ns3_dumbbell.py)")
    study = load_study(path, doc=doc)
    return study, [_cell(p.path, p.params) for p in study.points()]


def _cell(path, params) -> Cell:
    notes = [f"{k} {v} on both sides (ns-3's {params['algorithm']} needs it)"
             for k, v in MATCHED_KEYS.get(params["algorithm"], {}).items()]
    notes += [f"{k} {v} on both sides (ns-3's 16 MB socket buffers)" for k, v in SOCKET_KEYS.items()]
    return Cell(path, params, "; ".join(notes))


# BBR (v1) sets its rate from its delivery-rate and min-RTT model, not from losses: random loss barely moves it
LOSS_BLIND = {"bbr"}
# ... but each BBR flow enters PROBE_BW at a random phase of its gain cycle (Linux bbr_reset_probe_bw_mode,
# ns-3 TcpBbr's m_uv), so several BBR flows' shares of the link depend on the seed
RANDOM_PHASE = {"bbr"}


# A several-flow cell with nothing else random would be one run per side at one start spacing, and which flow
# loses at the first overflow follows from that spacing: its seeds space the flows' starts further apart instead,
# seed s by (s - 1) x START_STEP_S on both sides (seed 1 at the study's spacing), so the cell's value is a mean
# over start phases rather than one phase (the chapter's [seeds])
START_STEP_S = 0.0005


# 5 BBR flows at 100 Mbit/s in 86 packets: ns-3 3.44 takes 4-5 minutes of CPU per 12 s run there (its sent list
# is searched linearly and stays long, issue #1190), where every other cell takes seconds, so these two cells run
# at most COSTLY_SEEDS seeds on each side (and 12 s, config/studies/validation_ns3.yaml); the chapter says so
COSTLY = {"algorithm": "bbr", "bottleneck_mbps": 100, "buffer_pkts": 86, "flows": 5}
COSTLY_SEEDS = 3


def costly(cell: Cell) -> bool:
    return all(cell.params.get(k) == v for k, v in COSTLY.items())


def seeds(cell: Cell, study_seeds: int) -> range:
    """The seeds a cell runs on each side: the study's `seeds` where a run depends on its seed or on its flows'
    start phase, seed 1 alone for one flow without random loss.  A run depends on its seed where random loss meets a
    loss-based algorithm (which packets are lost moves its window, and utilization by several points) and where
    several BBR flows share the link (their random gain-cycle phases set who probes when); several flows of any
    other kind depend on their start phase (moves_start).  One flow without random loss is deterministic on both
    sides, and one BBR flow alone barely depends on its phase. The costly cells run at most COSTLY_SEEDS."""
    p = cell.params
    several = int(p.get("flows", 1)) > 1
    n = study_seeds if _random_loss(p) or several else 1
    return range(1, (min(n, COSTLY_SEEDS) if costly(cell) else n) + 1)


def _random_loss(p) -> bool:
    return bool(p.get("loss_fwd_pct")) and p["algorithm"] not in LOSS_BLIND


def moves_start(cell: Cell) -> bool:
    """Whether the cell's seeds move its flows' start spacing: several flows and no other randomness."""
    p = cell.params
    return int(p.get("flows", 1)) > 1 and not _random_loss(p) and p["algorithm"] not in RANDOM_PHASE


def ours_params(cell: Cell, seed: int = 1) -> dict:
    """The parameters both simulators run for `cell` and `seed`: the study's, plus the keys matching ns-3's
    per-variant socket settings, plus the start spacing of `seed` where the seed moves it (moves_start)."""
    out = {**cell.params, **SOCKET_KEYS, **MATCHED_KEYS.get(cell.params["algorithm"], {})}
    if moves_start(cell) and seed > 1:
        from simulator.scenarios import dumbbell

        spacing = float(dumbbell.params_with_defaults(out)["start_interval"]) + (seed - 1) * START_STEP_S
        out["start_interval"] = round(spacing, 9)
    return out
