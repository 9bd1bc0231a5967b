# Sourced by scripts/setup.sh and scripts/docs.sh: make_venv PYTHON VENV LOG WHO creates the
# virtualenv VENV with PYTHON (>= 3.10) unless it exists, installing python3-venv with apt-get
# where Debian/Ubuntu ship venv separately; WHO prefixes the progress lines; exits on failure.
make_venv() {
  local python="$1" venv="$2" log="$3" who="$4" ver
  [ -x "$venv/bin/python" ] && return 0
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
    echo "error: $python is missing or older than 3.10; install Python >= 3.10" >&2
    exit 1
  fi
  echo "$who: creating the virtualenv $venv" >&2
  "$python" -m venv "$venv" >>"$log" 2>&1 && return 0
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "error: cannot create a virtualenv with $python (see $log)" >&2
    exit 1
  fi
  echo "$who: installing python3-venv with apt-get" >&2
  apt-get update -qq >>"$log" 2>&1 || true
  ver="$("$python" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "python${ver}-venv" >>"$log" 2>&1 \
    || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >>"$log" 2>&1
  rm -rf "$venv"
  "$python" -m venv "$venv"
}
