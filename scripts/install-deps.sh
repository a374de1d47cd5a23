#!/usr/bin/env bash
# Installs the Debian packages ntensor needs, if any is missing (with sudo when
# not root). Safe to run repeatedly: it does nothing when everything is there.
#   scripts/install-deps.sh           # what the build, the tests and the benchmarks need
#   scripts/install-deps.sh --peers   # also the libraries of scripts/bench.sh --peers
set -euo pipefail

packages=(g++ clang-14 cmake ninja-build libboost-dev librange-v3-dev catch2 nlohmann-json3-dev libbenchmark-dev python3-numpy zlib1g-dev libopenblas-dev libhwy-dev
          libzstd-dev libblosc-dev python3-zarr python3-numcodecs python3-xarray python3-dask python3-distributed
          python3-torch python3-scipy python3-skimage
          pybind11-dev python3-pybind11 python3-dev python3-pytest)
if [ "${1:-}" = "--peers" ]; then
    packages+=(libxtensor-dev libxsimd-dev libeigen3-dev libtorch-dev)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
