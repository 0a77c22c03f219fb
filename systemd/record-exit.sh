#!/bin/sh
# ExecStopPost= of tablekeeper.service: when the service stopped other than cleanly, note how
# (systemd's $SERVICE_RESULT, $EXIT_CODE, $EXIT_STATUS; systemd.exec(5)) in the state directory.
# The next start shows it once (device/service.py reads it). A clean stop writes nothing.
[ "${SERVICE_RESULT:-success}" = success ] && exit 0
dir="${STATE_DIRECTORY:-/var/lib/tablekeeper}"
printf 'result=%s\ncode=%s\nstatus=%s\nwhen=%s\n' \
  "$SERVICE_RESULT" "${EXIT_CODE:-}" "${EXIT_STATUS:-}" "$(date +%s)" > "$dir/last-exit.tmp" &&
  mv -f "$dir/last-exit.tmp" "$dir/last-exit"
