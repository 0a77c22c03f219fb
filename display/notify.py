"""systemd's notify protocol (sd_notify), without libsystemd.

With ``Type=notify`` systemd waits for ``READY=1`` before it counts the service as started; with
``WatchdogSec=`` it expects ``WATCHDOG=1`` at least every watchdog interval and restarts the
service (``Restart=on-failure``) when the pings stop - i.e. when the UI loop hangs. Messages are
datagrams sent to the socket named by ``$NOTIFY_SOCKET`` (a leading ``@`` means Linux's abstract
namespace). Outside systemd the variable is unset and every call does nothing.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    """Send READY/WATCHDOG/STATUS/STOPPING to systemd; pings paced at half the interval."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]
        self.address = address or None
        self.interval: float | None = None
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        if usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid())):
            # systemd's advice: ping at half the interval.
            self.interval = int(usec) / 1_000_000 / 2
        self._last_ping: float | None = None
        self._socket: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> bool:
        """Send one datagram; False (never an exception) if systemd is not listening."""
        if self.address is None:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(
                    socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC
                )
                # Never let a slow reader stall the UI loop: a full queue drops the message
                # (the next ping comes half a watchdog interval later).
                self._socket.setblocking(False)
            self._socket.sendto(message.encode("utf-8"), self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def watchdog(self, now: float) -> bool:
        """Ping if half the watchdog interval has passed since the last ping (``now`` in s)."""
        if self.interval is None or self.address is None:
            return False
        if self._last_ping is not None and now - self._last_ping < self.interval:
            return False
        self._last_ping = now
        return self.send("WATCHDOG=1")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
