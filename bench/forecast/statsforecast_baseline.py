"""The statsforecast side of the forecast suites: AutoETS and AutoTheta on the same tasks as the TS
forecaster. Input: a CSV of series (id, then values oldest first). Modes:

  accuracy: writes <out> with rows `id,model,f1..fh` for AutoETS and AutoTheta (a failure falls back
            to naive and is counted on stderr).
  speed:    times AutoETS alone (fit and forecast with 80/95 intervals, as forecastRevenue gives),
            single-threaded, after a warm-up, and prints {"series": N, "seconds": S} on stdout.
"""

import argparse
import csv
import json
import os
import sys
import time
import warnings

for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
    os.environ[variable] = "1"

import numpy as np  # noqa: E402
from statsforecast.models import AutoETS, AutoTheta  # noqa: E402

warnings.filterwarnings("ignore")

parser = argparse.ArgumentParser()
parser.add_argument("mode", choices=["accuracy", "speed"])
parser.add_argument("--tasks", required=True)
parser.add_argument("--season-length", type=int, required=True)
parser.add_argument("--horizon", type=int, required=True)
parser.add_argument("--out")
args = parser.parse_args()

with open(args.tasks) as handle:
    tasks = [(row[0], np.array([float(v) for v in row[1:]], dtype=np.float64)) for row in csv.reader(handle)]

h = args.horizon
m = args.season_length


def run(model_class, y):
    try:
        return model_class(season_length=m).forecast(y=y, h=h, level=[80, 95])["mean"], False
    except Exception:  # noqa: BLE001 - a failed fit is scored as naive, and counted
        return np.repeat(y[-1], h), True


if args.mode == "speed":
    for _, y in tasks[:3]:
        run(AutoETS, y)
    started = time.perf_counter()
    for _, y in tasks:
        run(AutoETS, y)
    print(json.dumps({"series": len(tasks), "seconds": time.perf_counter() - started}))
    sys.exit(0)

failures = {"AutoETS": 0, "AutoTheta": 0}
with open(args.out, "w", newline="") as handle:
    writer = csv.writer(handle)
    for task_id, y in tasks:
        for name, model_class in (("AutoETS", AutoETS), ("AutoTheta", AutoTheta)):
            forecast, failed = run(model_class, y)
            failures[name] += failed
            writer.writerow([task_id, name, *[f"{v:.10g}" for v in forecast]])
print(json.dumps({"failures": failures}), file=sys.stderr)
