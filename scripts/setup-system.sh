#!/usr/bin/env bash
# Installs the Debian packages the project needs, only when one is missing (idempotent, quick).
#   cairo/pango headers + pkg-config: to build pycairo and manimpango (no Linux wheels)
#   fonts-noto-cjk: Chinese labels and captions; fonts-noto-core: Arabic, Hebrew and other scripts
#   in token labels; fonts-noto-color-emoji: emoji labels;  tesseract-ocr: the OCR check of numbers
#   python3.11 + venv: the .venv's interpreter (torch's CPU wheel on disk is for CPython 3.11)
#   chromium: the headless browser test of the lecture page (driven by Playwright)
#   npm: fetches the reveal.js files of the offline slide deck from the npm registry
set -euo pipefail

packages=(libcairo2-dev libpango1.0-dev pkg-config fonts-noto-cjk fonts-noto-core fonts-noto-color-emoji tesseract-ocr chromium)
command -v npm >/dev/null 2>&1 || packages+=(npm)
command -v python3.11 >/dev/null 2>&1 || packages+=(python3.11 python3.11-venv)
if command -v python3.11 >/dev/null 2>&1 && ! python3.11 -c 'import ensurepip, venv' 2>/dev/null; then
    packages+=(python3.11-venv)
fi

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: missing system packages (${missing[*]}) and no apt-get to install them;" \
         "install them with your system's package manager" >&2
    exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "setup: installing system packages: ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
