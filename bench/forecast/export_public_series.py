"""Exports the public series of the forecast-accuracy suite once, from the statsmodels wheel and the
sktime wheel's data files, to bench/data/forecast/*.csv (one series per row: id, then values oldest
first: the `ledgerwise forecast` input format) and datasets.json (frequency, season length, horizon).

Run in the statsforecast venv (bench/forecast/statsforecast-venv.sh), with the sktime wheel's
`sktime/datasets/data` folder unpacked somewhere: python export_public_series.py <that folder>.
"""

import csv
import json
import math
import sys
from pathlib import Path

import statsmodels.api as sm

out = Path(__file__).resolve().parent.parent / "data" / "forecast"
sktime_data = Path(sys.argv[1])
datasets = []


def write(name, description, season_length, horizon, series):
    rows = []
    for series_id, values in series:
        clean = [float(v) for v in values if v is not None and not math.isnan(float(v))]
        if len(clean) >= 2 * horizon:
            rows.append([series_id, *[f"{v:.6g}" for v in clean]])
    with open(out / f"{name}.csv", "w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    datasets.append(
        {"name": name, "file": f"{name}.csv", "description": description, "seasonLength": season_length,
         "horizon": horizon, "series": len(rows)}
    )


co2 = sm.datasets.co2.load_pandas().data["co2"].interpolate(limit_direction="both")
write("co2-weekly", "statsmodels co2: Mauna Loa CO2, weekly 1958-2001", 52, 13, [("co2", co2.tolist())])

elnino = sm.datasets.elnino.load_pandas().data
write("elnino-monthly", "statsmodels elnino: sea surface temperature, monthly 1950-2010", 12, 12,
      [("elnino", elnino.drop(columns="YEAR").to_numpy().ravel().tolist())])


def sktime_column(folder, file, column):
    with open(sktime_data / folder / file) as handle:
        return [float(row[column]) for row in csv.DictReader(handle)]


# Not PBS_dataset: an intermittent count series that ends in two years of zeros, where sMAPE gives 200 to
# any forecast that is not exactly 0 (the M4's scores assume positive series).
write("sktime-monthly", "sktime: Airline passengers, shampoo sales, UK road casualties (KSI)",
      12, 12, [
          ("airline", sktime_column("Airline", "Airline.csv", "Passengers")),
          ("shampoo", sktime_column("ShampooSales", "ShampooSales.csv", "Sales")),
          ("seatbelts-ksi", sktime_column("seatbelts", "seatbelts.csv", "KSI")),
      ])

macro = sm.datasets.macrodata.load_pandas().data
# Only the columns that stay positive (sMAPE and the multiplicative tests assume it).
macro_columns = ["realgdp", "realcons", "realinv", "realgovt", "realdpi", "cpi", "m1", "tbilrate", "unemp", "pop"]
write("macrodata-quarterly", "statsmodels macrodata: US macroeconomic series, quarterly 1959-2009", 4, 8,
      [(column, macro[column].tolist()) for column in macro_columns])

fertility = sm.datasets.fertility.load_pandas().data
years = [column for column in fertility.columns if column.isdigit()]
write("fertility-yearly", "statsmodels fertility: births per woman by country, yearly 1960-2015", 1, 6,
      [(row["Country Code"], [row[y] for y in years]) for _, row in fertility.iterrows()])

write("classic-yearly", "statsmodels sunspots and nile, sktime lynx: yearly", 1, 6, [
    ("sunspots", sm.datasets.sunspots.load_pandas().data["SUNACTIVITY"].tolist()),
    ("nile", sm.datasets.nile.load_pandas().data["volume"].tolist()),
    ("lynx", sktime_column("Lynx", "Lynx.csv", "0")),
])

with open(out / "datasets.json", "w") as handle:
    json.dump(datasets, handle, indent=2)
    handle.write("\n")
print(json.dumps(datasets, indent=2))
