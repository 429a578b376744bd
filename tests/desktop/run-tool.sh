#!/bin/sh
# run-tool.sh PACKAGE TOOL ARGS…: run TOOL, or fail naming the Debian package
# that provides it. Validators must fail the suite when absent, not skip it.
package=$1 tool=$2
shift 2
if ! command -v "$tool" >/dev/null 2>&1; then
  echo "FAIL: $tool is not installed (apt-get install $package)" >&2
  exit 1
fi
exec "$tool" "$@"
