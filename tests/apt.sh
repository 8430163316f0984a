# Debian packages for the tests, installed only when missing; sourced by
# tests/run and tests/*/install.sh. Another apt or dpkg (unattended-upgrades
# at boot, a second shell) may hold the package locks: wait for them (up to
# 10 minutes) and retry, rather than fail at once.
#   apt_install PACKAGE...      (as root)
apt_missing() {
  local pkg out=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || out+=("$pkg")
  done
  echo "${out[@]:-}"
}

apt_install() {
  local missing
  missing=$(apt_missing "$@")
  [ -n "$missing" ] || return 0
  [ "$(id -u)" = 0 ] || { echo "apt: $missing missing; installing them needs root" >&2; return 1; }
  export DEBIAN_FRONTEND=noninteractive
  local try
  for try in $(seq 1 30); do
    # shellcheck disable=SC2086
    if apt-get -o DPkg::Lock::Timeout=20 update -qq \
       && apt-get -o DPkg::Lock::Timeout=20 install -y -qq --no-install-recommends $missing >/dev/null; then
      return 0
    fi
    echo "apt: busy or failing (try $try of 30); waiting 20 s" >&2
    sleep 20
  done
  echo "apt: could not install $missing" >&2
  return 1
}
