"""systemd integration: notify protocol against a real datagram socket, the loop's READY and
watchdog pings, the unit file (systemd-analyze verify) and the install script."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero import Device

from display.cli import main
from display.notify import Notifier

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "tablekeeper.service"
INSTALL = REPO / "systemd" / "install.sh"
RECORD_EXIT = REPO / "systemd" / "record-exit.sh"
BOOKWORM = str(REPO / "tests" / "fixtures" / "os-release" / "bookworm")


@pytest.fixture
def listener(tmp_path: Path):
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    path = tmp_path / "notify.sock"
    sock.bind(str(path))
    sock.settimeout(2)
    yield sock, str(path)
    sock.close()


def received(sock: socket.socket) -> list[str]:
    messages = []
    sock.settimeout(0.05)
    try:
        while True:
            messages.append(sock.recv(4096).decode())
    except (TimeoutError, BlockingIOError):
        return messages


def test_ready_and_paced_watchdog_pings(listener):
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"})
    assert notifier.interval == 2.0  # half of WatchdogSec
    assert notifier.ready("home")
    assert sock.recv(4096) == b"READY=1\nSTATUS=home"
    assert notifier.watchdog(100.0)
    assert not notifier.watchdog(101.0)  # too soon
    assert notifier.watchdog(102.0)
    assert received(sock) == ["WATCHDOG=1", "WATCHDOG=1"]
    notifier.close()


def test_abstract_namespace_socket():
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"tablekeeper-test-{os.getpid()}"
    sock.bind("\0" + name)
    try:
        notifier = Notifier({"NOTIFY_SOCKET": "@" + name})
        assert notifier.stopping()
        sock.settimeout(2)
        assert sock.recv(64) == b"STOPPING=1"
    finally:
        sock.close()


def test_a_full_socket_never_blocks_the_loop(listener):
    sock, path = listener
    notifier = Notifier({"NOTIFY_SOCKET": path})
    results = [notifier.status(f"frame {i}") for i in range(200)]  # nobody reads
    assert results[0] and not all(results)
    notifier.close()


def test_outside_systemd_nothing_is_sent_and_nothing_fails(tmp_path: Path):
    quiet = Notifier({})
    assert not quiet.enabled and not quiet.ready() and not quiet.watchdog(1.0)
    gone = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    assert not gone.ready()  # an error is swallowed: the appliance keeps running
    other_pid = Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"})
    assert other_pid.interval is None  # the watchdog is for another process


def test_the_loop_sends_ready_then_watchdog(listener, tmp_path: Path, monkeypatch):
    sock, path = listener
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # ping every 0.1 s: a few in 15 frames
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr("display.cli.COMMAND_MODULES", ["display.commands.app"])
    try:
        code = main(
            ["run", "--sim", "--state-dir", str(tmp_path / "s"), "--exit-after-frames", "15"]
        )
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
    assert code == 0
    messages = received(sock)
    assert messages[0].startswith("READY=1")
    assert messages.count("WATCHDOG=1") >= 2
    assert messages[-1] == "STOPPING=1"


def test_unit_has_what_the_appliance_needs():
    text = UNIT.read_text()
    for line in (
        "Type=notify",
        "WatchdogSec=",
        "Restart=always",
        "StartLimitIntervalSec=0",
        "ExecStopPost=-/bin/sh /opt/tablekeeper/systemd/record-exit.sh",
        "User=tablekeeper",
        "SupplementaryGroups=video render input gpio",
        "StateDirectory=tablekeeper",
        "RuntimeDirectory=tablekeeper",
        "Environment=XDG_RUNTIME_DIR=/run/tablekeeper",
        "Environment=SDL_VIDEODRIVER=kmsdrm",
        "Environment=OPENBLAS_NUM_THREADS=1",
        "ExecStart=/opt/tablekeeper/.venv/bin/tablekeeper run",
    ):
        assert line in text, line
    settings = "".join(x for x in text.splitlines() if not x.startswith("#"))
    assert "network-online.target" not in settings
    # Never give up restarting (a burst limit leaves a table appliance dead until a reboot),
    # at a calm pace.
    assert "StartLimitBurst" not in settings
    restart_sec = [x for x in text.splitlines() if x.startswith("RestartSec=")]
    assert restart_sec and int(restart_sec[0].split("=")[1]) >= 5


def test_unit_starts_after_the_boot_splash_has_let_go_of_the_screen():
    """plymouth is DRM master until it quits; SDL's KMSDRM driver skips a card it cannot be
    master of ("kmsdrm not available"), so the unit waits for plymouth-quit-wait."""
    unit = {}
    for line in UNIT.read_text().splitlines():
        key, _, value = line.partition("=")
        if value and not line.startswith("#"):
            unit.setdefault(key, []).extend(value.split())
    assert "plymouth-quit-wait.service" in unit["After"]
    assert "getty@tty1.service" in unit["Conflicts"] and "getty@tty1.service" in unit["After"]
    assert "SDL_KMSDRM_DEVICE_INDEX" not in UNIT.read_text()  # SDL finds the display card itself


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_systemd_analyze_verify(tmp_path: Path):
    # As install.sh does for another prefix: point ExecStart at this checkout's venv.
    tablekeeper = Path(sys.executable).parent / "tablekeeper"
    unit = tmp_path / "tablekeeper.service"
    unit.write_text(
        UNIT.read_text()
        .replace("/opt/tablekeeper/.venv/bin/tablekeeper", str(tablekeeper))
        .replace("/opt/tablekeeper/systemd", str(REPO / "systemd"))
    )
    result = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    problems = [x for x in result.stderr.splitlines() if "tablekeeper.service" in x]
    assert result.returncode == 0 and not problems, result.stderr


def test_install_script_dry_run_covers_every_step():
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run", "--prefix", "/srv/tk", "--os-release", BOOKWORM],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "python3-picamera2" in out
    assert "venv --system-site-packages /srv/tk/.venv" in out
    assert "--requirement /srv/tk/systemd/requirements-bookworm.txt /srv/tk" in out
    assert "libegl1 libgles2 libgbm1 libdrm2" in out
    assert "useradd --system" in out or "usermod --append" in out
    assert "install -d -o tablekeeper -g tablekeeper -m 0750 /var/lib/tablekeeper" in out
    assert "systemctl enable --now tablekeeper.service" in out


def test_install_script_rejects_unknown_options():
    result = subprocess.run(["bash", str(INSTALL), "--bogus"], capture_output=True, text=True)
    assert result.returncode == 2 and "unknown option --bogus" in result.stderr


def test_sigterm_stops_the_loop_cleanly_and_keeps_the_state(tmp_path: Path):
    import signal
    import time

    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    state = tmp_path / "state"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "display",
            "run",
            "--sim",
            "--state-dir",
            str(state),
            "--exit-after-frames",
            "100000",
            "--report-first-frame",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("first-frame")
        time.sleep(0.2)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
    from display.store import Store

    store = Store(state)
    assert store.load_stack()[0]["kind"] == "home"
    store.close()


def test_the_stop_hook_notes_an_unclean_stop_and_the_next_start_reads_it(tmp_path: Path):
    from device.service import read_last_failure, take_last_failure

    env = dict(os.environ, STATE_DIRECTORY=str(tmp_path), SERVICE_RESULT="success")
    env.update(EXIT_CODE="exited", EXIT_STATUS="0")
    subprocess.run(["sh", str(RECORD_EXIT)], env=env, check=True, timeout=30)
    assert read_last_failure(tmp_path) is None  # a clean stop leaves nothing to show
    env.update(SERVICE_RESULT="watchdog", EXIT_CODE="killed", EXIT_STATUS="ABRT")
    subprocess.run(["sh", str(RECORD_EXIT)], env=env, check=True, timeout=30)
    failure = take_last_failure(tmp_path)
    assert failure is not None
    assert (failure.result, failure.exit_code, failure.exit_status) == (
        "watchdog",
        "killed",
        "ABRT",
    )
    assert failure.when is not None and "watchdog restarted it" in failure.sentence()
    assert take_last_failure(tmp_path) is None  # shown once
    assert (tmp_path / "last-exit.seen").is_file()
