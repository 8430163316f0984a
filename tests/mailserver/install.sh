#!/usr/bin/env bash
# Install Dovecot (IMAP) from Debian for the mail tests, without starting
# the system-wide service. Idempotent; must run as root (CI and dev machines are).
#   apt packages: dovecot-imapd (pulls in dovecot-core), openssl
set -euo pipefail
if command -v dovecot >/dev/null && [ -x /usr/lib/dovecot/imap ] \
   && command -v openssl >/dev/null; then
  echo "mailserver/install: dovecot $(dovecot --version) already installed"
  exit 0
fi
[ "$(id -u)" = 0 ] || { echo "mailserver/install: must run as root" >&2; exit 1; }

# policy-rc.d exit 101 = "do not start services" during the package's postinst
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod 0755 /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
. "$(dirname "${BASH_SOURCE[0]}")/../apt.sh"
apt_install dovecot-imapd openssl
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null; then
  systemctl disable --now dovecot.service dovecot.socket >/dev/null 2>&1 || true
fi
echo "mailserver/install: installed dovecot $(dovecot --version)"
