#!/usr/bin/env bash
# The one step of action.yml: provably diff against the workflow's target.
# The inputs come as INPUT_* variables (the step's env), the outputs go to
# $GITHUB_OUTPUT before the run, so a failing run still hands back its
# reports; the step exits with provably's status (1 a divergence, 2 a
# fault, 4 nothing compared). provably itself writes the step summary and
# the annotations (GITHUB_ACTIONS=true).
set -euo pipefail

here="${GITHUB_ACTION_PATH:?run this as the step of action.yml}"
: "${GITHUB_OUTPUT:?no GITHUB_OUTPUT: not run by GitHub Actions}"
: "${INPUT_TARGET_CMD:?the input target-cmd is required}"
out="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/provably"
mkdir -p "$out"

bin="${INPUT_PROVABLY:-}"
if [ -z "$bin" ]; then
  cargo install --locked --quiet --root "$out/install" --path "$here"
  bin="$out/install/bin/provably"
fi

report="$out/report.json"
junit="$out/junit.xml"
{
  echo "report=$report"
  echo "junit=$junit"
} >>"$GITHUB_OUTPUT"

status=0
PROVABLY_BUGS="${PROVABLY_BUGS:-$here/harness/bugs}" "$bin" diff \
  --target-cmd "$INPUT_TARGET_CMD" \
  --cases "${INPUT_CASES:-1000}" \
  --seed "${INPUT_SEED:-0}" \
  --quiet --report "$report" --junit "$junit" || status=$?
exit "$status"
