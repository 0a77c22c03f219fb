#!/usr/bin/env bash
# Install Tablekeeper as a service on Raspberry Pi OS Bookworm (12) or Trixie (13), as root:
#
#   sudo systemd/install.sh [--prefix /opt/tablekeeper] [--no-start] [--dry-run]
#                           [--os-release FILE]
#
# The plan follows the OS release (read from /etc/os-release, or FILE): Bookworm keeps numpy<2
# and opencv-python-headless<4.12 (apt's picamera2 is built on numpy 1); Trixie uses numpy 2
# from apt and current OpenCV. It installs the apt packages (picamera2, lgpio, the EGL/GBM/DRM
# libraries SDL's KMSDRM driver loads and, on Bookworm, Mesa's driver), copies this checkout to the prefix, makes a venv there
# with --system-site-packages and installs the project with that release's pins
# (systemd/requirements-RELEASE.txt), creates the `tablekeeper` user and its groups, the state
# directory and /etc/tablekeeper/config.toml, installs the unit and enables it. --dry-run prints
# the plan and the steps without changing anything. Running it again upgrades in place.
set -euo pipefail

PREFIX=/opt/tablekeeper
START=yes
DRY_RUN=no
OS_RELEASE=/etc/os-release
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVICE_USER=tablekeeper
STATE_DIR=/var/lib/tablekeeper
CONFIG_DIR=/etc/tablekeeper
UNIT_DIR=/etc/systemd/system
RPI_ARCHIVE=http://archive.raspberrypi.com/debian/

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="${2:?--prefix needs a folder}"; shift 2 ;;
    --no-start) START=no; shift ;;
    --dry-run) DRY_RUN=yes; shift ;;
    --os-release) OS_RELEASE="${2:?--os-release needs a file}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

# -- the prefix, checked before anything changes ------------------------------------------------
# It is written into the unit with sed and into paths root runs: an absolute path of plain
# characters only (no spaces, no sed specials such as & \ #, no "..").
case "$PREFIX" in
  /*) ;;
  *) echo "install.sh: --prefix must be an absolute path, not $PREFIX" >&2; exit 2 ;;
esac
if ! printf '%s' "$PREFIX" | grep -Eq '^(/[A-Za-z0-9._+-]+)+/?$' \
   || printf '%s' "$PREFIX" | grep -Eq '(^|/)\.\.?(/|$)'; then
  echo "install.sh: --prefix may hold only letters, digits and . _ + - between slashes," \
    "not $PREFIX" >&2
  exit 2
fi
PREFIX="${PREFIX%/}"

# -- the release decides the plan ------------------------------------------------------------------
if [ ! -r "$OS_RELEASE" ]; then
  echo "install.sh: cannot read $OS_RELEASE (which OS is this?)" >&2
  exit 2
fi
# os-release is shell-compatible (os-release(5)); read it in a subshell, keep three fields.
read -r RELEASE_ID RELEASE_VERSION RELEASE_CODENAME < <(
  # shellcheck disable=SC1090
  . "$OS_RELEASE"; echo "${ID:-unknown} ${VERSION_ID:-0} ${VERSION_CODENAME:-unknown}"
)
PRETTY="$(. "$OS_RELEASE"; echo "${PRETTY_NAME:-$RELEASE_ID $RELEASE_VERSION}")"
RELEASE_MAJOR="${RELEASE_VERSION%%.*}"
case "$RELEASE_MAJOR" in ''|*[!0-9]*) RELEASE_MAJOR=0 ;; esac

if [ "$RELEASE_MAJOR" -eq 12 ]; then
  PLAN=bookworm
  PYTHON_SERIES=3.11
  # Mesa 22's libgbm1 loads the vc4/v3d driver (libgl1-mesa-dri) at run time without depending
  # on it: Lite lacks it and EGL fails ("MESA-LOADER: failed to open vc4").
  MESA_DRIVER=(libgl1-mesa-dri)
  RESTART_STEPS=no   # systemd 252: no RestartSteps=
elif [ "$RELEASE_MAJOR" -ge 13 ]; then
  PLAN=trixie
  PYTHON_SERIES=3.13
  MESA_DRIVER=()     # Mesa 25's libgbm1 depends on libgallium, where the drivers live
  RESTART_STEPS=yes  # systemd 257: restarts slow down step by step
  if [ "$RELEASE_MAJOR" -gt 13 ]; then
    echo "install.sh: $PRETTY is newer than Trixie; using the Trixie plan (untested)" >&2
  fi
else
  echo "install.sh: $PRETTY is not supported: Tablekeeper needs Raspberry Pi OS Bookworm (12)" \
    "or Trixie (13)" >&2
  exit 2
fi

REQUIREMENTS="systemd/requirements-$PLAN.txt"
# From Debian: Python, numpy (the one apt's picamera2 is built on) and the libraries SDL's
# KMSDRM driver loads at run time (the pygame-ce wheel does not bundle them; Lite may lack them).
DEBIAN_PACKAGES=(python3-venv python3-pip python3-numpy libegl1 libgles2 libgbm1 libdrm2
  "${MESA_DRIVER[@]}")
# The camera tools (rpicam-hello for doctor's fix): rpicam-apps-lite, the current name on both
# releases (libcamera-apps* are the retired names) - unless some rpicam-apps* is installed
# already (a Desktop image has the full rpicam-apps, which overwrites each other's files with
# the lite one).
CAMERA_APPS="$(dpkg-query --show --showformat='${Package} ${db:Status-Status}\n' \
  'rpicam-apps*' 'libcamera-apps*' 2>/dev/null | awk '$2 == "installed" { print $1; exit }' || true)"
if [ -n "$CAMERA_APPS" ]; then
  CAMERA_PLAN="$CAMERA_APPS is installed: kept"
  CAMERA_PACKAGES=()
else
  CAMERA_PLAN="rpicam-apps-lite"
  CAMERA_PACKAGES=(rpicam-apps-lite)
fi
# From the Raspberry Pi archive, not Debian's.
RPI_PACKAGES=(python3-picamera2 python3-libcamera python3-lgpio "${CAMERA_PACKAGES[@]}")
PIP_REQUIREMENTS="$(grep -v '^\s*#' "$SOURCE/$REQUIREMENTS" | grep -v '^\s*$' | tr '\n' ' ')"

echo "== plan for $PRETTY (from $OS_RELEASE)"
echo "plan release: $PLAN (Python $PYTHON_SERIES)"
echo "plan apt: ${DEBIAN_PACKAGES[*]} ${RPI_PACKAGES[*]}"
echo "plan apt from the Raspberry Pi archive ($RPI_ARCHIVE): ${RPI_PACKAGES[*]}"
echo "plan pip: ${PIP_REQUIREMENTS% } (from $REQUIREMENTS) and the project"
echo "plan camera tools: $CAMERA_PLAN"

# A desktop's display manager is DRM master of the screen: SDL's KMSDRM driver then finds no card
# it can use ("kmsdrm not available") and the service restarts for ever. Say so before anything.
DEFAULT_TARGET="$(systemctl get-default 2>/dev/null || true)"
if [ "$DEFAULT_TARGET" = graphical.target ]; then
  DISPLAY_MANAGER="$(systemctl show --property=Id --value display-manager.service 2>/dev/null ||
    true)"
  case "$DISPLAY_MANAGER" in ''|display-manager.service) DISPLAY_MANAGER="the display manager" ;; esac
  cat >&2 <<EOF
install.sh: warning: this Pi boots to the desktop (graphical.target): $DISPLAY_MANAGER holds the
  screen and Tablekeeper cannot draw on it (the service would restart over and over).
  For a table appliance, boot to the console instead, then reboot:
    sudo systemctl set-default multi-user.target    (or raspi-config: System Options > Boot)
  To keep the desktop, stop it whenever the appliance runs:
    sudo systemctl stop display-manager.service
EOF
fi

run() {
  if [ "$DRY_RUN" = yes ]; then
    printf '+ %s\n' "$*"
  else
    "$@"
  fi
}

if [ "$DRY_RUN" = no ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run as root (sudo $0)" >&2
  exit 2
fi

require_rpi_archive() {
  if [ "$DRY_RUN" = yes ]; then
    echo "+ check that apt can find ${RPI_PACKAGES[*]}"
    return
  fi
  local missing=() package
  for package in "${RPI_PACKAGES[@]}"; do
    apt-cache show "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    cat >&2 <<EOF
install.sh: apt cannot find ${missing[*]}.
  These come from the Raspberry Pi archive ($RPI_ARCHIVE), not from Debian's.
  Raspberry Pi OS has it set up; on another Debian add it:
    echo "deb $RPI_ARCHIVE $RELEASE_CODENAME main" > /etc/apt/sources.list.d/raspi.list
  with its signing key (the raspberrypi-archive-keyring package), then apt-get update and run
  this script again.
EOF
    exit 1
  fi
}

echo "== apt packages"
run apt-get update -qq
require_rpi_archive
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${DEBIAN_PACKAGES[@]}" "${RPI_PACKAGES[@]}"

echo "== user $SERVICE_USER and groups"
for group in video render input gpio; do
  getent group "$group" >/dev/null || run groupadd --system "$group"
done
if ! getent passwd "$SERVICE_USER" >/dev/null; then
  run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
    --shell /usr/sbin/nologin --comment "Tablekeeper appliance" "$SERVICE_USER"
fi
run usermod --append --groups video,render,input,gpio "$SERVICE_USER"

echo "== code and venv in $PREFIX"
run install -d -m 0755 "$PREFIX"
# Copy the checkout (not its venv, git data or caches).
if [ "$(realpath "$SOURCE")" != "$(realpath -m "$PREFIX")" ]; then
  if [ "$DRY_RUN" = yes ]; then
    echo "+ copy $SOURCE to $PREFIX (without .venv, .git, caches)"
  else
    tar -C "$SOURCE" --exclude=./.venv --exclude=./.git --exclude='*/__pycache__' \
      --exclude=./build --exclude='./*.egg-info' -cf - . \
      | tar -C "$PREFIX" --no-same-owner --no-same-permissions -xf -
  fi
fi
# --system-site-packages: apt's picamera2, libcamera, lgpio and numpy are seen in the venv.
run python3 -m venv --system-site-packages "$PREFIX/.venv"
run "$PREFIX/.venv/bin/python" -m pip install --quiet --upgrade pip
run "$PREFIX/.venv/bin/python" -m pip install --quiet --requirement "$PREFIX/$REQUIREMENTS" \
  "$PREFIX"
# Everything installed is root's and read-only to others: the service user (or the checkout's
# owner) must not be able to change code the service runs, record-exit.sh included.
run chown -R root:root "$PREFIX"
run chmod -R go-w "$PREFIX"

echo "== state directory $STATE_DIR and config $CONFIG_DIR/config.toml"
run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE_DIR"
run install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/config.toml" ]; then
  if [ "$DRY_RUN" = yes ]; then
    echo "+ write the default config to $CONFIG_DIR/config.toml"
  else
    "$PREFIX/.venv/bin/tablekeeper" config --defaults > "$CONFIG_DIR/config.toml"
  fi
fi

echo "== systemd unit"
if [ "$DRY_RUN" = yes ]; then
  echo "+ install tablekeeper.service to $UNIT_DIR (ExecStart under $PREFIX)"
else
  sed "s#/opt/tablekeeper#$PREFIX#g" "$SOURCE/systemd/tablekeeper.service" \
    > "$UNIT_DIR/tablekeeper.service"
  chown root:root "$UNIT_DIR/tablekeeper.service"
  chmod 0644 "$UNIT_DIR/tablekeeper.service"
fi
DROP_IN="$UNIT_DIR/tablekeeper.service.d/restart-pace.conf"
if [ "$RESTART_STEPS" = yes ]; then
  # systemd >= 254: the first restart comes quickly, a crash loop slows down to one a minute.
  if [ "$DRY_RUN" = yes ]; then
    echo "+ write $DROP_IN (RestartSec=2, RestartSteps=5, RestartMaxDelaySec=60)"
  else
    install -d -m 0755 "$(dirname "$DROP_IN")"
    printf '[Service]\nRestartSec=2\nRestartSteps=5\nRestartMaxDelaySec=60\n' > "$DROP_IN"
    chmod 0644 "$DROP_IN"
  fi
fi
run systemctl daemon-reload
if [ "$START" = yes ]; then
  run systemctl enable --now tablekeeper.service
else
  run systemctl enable tablekeeper.service
fi
echo "== done: journalctl -u tablekeeper -f shows the log; $PREFIX/.venv/bin/tablekeeper doctor" \
  "checks the set-up; edit $CONFIG_DIR/config.toml for pins"
