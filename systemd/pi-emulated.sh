#!/usr/bin/env bash
# `make pi-emulated`: the appliance's install on arm64 Raspberry Pi OS releases, without a Pi.
# Development only (root, minutes per release; not part of `make test`).
#
#   sudo systemd/pi-emulated.sh [--release bookworm|trixie]... [--tests all|PATTERN...]
#
# For each release (default: both) it builds an arm64 Debian root with debootstrap, run under
# qemu-user through binfmt_misc (apt-get install debootstrap qemu-user-static binfmt-support),
# from the mirror apt is configured with here (Debian's archive: the Raspberry Pi archive is not
# reachable, so picamera2, libcamera, lgpio and the rpicam tools are absent). Inside it:
#   1. systemd/install.sh --dry-run: the plan install.sh makes for that release;
#   2. the plan's Debian packages from apt (those the Raspberry Pi archive has are reported absent);
#   3. the venv as install.sh makes it (--system-site-packages), the release's pins and the
#      project's wheel (built here), every Python package from a wheel (--only-binary :all:);
#   4. `tablekeeper doctor --json --sim`, `tablekeeper demo`, and the test suite or the named
#      subset (--tests; default: the start-up, device, install and display-kernel tests) with
#      the installed package (python -P: the copy of the checkout is not on the import path);
#      PI_TEST_SECONDS=N stops the tests after N seconds with the counts so far.
# At the end it prints, per release, what came from wheels, what came from apt, what failed and
# the test counts. Roots are kept in $PI_EMULATED_DIR (default /var/tmp/tablekeeper-pi-emulated)
# and reused: only the venv and the copy of the project are made afresh on each run.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${PI_EMULATED_DIR:-/var/tmp/tablekeeper-pi-emulated}"
RELEASES=()
TESTS=()
# Quick enough under emulation (a few minutes): what a first boot exercises.
DEFAULT_TESTS=(
  tests/test_install_plan.py tests/test_systemd.py tests/test_doctor.py tests/test_launch_gl.py
  tests/test_panel.py tests/test_touch.py tests/test_cli_lgpio.py tests/test_start_errors.py
  tests/test_device_config.py tests/test_device_hardware.py tests/test_device_camera.py
  tests/test_device_health.py tests/test_device_service.py tests/test_device_startup.py
  tests/test_display_app.py tests/test_store.py tests/test_vision_synth.py
)

while [ $# -gt 0 ]; do
  case "$1" in
    --release) RELEASES+=("${2:?--release needs bookworm or trixie}"); shift 2 ;;
    --tests) shift; while [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; do TESTS+=("$1"); shift; done ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "pi-emulated: unknown option $1" >&2; exit 2 ;;
  esac
done
[ ${#RELEASES[@]} -gt 0 ] || RELEASES=(bookworm trixie)
[ ${#TESTS[@]} -gt 0 ] || TESTS=("${DEFAULT_TESTS[@]}")
[ "${TESTS[*]}" != all ] || TESTS=(tests)

fail() { echo "pi-emulated: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap, chroot and mounts need it)"
command -v debootstrap >/dev/null || fail "no debootstrap: apt-get install debootstrap qemu-user-static binfmt-support"
[ -e /proc/sys/fs/binfmt_misc/status ] ||
  mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null ||
  fail "binfmt_misc is not mounted and cannot be"
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 ||
  fail "no qemu-aarch64 binfmt entry: apt-get install qemu-user-static binfmt-support"

# Debian's archive as apt here is configured (deb822 .sources or a one-line sources.list).
mirror() {
  local uri
  uri="$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' |
    grep -v security | head -n1 || true)"
  [ -n "$uri" ] || uri="$(grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
    awk '{print $2}' | grep -v security | head -n1 || true)"
  echo "${PI_EMULATED_MIRROR:-${uri:-http://deb.debian.org/debian}}"
}
MIRROR="$(mirror)"

mkdir -p "$WORK"
WHEELS="$(mktemp -d "$WORK/wheels.XXXXXX")"  # one per run: two runs (one a release) may overlap
echo "== building the project's wheel"
STAGE="$(mktemp -d)"
tar -C "$REPO" --exclude=./.venv --exclude=./.venv-pi --exclude=./.git --exclude='*/__pycache__' \
  --exclude=./build --exclude='./*.egg-info' --exclude='./.*_cache' --exclude=./.hypothesis \
  -cf - . | tar -C "$STAGE" -xf -
python3 -m pip wheel --quiet --no-deps -w "$WHEELS" "$STAGE" 2>&1 | grep -v '^WARNING: Location' || true
ls "$WHEELS"/tablekeeper-*.whl >/dev/null || fail "the project's wheel did not build"
# Test files named that this checkout does not have are left out (pytest would run nothing).
SELECTED=()
for name in "${TESTS[@]}"; do
  if compgen -G "$STAGE/$name" >/dev/null; then SELECTED+=("$name"); else
    echo "   (no $name in this checkout: left out)"; fi
done
TESTS=("${SELECTED[@]}")

MOUNTED=()
cleanup() {
  local point
  for point in "${MOUNTED[@]}"; do umount -R "$point" 2>/dev/null || umount -l "$point" || true; done
  rm -rf "$STAGE" "$WHEELS"
}
trap cleanup EXIT

in_root() { chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 "$@"; }

one_release() {
  local release="$1" out summary
  ROOT="$WORK/$release"
  out="$WORK/$release.log"
  summary="$WORK/$release.summary"
  : > "$summary"
  echo "== $release: root in $ROOT (log: $out)"
  if [ ! -e "$ROOT/.debootstrapped" ]; then
    rm -rf "$ROOT"
    echo "   debootstrap arm64 $release from $MIRROR (emulated: several minutes)"
    debootstrap --arch=arm64 --variant=minbase --include=ca-certificates,python3 \
      "$release" "$ROOT" "$MIRROR" >>"$out" 2>&1 || { echo "failed: debootstrap (see $out)" >>"$summary"; return 1; }
    touch "$ROOT/.debootstrapped"
  fi
  mount -t proc proc "$ROOT/proc" && MOUNTED+=("$ROOT/proc")
  mount --rbind /dev "$ROOT/dev" && mount --make-rslave "$ROOT/dev" && MOUNTED+=("$ROOT/dev")
  cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
  # pip inside trusts what pip here trusts (a proxy's own certificate authority, say).
  HOST_CA="$(python3 -m pip config list 2>/dev/null | sed -n "s/^global.cert='\(.*\)'$/\1/p" |
    head -n1)"
  HOST_CA="${PIP_CERT:-${HOST_CA:-/etc/ssl/certs/ca-certificates.crt}}"
  PIP_CERT_ENV=""
  if [ -n "$HOST_CA" ] && [ -r "$HOST_CA" ]; then
    cp -L "$HOST_CA" "$ROOT/opt/host-ca.crt"
    PIP_CERT_ENV="PIP_CERT=/opt/host-ca.crt"
  fi

  echo "   project copied to /opt/tablekeeper, as install.sh does"
  rm -rf "$ROOT/opt/tablekeeper" "$ROOT/opt/wheels"
  mkdir -p "$ROOT/opt/tablekeeper"
  tar -C "$STAGE" -cf - . | tar -C "$ROOT/opt/tablekeeper" -xf -
  cp -r "$WHEELS" "$ROOT/opt/wheels"

  echo "   install.sh --dry-run"
  in_root bash /opt/tablekeeper/systemd/install.sh --dry-run > "$WORK/$release.plan" 2>&1 ||
    { echo "failed: install.sh --dry-run" >>"$summary"; cat "$WORK/$release.plan" >>"$out"; return 1; }
  local plan_release all_apt rpi_apt debian_apt pip_pins
  plan_release="$(sed -n 's/^plan release: //p' "$WORK/$release.plan")"
  all_apt="$(sed -n 's/^plan apt: //p' "$WORK/$release.plan")"
  rpi_apt="$(sed -n 's/^plan apt from the Raspberry Pi archive ([^)]*): //p' "$WORK/$release.plan")"
  pip_pins="$(sed -n 's/^plan pip: \(.*\) (from .*/\1/p' "$WORK/$release.plan")"
  debian_apt=""
  local package
  for package in $all_apt; do
    case " $rpi_apt " in *" $package "*) ;; *) debian_apt+="$package " ;; esac
  done
  echo "plan: $plan_release; pip pins: $pip_pins" >>"$summary"

  echo "   apt: $debian_apt"
  # shellcheck disable=SC2086
  if in_root sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends $debian_apt" >>"$out" 2>&1; then
    echo "from Debian's archive: $debian_apt" >>"$summary"
  else
    echo "failed: apt-get install $debian_apt (see $out)" >>"$summary"
  fi
  echo "absent (Raspberry Pi archive, not reachable here): $rpi_apt" >>"$summary"

  echo "   venv and pip (wheels only)"
  local requirements
  requirements="systemd/requirements-$(echo "$plan_release" | cut -d' ' -f1).txt"
  if ! in_root env $PIP_CERT_ENV sh -c "cd /opt/tablekeeper && python3 -m venv --system-site-packages .venv &&
      .venv/bin/python -m pip install --quiet --disable-pip-version-check --only-binary :all: --retries 10 \
        --report /opt/pip-report.json --requirement $requirements \
        /opt/wheels/tablekeeper-*.whl pytest 'hypothesis>=6.100'" >>"$out" 2>&1; then
    echo "failed: pip install (see $out)" >>"$summary"
    return 1
  fi
  in_root env PYGAME_HIDE_SUPPORT_PROMPT=1 /opt/tablekeeper/.venv/bin/python - >>"$summary" <<'PY'
import json, sys
report = json.load(open("/opt/pip-report.json"))
wheels = []
for item in report["install"]:
    url = item.get("download_info", {}).get("url", "")
    wheels.append(url.rsplit("/", 1)[-1])
print("from wheels:", ", ".join(sorted(wheels, key=str.lower)))
import numpy, cv2, pygame
print(f"in use: Python {sys.version.split()[0]}, numpy {numpy.__version__} "
      f"({'apt' if numpy.__file__.startswith('/usr/lib') else 'wheel'}), OpenCV {cv2.__version__}, "
      f"pygame-ce {pygame.version.ver} with SDL {'.'.join(map(str, pygame.get_sdl_version()))}")
PY

  # The launch check the service runs before opening the panel: every library and Mesa's driver.
  local driver
  driver="$(in_root env PYGAME_HIDE_SUPPORT_PROMPT=1 /opt/tablekeeper/.venv/bin/python -c "
from device.health import find_mesa_driver, library_dirs
from display.launch import kmsdrm_libraries_missing
problem = kmsdrm_libraries_missing({'SDL_VIDEODRIVER': 'kmsdrm'})
print(problem or find_mesa_driver(library_dirs()))
" 2>>"$out" || echo "did not run")"
  case "$driver" in
    /*) echo "launch check (kmsdrm): libraries found, Mesa's driver $driver" \
          "(from $(in_root dpkg -S "$driver" 2>/dev/null | cut -d: -f1 | head -n1))" >>"$summary" ;;
    *) echo "failed: launch check (kmsdrm): $driver" >>"$summary" ;;
  esac

  local env_sim="SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 \
XDG_STATE_HOME=/tmp/state XDG_CONFIG_HOME=/tmp/config"
  echo "   doctor --json --sim"
  if in_root sh -c "cd /tmp && env $env_sim /opt/tablekeeper/.venv/bin/tablekeeper doctor --json --sim" \
      > "$WORK/$release.doctor.json" 2>>"$out"; then
    echo "doctor --sim: all checks passed" >>"$summary"
  else
    echo "failed: doctor --sim ($(grep -c '"status": "fail"' "$WORK/$release.doctor.json") checks)" >>"$summary"
  fi
  echo "   demo"
  if in_root sh -c "cd /tmp && env $env_sim /opt/tablekeeper/.venv/bin/tablekeeper demo --out /tmp/demo" \
      > "$WORK/$release.demo" 2>&1; then
    echo "demo: $(grep '^wrote' "$WORK/$release.demo" | sed 's/ to:$//')" >>"$summary"
  else
    echo "failed: demo ($(tail -n1 "$WORK/$release.demo"))" >>"$summary"
  fi

  echo "   tests: ${TESTS[*]}"
  # PI_TEST_SECONDS: a time budget; pytest is interrupted then (SIGINT) and still prints the
  # counts so far.
  local budget="" status=0
  [ -z "${PI_TEST_SECONDS:-}" ] || budget="timeout --signal=INT --kill-after=120 $PI_TEST_SECONDS"
  in_root sh -c "cd /opt/tablekeeper && env $env_sim $budget /opt/tablekeeper/.venv/bin/python -P \
      -m pytest -q -rfE -p no:cacheprovider ${TESTS[*]}" > "$WORK/$release.tests" 2>&1 || status=$?
  grep -E '^(FAILED|ERROR) ' "$WORK/$release.tests" | sed 's/^/failed: /' >>"$summary" || true
  local counts
  counts="$(grep -E '(passed|failed|errors?|no tests ran).* in [0-9.]+s' "$WORK/$release.tests" | tail -n1 |
    tr -d '=' | sed 's/^ *//; s/ *$//')"
  [ "$status" -ne 124 ] || counts="$counts (stopped by the ${PI_TEST_SECONDS} s budget)"
  echo "tests: ${counts:-$(tail -n1 "$WORK/$release.tests")}" >>"$summary"
}

status=0
for release in "${RELEASES[@]}"; do
  case "$release" in bookworm|trixie) ;; *) fail "unknown release $release (bookworm or trixie)" ;; esac
  started=$(date +%s)
  one_release "$release" || status=1
  echo "took: $(( $(date +%s) - started )) s" >>"$WORK/$release.summary"
  for point in "${MOUNTED[@]}"; do umount -R "$point" 2>/dev/null || umount -l "$point" || true; done
  MOUNTED=()
done

for release in "${RELEASES[@]}"; do
  echo
  echo "== $release (arm64, emulated)"
  cat "$WORK/$release.summary"
  grep -q '^failed' "$WORK/$release.summary" && status=1
done
exit $status
