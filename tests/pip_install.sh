#!/bin/sh
# `pip install` from the checkout, as docs/python.md tells: a venv that sees Debian's numpy,
# setup.py building the module (here reusing the test's build folder, DLCA_BUILD_DIR), nothing
# downloaded; then, from another folder, the installed package trains 5 epochs.
# Usage: pip_install.sh PYTHON SOURCE_DIR BUILD_DIR
set -eu
python=$1 source=$2 build=$3
rm -rf venv elsewhere
"$python" -m venv --system-site-packages venv
DLCA_BUILD_DIR="$build" venv/bin/pip install --no-build-isolation --no-index --no-deps -q \
  --disable-pip-version-check --root-user-action=ignore "$source"
mkdir elsewhere && cd elsewhere
# The installed package's own data folder, not one the caller's environment names.
PYTHONPATH= DLCA_DATA_DIR= ../venv/bin/python - <<'PY'
import dlca
assert "site-packages" in dlca.__file__, dlca.__file__
assert dlca.data_dir().endswith("site-packages/dlca/targets"), dlca.data_dir()
model = dlca.train("checkerboard_sync", epochs=5, starts=1)
assert model.summary["epochs"] == 5, model.summary
print("installed dlca", dlca.__version__, "trained:", repr(model))
PY
