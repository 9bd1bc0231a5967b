#!/usr/bin/env bash
# Set up what the language server's editor test needs: Debian's Neovim (apt-get, only when
# `nvim` is missing), whose built-in LSP client drives `urdf-tools lsp` headless
# (test/test_lsp_neovim.py). Idempotent. When it cannot be installed it says so and exits 0:
# the test then skips with the reason.
# Usage: scripts/setup-editors.sh
set -uo pipefail

say() { echo "setup-editors: $*"; }

if command -v nvim >/dev/null 2>&1; then
  :
elif ! command -v apt-get >/dev/null 2>&1; then
  say "no nvim and no apt-get; the Neovim test will skip"
elif [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null 2>&1; then
  say "no nvim and not root; install it with: apt-get install neovim"
else
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo -n"
  say "installing Debian neovim (apt-get)"
  if ! { $sudo apt-get update -qq >/dev/null \
         && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq neovim >/dev/null; }; then
    say "apt-get install neovim failed; the Neovim test will skip"
  fi
fi
if command -v nvim >/dev/null 2>&1; then
  say "ready: $(nvim --version | head -n1)"
fi
exit 0
