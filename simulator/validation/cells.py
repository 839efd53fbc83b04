"""The cells of a validation study: its grid points, each to be run in our simulator and in ns-3.

A validation study is an ordinary dumbbell study (config/studies/validation_ns3.yaml). One key it
uses, `loss_fwd_pct`, is being added to the dumbbell model by issue 15's stack work: until the
model declares it, the grids naming it are still expanded here (checked like the rest once the key
is stripped) and their cells run in ns-3 only, with `ours_skipped` saying why. Once it is declared,
the study loads as any other and every cell runs in both simulators.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass

from simulator import registry
from simulator.study import StudyError, load_study, read_yaml_mapping

PENDING = ("loss_fwd_pct",)     # keys of the study the dumbbell model may not declare yet
# ns-3 socket settings of a variant that our side matches through a model key where it has one
# (simulator/validation/ns3_dumbbell.py VEGAS_SOCKET: Vegas acks every segment)
MATCHED_KEYS = {"vegas": {"delack_count": 1}}


@dataclass(frozen=True)
class Cell:
    path: str              # grid point path, algorithm~cubic/bottleneck_mbps~100/...
    params: dict           # the point's parameters as the study gives them (model included)
    ours_skipped: str      # why our simulator cannot run it yet ("" when it can)
    notes: str             # where our side differs from ns-3's settings in this cell


def load_cells(path) -> tuple:
    """(study, [Cell]) of the validation study in `path`; StudyError for a bad study."""
    doc = read_yaml_mapping(path, "study")
    if doc.get("model") != "dumbbell":
        raise StudyError(f"{path}: model: {doc.get('model')!r} is not allowed; allowed values: dumbbell "
                         "(the one model built in ns-3, simulator/validation/ns3_dumbbell.py)")
    declared = registry.model("dumbbell").names
    missing = [k for k in PENDING if k not in declared]
    if any(k in (doc.get("fixed") or {}) for k in missing):
        raise StudyError(f"{path}: fixed: {', '.join(missing)} may stand only in grids until model dumbbell declares it")
    grids = doc.get("grids") or [doc.get("grid") or {}]
    stripped = {k: v for k, v in doc.items() if k != "grid"}
    stripped["grids"] = [{k: v for k, v in g.items() if k not in missing} for g in grids]
    # every key but the pending ones checked as in any study; then the grids as written
    study = dataclasses.replace(load_study(path, doc=stripped), grids=copy.deepcopy(grids), grid={})
    return study, [_cell(p.path, p.params, declared, missing) for p in study.points()]


def _cell(path, params, declared, missing) -> Cell:
    needs = [k for k in missing if params.get(k)]
    notes = [f"{k} {v} on ns-3's side only (not yet a key of the dumbbell model)"
             for k, v in MATCHED_KEYS.get(params["algorithm"], {}).items() if k not in declared]
    return Cell(path, params, f"needs {', '.join(needs)} in the dumbbell model" if needs else "", "; ".join(notes))


def ours_params(cell: Cell, declared) -> dict:
    """The parameters our simulator runs for `cell`: the study's, plus the keys matching ns-3's
    per-variant socket settings where the model declares them."""
    p = {k: v for k, v in cell.params.items() if k in declared or k in ("model", "trace")}
    p.update({k: v for k, v in MATCHED_KEYS.get(p["algorithm"], {}).items() if k in declared})
    return p
