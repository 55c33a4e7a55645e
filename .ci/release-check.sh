#!/usr/bin/env bash
# Release readiness, checked without publishing anything and without credentials:
#   1. deploys weft (weft-parent, weft-channels) to a throwaway file repository, signed with a
#      throwaway gpg key (-Psign) when gpg is installed, and checks the layout Maven Central
#      needs: jar, pom, sources jar, javadoc jar (and a valid .asc for each when signed), the
#      POM metadata (name, description, url, licenses, scm, developers), a modular jar, and no
#      maintainer notes in the published javadoc;
#   2. checks that the benchmark and stress modules are never deployed, by maven-deploy-plugin
#      or by the Central publishing plugin of the release profile (their effective POMs);
#   3. rebuilds weft-channels from clean and checks that its jar, sources jar and javadoc jar
#      are byte-identical to the first build's (project.build.outputTimestamp).
# Run by .ci/run, last (it cleans channels/target). Fails loudly: non-zero exit, "FAILED: ...".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fail() { echo "FAILED: release-check: $*" >&2; exit 1; }
start=$(date +%s)

version=$(sed -n '/<artifactId>weft-parent<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p;q}' pom.xml)
[ -n "$version" ] || fail "cannot read the project version from pom.xml"

work=$(mktemp -d "${TMPDIR:-/tmp}/weft-release.XXXXXX")
cleanup() {
  if [ -n "${GNUPGHOME:-}" ] && [ "$GNUPGHOME" = "$work/gnupg" ]; then
    gpgconf --kill gpg-agent >/dev/null 2>&1 || true   # the agent of the throwaway GNUPGHOME only
  fi
  rm -rf "$work"
}
trap cleanup EXIT
repo="$work/deploy"

# Runs ./mvnw quietly into a log; on failure shows the log's end and fails.
mvnw_logged() {
  local log="$work/$1"; shift
  ./mvnw -B -q "$@" > "$log" 2>&1 || { tail -n 80 "$log" >&2; fail "./mvnw $* failed"; }
}

# ---- 1. deploy to a file repository, signed with a throwaway key
signing=false
sign_args=()
if command -v gpg >/dev/null 2>&1; then
  export GNUPGHOME="$work/gnupg"
  mkdir -m 700 "$GNUPGHOME"
  gpg --batch --quiet --pinentry-mode loopback --passphrase '' \
      --quick-gen-key "weft CI throwaway key <ci@weft.invalid>" ed25519 sign 1d 2> "$work/gpg.log" \
    || { cat "$work/gpg.log" >&2; fail "cannot create a throwaway gpg key"; }
  signing=true
  sign_args=(-Psign)
else
  echo "NOTE: release-check: gpg is not installed; checking the unsigned layout (no .asc files)"
fi

echo "== release-check: ./mvnw -pl channels -am clean deploy -DskipTests ${sign_args[*]} -DaltDeploymentRepository=local::file://$repo"
mvnw_logged deploy.log -pl channels -am clean deploy -DskipTests "${sign_args[@]}" \
  -DaltDeploymentRepository="local::file://$repo"

echo "== release-check: deployed files"
(cd "$repo" && find . -type f | sed 's#^\./##' | sort | sed 's/^/   /')

modules=$(cd "$repo/dev/weft" && ls | tr '\n' ' ')
[ "$modules" = "weft-channels weft-parent " ] || fail "deployed modules are '$modules', expected weft-channels and weft-parent only"

# A snapshot deploys timestamped names (weft-channels-0.2.0-20260101.120000-1.jar); a release
# the plain ones.
base_name() { # $1: artifactId -> file name stem of the deployed version
  local dir="$repo/dev/weft/$1/$version" pom
  pom=$(cd "$dir" && ls "$1"-*.pom 2>/dev/null | head -n 1) || true
  [ -n "$pom" ] || fail "no POM deployed for $1 in $dir"
  echo "$dir/${pom%.pom}"
}
channels=$(base_name weft-channels)
parent=$(base_name weft-parent)
required=("$parent.pom" "$channels.pom" "$channels.jar" "$channels-sources.jar" "$channels-javadoc.jar")
for f in "${required[@]}"; do
  [ -s "$f" ] || fail "missing from the deploy: ${f#"$repo"/}"
  [ -s "$f.sha1" ] && [ -s "$f.md5" ] || fail "missing checksums for ${f#"$repo"/}"
  if $signing; then
    [ -s "$f.asc" ] || fail "missing signature: ${f#"$repo"/}.asc"
    gpg --batch --quiet --verify "$f.asc" "$f" 2> "$work/verify.log" \
      || { cat "$work/verify.log" >&2; fail "bad signature: ${f#"$repo"/}.asc"; }
  fi
done
echo "   every required file is there: pom, jar, sources, javadoc$($signing && echo ', each with a valid .asc'), checksums"

for tag in name description parent; do
  grep -q "<$tag[ >]" "$channels.pom" || fail "the weft-channels POM has no <$tag>"
done
for tag in url licenses scm developers; do
  grep -q "<$tag[ >]" "$channels.pom" "$parent.pom" || fail "neither the weft-channels nor the weft-parent POM has <$tag>"
done
unzip -l "$channels.jar" | grep -q ' module-info.class$' || fail "the jar has no module-info.class"
if unzip -p "$channels-javadoc.jar" 'dev.weft.channels/dev/weft/channels/*.html' | grep -q -i 'for maintainers\|maintainer note'; then
  fail "maintainer notes leak into the published javadoc"
fi
echo "   POM metadata complete (name, description, url, licenses, scm, developers); modular jar; no maintainer notes in the javadoc"

# ---- 2. bench and stress are never deployed, by either route
mvnw_logged effective.log -Prelease -pl channels,bench,stress help:effective-pom -Doutput="$work/effective.xml"
skips=$(awk '
  /Effective POM for project/ { split($0, a, ":"); project = a[2]; seen_d = 0; seen_p = 0 }
  /<maven.deploy.skip>/ && !seen_d { gsub(/[^a-z]*<\/?maven.deploy.skip>/, ""); d[project] = $0; seen_d = 1 }
  /<skipPublishing>/ && !seen_p { gsub(/ *<\/?skipPublishing>/, ""); p[project] = $0; seen_p = 1 }
  END { for (m in d) printf "%s deploy.skip=%s skipPublishing=%s\n", m, d[m], p[m] }' "$work/effective.xml" | sort)
echo "$skips" | sed 's/^/   /'
expected=$'weft-bench deploy.skip=true skipPublishing=true\nweft-channels deploy.skip=false skipPublishing=false\nweft-stress deploy.skip=true skipPublishing=true'
[ "$skips" = "$expected" ] || fail "deploy/publish skips are not as expected (bench and stress skipped, channels not)"

# ---- 3. reproducible: a clean rebuild gives byte-identical jars
mkdir "$work/first"
for c in "" -sources -javadoc; do
  cp "channels/target/weft-channels-$version$c.jar" "$work/first/"
done
cmp -s "$work/first/weft-channels-$version.jar" "$channels.jar" || fail "the deployed jar is not the jar that was built"
echo "== release-check: rebuilding weft-channels from clean (./mvnw -pl channels clean package -DskipTests)"
mvnw_logged rebuild.log -pl channels clean package -DskipTests
for c in "" -sources -javadoc; do
  f="weft-channels-$version$c.jar"
  first=$(sha256sum < "$work/first/$f" | cut -d' ' -f1)
  second=$(sha256sum < "channels/target/$f" | cut -d' ' -f1)
  echo "   $f: first build $first, second build $second"
  [ "$first" = "$second" ] || fail "$f differs between two builds of the same sources: not reproducible"
done
echo "   byte-identical"
echo "== release-check: OK after $(( $(date +%s) - start )) s"
