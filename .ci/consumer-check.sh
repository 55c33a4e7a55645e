#!/usr/bin/env bash
# The README's "Getting it" path, tested: install weft with ./mvnw into a throwaway local
# repository, then build and run .ci/consumer (a stand-alone project with a module-info that
# requires dev.weft.channels) against it, with weft on the module path and on the class path.
# Needs nothing but a JDK 21+ somewhere ./mvnw can find it (java on PATH may be 17, JAVA_HOME
# may be unset). Run by .ci/run; fails loudly (non-zero exit, "FAILED: ..." line) on any problem.
#
# To keep it quick, the throwaway repository reads what is already in ~/.m2/repository
# (Maven's chained local repository, -Dmaven.repo.local.tail: read-only, nothing is written
# there); everything the install writes goes to the throwaway repository only. On a machine
# with an empty ~/.m2 it simply downloads from Maven Central.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() { echo "FAILED: consumer-check: $*" >&2; exit 1; }
start=$(date +%s)

version=$(sed -n '/<artifactId>weft-parent<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p;q}' pom.xml)
[ -n "$version" ] || fail "cannot read the project version from pom.xml"
grep -q "<version>$version</version>" README.md || fail "README.md does not give the version $version"

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
repo="$work/m2"
mvn_repo=(-Dmaven.repo.local="$repo")
tail_repo="${WEFT_M2_TAIL:-$HOME/.m2/repository}"
if [ -d "$tail_repo" ]; then
  mvn_repo+=(-Dmaven.repo.local.tail="$tail_repo")
fi

# The README's install command, exactly (the README must give it).
install=(./mvnw -pl channels -am install -DskipTests)
grep -qF "${install[*]}" README.md || fail "README.md does not give the install command '${install[*]}'"
echo "== consumer-check: ${install[*]} (weft $version) into $repo"
"${install[@]}" -B -q "${mvn_repo[@]}" > "$work/install.log" 2>&1 \
  || { tail -n 60 "$work/install.log" >&2; fail "${install[*]} failed"; }

installed="$repo/dev/weft/weft-channels/$version"
for f in "weft-channels-$version.jar" "weft-channels-$version.pom" \
         "weft-channels-$version-sources.jar" "weft-channels-$version-javadoc.jar"; do
  [ -s "$installed/$f" ] || fail "install did not produce $installed/$f"
done
[ -s "$repo/dev/weft/weft-parent/$version/weft-parent-$version.pom" ] || fail "weft-parent POM not installed"
echo "   installed: $(cd "$installed" && ls *.jar *.pom | tr '\n' ' ')"

echo "== consumer-check: building .ci/consumer against the installed weft (module path, class path)"
rm -rf .ci/consumer/target
./mvnw -B -q -f .ci/consumer/pom.xml verify -Dweft.version="$version" "${mvn_repo[@]}" \
  > "$work/consumer.log" 2>&1 || { tail -n 60 "$work/consumer.log" >&2; fail "the consumer project did not build or run"; }
rm -rf .ci/consumer/target
grep -q "^consumer (module, module dev.weft.channels): received 'hello from a virtual thread'" "$work/consumer.log" \
  || { cat "$work/consumer.log" >&2; fail "no module-path run in the consumer's output"; }
grep -q "^consumer (classpath, unnamed module .*): received 'hello from a virtual thread'" "$work/consumer.log" \
  || { cat "$work/consumer.log" >&2; fail "no class-path run in the consumer's output"; }
grep "^consumer (" "$work/consumer.log" | sed 's/^/   /'
echo "== consumer-check: OK after $(( $(date +%s) - start )) s"
