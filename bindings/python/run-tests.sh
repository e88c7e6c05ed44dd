#!/usr/bin/env bash
# The Python package's tests, as the README's test command runs them: make a virtual
# environment (target/python-venv; STACKMASK_PY_VENV overrides), install maturin, numpy
# and pytest from PyPI (and llguidance for the layout comparison, when it installs),
# build and install the package with `pip install bindings/python`, run pytest.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${STACKMASK_PY_VENV:-$root/target/python-venv}"
if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install --quiet "maturin>=1.9.4,<2" numpy pytest
if ! "${pip[@]}" install --quiet "llguidance==1.9.1"; then
    echo "SKIPPED: llguidance did not install; the llguidance layout test will skip" >&2
fi
# Build in this checkout's target/ with the venv's maturin (on PATH for pip's build
# hook), not an isolated copy.
export PATH="$venv/bin:$PATH"
"${pip[@]}" install --quiet --no-build-isolation --force-reinstall --no-deps "$here"
cd "$here"
"$venv/bin/python" -m pytest -rs tests
