#!/usr/bin/env bash
# Install Tablekeeper as a service on Raspberry Pi OS (Bookworm or later), as root:
#
#   sudo systemd/install.sh [--prefix /opt/tablekeeper] [--no-start] [--dry-run]
#
# It installs the apt packages (picamera2 and friends), copies this checkout to the prefix,
# creates a venv there with --system-site-packages (so the apt picamera2/libcamera are visible)
# and installs the project with the `pi` extra (numpy<2, opencv<4.12: see README), creates the
# `tablekeeper` user and its groups, the state directory and /etc/tablekeeper/config.toml,
# installs the unit and enables it. Running it again upgrades in place; state and config stay.
set -euo pipefail

PREFIX=/opt/tablekeeper
START=yes
DRY_RUN=no
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SERVICE_USER=tablekeeper
STATE_DIR=/var/lib/tablekeeper
CONFIG_DIR=/etc/tablekeeper
UNIT_DIR=/etc/systemd/system
APT_PACKAGES=(python3-venv python3-pip python3-lgpio python3-picamera2 python3-libcamera
  libcamera-apps-lite)

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX="${2:?--prefix needs a folder}"; shift 2 ;;
    --no-start) START=no; shift ;;
    --dry-run) DRY_RUN=yes; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
  esac
done

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

echo "== apt packages"
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT_PACKAGES[@]}"

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
      --exclude=./build --exclude='./*.egg-info' -cf - . | tar -C "$PREFIX" -xf -
  fi
fi
run python3 -m venv --system-site-packages "$PREFIX/.venv"
run "$PREFIX/.venv/bin/python" -m pip install --quiet --upgrade pip
run "$PREFIX/.venv/bin/python" -m pip install --quiet "$PREFIX[pi]"

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
  chmod 0644 "$UNIT_DIR/tablekeeper.service"
fi
run systemctl daemon-reload
if [ "$START" = yes ]; then
  run systemctl enable --now tablekeeper.service
else
  run systemctl enable tablekeeper.service
fi
echo "== done: journalctl -u tablekeeper -f shows the log; edit $CONFIG_DIR/config.toml for pins"
