#!/usr/bin/env bash
# Runs the README's quick start as written: the first ```sh block under "## Quick start", with its
# port (6380) replaced by a free one so a server already on 6380 (a Redis, another run) is neither
# hit nor in the way. Fails when a command of the block fails, when the SELECT's answer is not the
# one the block shows in its comment, or when the server is still running after the block's SHUTDOWN
# (a server left behind is killed). Usage: scripts/quickstart-check.sh [README]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readme="${1:-$root/README.md}"

block="$(awk '/^## Quick start/ {in_section = 1; next}
              in_section && /^## / {exit}
              in_section && /^```sh$/ && !done {in_block = 1; next}
              in_block && /^```$/ {in_block = 0; done = 1; next}
              in_block {print}' "$readme")"
[[ -n "$block" ]] || { echo "quickstart-check: no \`\`\`sh block under '## Quick start' in $readme" >&2; exit 1; }
grep -q 6380 <<<"$block" || { echo "quickstart-check: the block no longer uses port 6380; update this script" >&2; exit 1; }

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
work="$(mktemp -d)"
script="$work/quickstart.sh"
# `set -e` as a reader pasting line by line would notice a failing command; each line runs as written.
{
  echo 'set -euo pipefail'
  echo "cd '$root'"
  sed "s/\b6380\b/$port/g" <<<"$block"
  # the block's last command stops the server it started in the background: give it 60 s
  echo 'for _ in $(seq 120); do [[ -z "$(jobs -pr)" ]] && exit 0; sleep 0.5; done'
  echo 'echo "the server started by the block was still running 60 s after it" >&2; exit 1'
} > "$script"

cleanup() {
  # A server the block left running (it failed before SHUTDOWN): stop it by its port's process.
  local pid
  pid="$(ss -Htlnp "sport = :$port" 2>/dev/null | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n 1)"
  if [[ -n "$pid" ]]; then
    echo "quickstart-check: the server on port $port was still running; killing pid $pid" >&2
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "quickstart-check: running the README's quick start on port $port"
if ! timeout 600 bash "$script" > "$work/out.txt" 2>&1; then
  cat "$work/out.txt"
  echo "quickstart-check: the quick start failed" >&2
  exit 1
fi
cat "$work/out.txt"
# The answer the block shows in its comment (`#   Ada Lovelace,5000.5`) must be what the SELECT printed.
expected="$(sed -n 's/^#   //p' <<<"$block" | head -n 1)"
grep -qxF "$expected" "$work/out.txt" || { echo "quickstart-check: expected the line '$expected' in the output" >&2; exit 1; }
if ss -Htln "sport = :$port" | grep -q .; then
  echo "quickstart-check: something still listens on port $port after SHUTDOWN" >&2
  exit 1
fi
echo "quickstart-check: ok"
