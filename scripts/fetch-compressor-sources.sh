#!/usr/bin/env bash
# Fetches the compression libraries' sources (zstd, lz4, libdeflate,
# c-blosc) pinned in cmake/compressor-sources.pin: Debian bookworm's
# upstream tarballs, through `apt-get source --download-only`, checked
# against the pinned sha256 and unpacked into third_party/<dir>, or
# $ZCW_THIRD_PARTY/<dir> where that is set, with the few Debian patches the
# pin file names. Safe to run again: a library already unpacked as pinned
# is skipped, and nothing is downloaded then. Called by scripts/setup.sh.
#
# apt needs a deb-src entry for bookworm main: where none gives the pinned
# versions, this adds /etc/apt/sources.list.d/zarr-codecs-wasm-src.sources
# (a file of its own, beside the machine's deb entries) and runs apt-get
# update, with sudo where not root.
set -euo pipefail
cd "$(dirname "$0")/.."
pins="$PWD/cmake/compressor-sources.pin"
dest="${ZCW_THIRD_PARTY:-$PWD/third_party}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
downloads="$dest/downloads"

sudo=""
[ "$(id -u)" = 0 ] || sudo=sudo
say() { echo "fetch-compressor-sources: $*"; }
fail() { echo "fetch-compressor-sources: $*" >&2; exit 1; }

# The pin lines, without comments: libraries, and `patch` lines.
mapfile -t libraries < <(grep -vE '^[[:space:]]*(#|$)' "$pins" | grep -v '^patch ')
mapfile -t patches < <(grep -E '^patch ' "$pins" || true)

# What a library's unpacked tree is stamped with: its pin line and its
# patch lines, so that changing either unpacks it again.
stamp_of() { # dir
  local line first second
  for line in "${libraries[@]}" "${patches[@]}"; do
    read -r first second _ <<<"$line"
    if [ "$first" = "$1" ] || { [ "$first" = patch ] && [ "$second" = "$1" ]; }; then
      printf '%s\n' "$line"
    fi
  done
}

missing=()
for line in "${libraries[@]}"; do
  read -r dir _ <<<"$line"
  [ -f "$dest/$dir/.zcw-pin" ] && [ "$(cat "$dest/$dir/.zcw-pin")" = "$(stamp_of "$dir")" ] || missing+=("$dir")
done
if ((${#missing[@]} == 0)); then
  say "every library is in $dest as pinned"
  exit 0
fi

# Each file apt is asked for: the package, its version, the file, its sha256.
wanted=()
for dir in "${missing[@]}"; do
  for line in "${libraries[@]}"; do
    read -r d package version tarball sha _ <<<"$line"
    [ "$d" = "$dir" ] && wanted+=("$package $version $tarball $sha")
  done
  for line in "${patches[@]}"; do
    read -r _ d tarball sha _ <<<"$line"
    [ "$d" = "$dir" ] || continue
    for lib in "${libraries[@]}"; do
      read -r d2 package version _ <<<"$lib"
      [ "$d2" = "$dir" ] && wanted+=("$package $version $tarball $sha")
    done
  done
done

have() { # file sha256
  [ -f "$downloads/$1" ] && echo "$2  $downloads/$1" | sha256sum -c --status
}
# apt knows a source version only through a deb-src entry.
has_source() { # package version
  apt-cache showsrc "$1" 2>/dev/null | grep -qx "Version: $2"
}

need_apt=0
for w in "${wanted[@]}"; do
  read -r package version file sha <<<"$w"
  have "$file" "$sha" || has_source "$package" "$version" || need_apt=1
done
if ((need_apt)); then
  list=/etc/apt/sources.list.d/zarr-codecs-wasm-src.sources
  if [ ! -f "$list" ]; then
    say "adding a deb-src entry for bookworm main ($list)"
    $sudo tee "$list" >/dev/null <<'EOF'
# Added by zarr-codecs-wasm's scripts/fetch-compressor-sources.sh: the
# source packages of the compression libraries it builds.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  fi
  say "apt-get update"
  $sudo apt-get update -qq
fi

mkdir -p "$downloads"
for w in "${wanted[@]}"; do
  read -r package version file sha <<<"$w"
  if ! have "$file" "$sha"; then
    has_source "$package" "$version" ||
      fail "apt has no source package $package $version (cmake/compressor-sources.pin); apt-cache showsrc $package lists the versions it has"
    say "apt-get source --download-only $package=$version"
    # apt checks the files against the signed Sources index; the pin
    # checks that they are the very files this repository was built with.
    (cd "$downloads" && apt-get source --download-only -qq "$package=$version" >/dev/null 2>&1) ||
      fail "apt-get source --download-only $package=$version failed"
  fi
  have "$file" "$sha" ||
    fail "$file does not have the pinned sha256 $sha (found $(sha256sum "$downloads/$file" | cut -d' ' -f1)); nothing unpacked"
done

for dir in "${missing[@]}"; do
  for line in "${libraries[@]}"; do
    read -r d package version tarball sha licenses <<<"$line"
    [ "$d" = "$dir" ] && break
  done
  work="$dest/$dir.partial"
  rm -rf "$dest/$dir" "$work"
  mkdir -p "$work"
  tar -xf "$downloads/$tarball" -C "$work" --strip-components=1
  for license in ${licenses//,/ }; do
    [ -f "$work/$license" ] || fail "$tarball has no $license (the license file the pin names)"
  done
  for line in "${patches[@]}"; do
    read -r _ d debian_tarball _ patch <<<"$line"
    [ "$d" = "$dir" ] || continue
    tar -xOf "$downloads/$debian_tarball" "$patch" | patch -s -p1 -d "$work" --forward ||
      fail "$patch from $debian_tarball does not apply to $dir"
    say "$dir: applied Debian's $(basename "$patch")"
  done
  stamp_of "$dir" >"$work/.zcw-pin"
  mv "$work" "$dest/$dir"
  say "$dir from Debian's $package $version in $dest/$dir"
done
