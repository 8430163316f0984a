#!/usr/bin/env bash
# Install Postfix from Debian for the Postfix test (tests/test_postfix.py),
# non-interactively and without configuring or starting the system-wide
# one: debconf answers "No configuration", so /etc/postfix gets no main.cf
# and no service runs. The test runs private instances of its own (their own
# config directory, queue and free ports; tests/mailserver/postfix.py).
# Idempotent; must run as root (CI and dev machines are).
#   apt packages: postfix
set -euo pipefail
if [ -x /usr/sbin/postfix ] && [ -x /usr/lib/postfix/sbin/master ]; then
  echo "postfix/install: $(/usr/sbin/postconf -d -h mail_version 2>/dev/null | sed 's/^/postfix /') already installed"
  exit 0
fi
[ "$(id -u)" = 0 ] || { echo "postfix/install: must run as root" >&2; exit 1; }
printf '%s\n' "postfix postfix/main_mailer_type select No configuration" \
              "postfix postfix/mailname string localhost" | debconf-set-selections
# policy-rc.d exit 101 = "do not start services" during the package's postinst
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod 0755 /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
. "$(dirname "${BASH_SOURCE[0]}")/../apt.sh"
apt_install postfix
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
  systemctl disable --now postfix.service >/dev/null 2>&1 || true
fi
echo "postfix/install: installed postfix $(/usr/sbin/postconf -d -h mail_version)"
