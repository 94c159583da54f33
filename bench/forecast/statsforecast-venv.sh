#!/usr/bin/env bash
# Creates (once) the Python venv the forecast suites compare against and prints its python's path:
# statsforecast's AutoETS and AutoTheta, and statsmodels whose wheel ships some of the public series.
# Versions are pinned so two runs compare the same baseline.
set -euo pipefail
venv="${HOME}/.cache/ledgerwise/statsforecast-2.1.1"
if [ ! -x "${venv}/bin/python" ] || ! "${venv}/bin/python" -c 'import statsforecast, statsmodels' 2>/dev/null; then
  python3 -m venv "${venv}" >&2
  "${venv}/bin/pip" install --quiet 'statsforecast==2.1.1' 'statsmodels==0.15.0' 'numpy==2.4.6' \
    'pandas==2.3.3' 'scipy==1.17.1' 'coreforecast==0.0.20' >&2
fi
echo "${venv}/bin/python"
