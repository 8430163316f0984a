#!/usr/bin/env bash
# Stop the Dovecot that start.sh started for $MAIL_BASE (default /tmp/judge-dovecot).
#   --clean  also delete $MAIL_BASE
# Only the master pid in $MAIL_BASE/run/master.pid is signalled; it takes its children down.
set -euo pipefail
MAIL_BASE=${MAIL_BASE:-/tmp/judge-dovecot}
pidfile="$MAIL_BASE/run/master.pid"
if [ -f "$pidfile" ]; then
  pid=$(cat "$pidfile")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  fi
  echo "dovecot stopped (pid $pid)"
else
  echo "mailserver/stop: nothing running for $MAIL_BASE" >&2
fi
if [ "${1:-}" = "--clean" ] && [ -d "$MAIL_BASE" ]; then
  case $MAIL_BASE in /|/tmp|/tmp/) echo "mailserver/stop: refusing to delete $MAIL_BASE" >&2; exit 1 ;; esac
  rm -rf -- "$MAIL_BASE"
fi
