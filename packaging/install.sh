#!/usr/bin/env bash
# Install Ascend Workbench and what it needs on Debian/Ubuntu (run from the repo root):
#   system packages (CJK font, Qt's X11 libraries, Xvfb, OpenSSH) when run as root or with sudo,
#   then the Python package itself (editable) with pip.
set -euo pipefail
cd "$(dirname "$0")/.."
APT_PACKAGES="fonts-wqy-microhei xvfb xauth libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-image0 \
libxcb-render-util0 libxcb-shape0 libxcb-randr0 libxcb-xinerama0 libxcb-xkb1 libxkbcommon-x11-0 libegl1 libgl1 \
libfontconfig1 libdbus-1-3 openssh-server openssh-client"
missing=$(dpkg-query -W -f='${Status} ${Package}\n' $APT_PACKAGES 2>&1 | grep -v '^install ok installed' || true)
if [ -n "$missing" ] && command -v apt-get >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $APT_PACKAGES >/dev/null
fi
PIP_EXTRA="${1:-}"
python3 -m pip install -q --disable-pip-version-check -e ".${PIP_EXTRA}"
