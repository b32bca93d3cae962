#!/usr/bin/env bash
# Installs what is missing, builds cuda-lint, and runs it on examples/: prints
# every diagnostic, then the diff that `--fix` would make (the examples
# themselves are not changed: the fixes are applied to a copy).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${CUDA_LINT_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >/dev/null
lint="$build/bin/cuda-lint"

echo "== cuda-lint diagnostics on examples/ =="
for f in "$root"/examples/*.cu; do
  "$lint" "$f" 2>&1 | grep -v "warnings* generated" || true
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$root/examples" "$work/before"
cp -r "$root/examples" "$work/after"
for f in "$work"/after/*.cu; do
  "$lint" --fix --quiet "$f" >/dev/null 2>&1 || true
done
echo
echo "== the diff cuda-lint --fix would make =="
(cd "$work" && diff -ru before after) || true
