#!/usr/bin/env bash
# Builds the DocC documentation of the four documented libraries (PokestubJSON, PokemonClient, PokestubClient,
# PokestubTesting) with warnings as errors, so a broken ``symbol`` link, a `- Parameter` naming no parameter, a
# parameter or return value left undocumented, or a catalog page DocC cannot resolve fails CI; and fails when a
# public symbol declared in one of them has no documentation comment at all (scripts/docc/undocumented.py;
# DocC itself does not report those).
#
# The symbol graphs come from `swift package dump-symbol-graph`, given the same -Xswiftc flags as
# scripts/test.sh's build, so after that build it compiles nothing and takes seconds; run alone, it builds
# first. `docc` is the toolchain's (beside `swift`, or `xcrun --find docc` on a Mac): the swift-docc-plugin
# package is not needed. The archives go to a temporary folder and are removed.
# Usage: scripts/check-docc.sh [MODULE ...]   (default: the four above)
set -euo pipefail
cd "$(dirname "$0")/.."

modules=("$@")
[[ ${#modules[@]} -gt 0 ]] || modules=(PokestubJSON PokemonClient PokestubClient PokestubTesting)

docc=$(command -v docc || true)
if [[ -z $docc ]]; then
    swift_path=$(command -v swift || true)
    swift_path=$(readlink -f "$swift_path" 2>/dev/null || printf '%s' "$swift_path")
    if [[ -n $swift_path && -x $(dirname "$swift_path")/docc ]]; then
        docc=$(dirname "$swift_path")/docc
    elif command -v xcrun >/dev/null; then
        docc=$(xcrun --find docc 2>/dev/null || true)
    fi
fi
if [[ -z $docc || ! -x $docc ]]; then
    echo "check-docc: no docc found beside swift (or through xcrun); it ships with the Swift toolchain" >&2
    exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$SECONDS

swift package -Xswiftc -warnings-as-errors dump-symbol-graph --minimum-access-level public > "$work/dump.log" 2>&1 || {
    cat "$work/dump.log" >&2
    echo "check-docc: swift package dump-symbol-graph failed" >&2
    exit 1
}
graphs=$(sed -n 's/^Files written to //p' "$work/dump.log" | tail -n 1)
if [[ -z $graphs || ! -d $graphs ]]; then
    cat "$work/dump.log" >&2
    echo "check-docc: could not find where dump-symbol-graph wrote the symbol graphs" >&2
    exit 1
fi

status=0
for module in "${modules[@]}"; do
    catalog="Sources/$module/$module.docc"
    if [[ ! -d $catalog ]]; then
        echo "check-docc: $catalog is missing" >&2
        status=1
        continue
    fi
    # Only this module's graphs: its own and its extensions of other modules' types (Module@Other).
    mkdir -p "$work/graphs/$module"
    cp "$graphs/$module.symbols.json" "$work/graphs/$module/"
    for extension in "$graphs/$module@"*.symbols.json; do
        [[ -e $extension ]] && cp "$extension" "$work/graphs/$module/"
    done
    log="$work/$module.log"
    converted=0
    "$docc" convert "$catalog" \
        --additional-symbol-graph-dir "$work/graphs/$module" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.pokestub.$module" \
        --output-path "$work/$module.doccarchive" \
        --warnings-as-errors > "$log" 2>&1 || converted=$?
    findings=$(grep -cE '^(warning|error):' "$log" || true)
    if [[ $converted -ne 0 || $findings -gt 0 ]]; then
        # DocC prints file paths relative to the symbol graphs' folder; name them from the repository root.
        sed "s#--> \.\./#--> Sources/$module/#" "$log" >&2
        [[ $findings -gt 0 ]] || findings=1
        status=1
    fi
    if ! python3 scripts/docc/undocumented.py "$module" "$work/graphs/$module" >&2; then
        status=1
        findings=$((findings + 1))
    fi
    echo "check-docc: $module: $findings problem(s)"
done

echo "check-docc: $((SECONDS - started)) s"
if [[ $status -ne 0 ]]; then
    echo "check-docc: fix the documentation above (every warning is an error here)" >&2
fi
exit "$status"
