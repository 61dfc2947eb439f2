#!/usr/bin/env bash
# Sets up the Python peer workers: Debian packages PyICU builds against, a virtual environment at
# <repo>/.build/python-peers, the pinned requirements and the repository's Python client
# (clients/python). Idempotent: a second run that finds everything in place does nothing. Prints
# one line saying what it did.
#
#   Benchmarks/python/setup.sh          # then: .build/python-peers/bin/python Benchmarks/python/peer.py --help
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="$repo/.build/python-peers"
requirements="$here/requirements.txt"
stamp="$venv/.requirements.sha256"
apt_packages=(libicu-dev pkg-config g++ python3-venv python3-dev)
python="${PYTHON:-python3}"

done_steps=()

missing=()
for package in "${apt_packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" = "0" ] || sudo="sudo"
    $sudo apt-get update -qq >/dev/null
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    done_steps+=("installed ${missing[*]}")
fi

if [ ! -x "$venv/bin/python" ]; then
    mkdir -p "$(dirname "$venv")"
    "$python" -m venv "$venv"
    done_steps+=("created $venv")
fi

# The requirements and the client's files: either changing reinstalls.
client="$repo/clients/python"
wanted="$( (cat "$requirements"; cd "$client" && find pyproject.toml caffe_client -type f -not -path '*/__pycache__/*' |
    LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    log="$venv/pip-install.log"
    if ! { "$venv/bin/python" -m pip install -q --upgrade pip &&
        "$venv/bin/python" -m pip install -q -r "$requirements" &&
        "$venv/bin/python" -m pip install -q --no-deps --no-build-isolation --force-reinstall "$client"; } >"$log" 2>&1; then
        echo "python peers: pip install failed; see $log" >&2
        tail -n 20 "$log" >&2
        exit 1
    fi
    echo "$wanted" >"$stamp"
    done_steps+=("installed $(grep -cvE '^\s*(#|$)' "$requirements") pinned requirements and the client")
fi

if ((${#done_steps[@]})); then
    summary="${done_steps[0]}"
    for step in "${done_steps[@]:1}"; do summary+="; $step"; done
    echo "python peers: $summary"
else
    echo "python peers: already set up in $venv"
fi
