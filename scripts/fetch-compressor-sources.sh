#!/usr/bin/env bash
# Fetches the compression libraries' sources (zstd, lz4, libdeflate,
# c-blosc) pinned in cmake/compressor-sources.pin, checks each tarball
# against its pinned sha256 and unpacks it into third_party/<dir>, or
# $ZCW_THIRD_PARTY/<dir> where that is set, with the few Debian patches the
# pin file names. Safe to run again: a library already unpacked as pinned
# is skipped, and nothing is downloaded then. Called by scripts/setup.sh.
#
#   fetch-compressor-sources.sh [--dry-run] [CODENAME]
#     Debian and Ubuntu: Debian bookworm's source packages, through
#     `apt-get source --download-only`. The pins are bookworm's versions
#     and files, so on any release (another Debian, any Ubuntu, whose
#     archive holds Ubuntu's own) they come from Debian's archive:
#     where apt has no deb-src entry that gives them, this adds
#     /etc/apt/sources.list.d/zarr-codecs-wasm-src.sources (bookworm main,
#     source packages only, signed by Debian's archive keyring) and runs
#     apt-get update, with sudo where not root. The release is read from
#     /etc/os-release; CODENAME names it where that file does not (Debian
#     testing and sid, some derivatives).
#   fetch-compressor-sources.sh [--dry-run] --from-tarballs DIR
#     Anywhere (macOS, Fedora, Arch, Ubuntu without Debian's keyring): the
#     tarballs downloaded into DIR by hand, Debian's or upstream's release
#     tarballs (docs/development.md, "Without apt"). Each is known by its
#     sha256 (its name does not matter) and must match the pin's Debian or
#     upstream sha256; otherwise nothing is unpacked.
#   --dry-run prints what would be done, and changes nothing.
#
# For tests and unusual systems: ZCW_OS_RELEASE names another os-release
# file, ZCW_DEBIAN_KEYRING another keyring for the entry's Signed-By,
# ZCW_APT_SOURCES another file for the entry.
set -euo pipefail
cd "$(dirname "$0")/.."
pins="$PWD/cmake/compressor-sources.pin"
os_release="${ZCW_OS_RELEASE:-/etc/os-release}"
keyring="${ZCW_DEBIAN_KEYRING:-/usr/share/keyrings/debian-archive-keyring.gpg}"
apt_list="${ZCW_APT_SOURCES:-/etc/apt/sources.list.d/zarr-codecs-wasm-src.sources}"

say() { echo "fetch-compressor-sources: $*"; }
fail() { echo "fetch-compressor-sources: $*" >&2; exit 1; }
usage() {
  echo "usage: bash scripts/fetch-compressor-sources.sh [--dry-run] [CODENAME]" >&2
  echo "       bash scripts/fetch-compressor-sources.sh [--dry-run] --from-tarballs DIR" >&2
  exit 2
}

dry_run=0
from=""
codename=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --from-tarballs)
      [ $# -ge 2 ] || usage
      from="$2"
      shift
      ;;
    --from-tarballs=*) from="${1#*=}" ;;
    -*) usage ;;
    *)
      [ -z "$codename" ] || usage
      codename="$1"
      ;;
  esac
  shift
done
[ -z "$from" ] || [ -z "$codename" ] || fail "--from-tarballs takes no CODENAME: the tarballs are the same on every system"
if [ -n "$from" ]; then
  [ -d "$from" ] || fail "--from-tarballs $from: no such folder"
  from="$(cd "$from" && pwd)"
fi

dest="${ZCW_THIRD_PARTY:-$PWD/third_party}"
if ((dry_run)); then
  if [ -d "$dest" ]; then dest="$(cd "$dest" && pwd)"; fi
else
  mkdir -p "$dest"
  dest="$(cd "$dest" && pwd)"
fi
downloads="$dest/downloads"

# ---- the pins ---------------------------------------------------------------
# Library lines (dir, Debian source, version, tarball, sha256, licenses),
# `patch` lines (patch, dir, Debian packaging tarball, sha256, patch) and
# `upstream` lines (upstream, dir, URL, file name, sha256, removed paths).
pin_lines() { grep -vE '^[[:space:]]*(#|$)' "$pins"; }
library_dirs() { pin_lines | awk '$1 != "patch" && $1 != "upstream" { print $1 }'; }
library_of() { pin_lines | awk -v d="$1" '$1 == d'; }
patches_of() { pin_lines | awk -v d="$1" '$1 == "patch" && $2 == d'; }
upstream_of() { pin_lines | awk -v d="$1" '$1 == "upstream" && $2 == d'; }
# What a library's unpacked tree is stamped with (cmake/compressors.cmake
# checks it): its pin line and its patch lines, so that changing either
# unpacks it again. The same whichever tarball it came from: both are the
# pinned version.
stamp_of() {
  library_of "$1"
  patches_of "$1"
}

sha256_of() {
  if command -v sha256sum >/dev/null; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1 # macOS
  fi
}

# Where a file of a Debian source package lies in Debian's archive.
pool_url() { # package file
  local prefix="${1:0:1}"
  case "$1" in lib?*) prefix="${1:0:4}" ;; esac
  echo "https://deb.debian.org/debian/pool/main/$prefix/$1/$2"
}

missing=""
for dir in $(library_dirs); do
  if [ -f "$dest/$dir/.zcw-pin" ] && [ "$(cat "$dest/$dir/.zcw-pin")" = "$(stamp_of "$dir")" ]; then
    continue
  fi
  missing="$missing $dir"
done
if [ -z "$missing" ]; then
  say "every library is in $dest as pinned"
  exit 0
fi
if ((dry_run)); then say "dry run: nothing is changed"; fi
say "to unpack into $dest:$missing"

# ---- finding each tarball -----------------------------------------------------
# For each library, the tarball it is unpacked from and how: lines
# "dir kind file" (kind: debian or upstream), and for each patch tarball
# "patch sha256 file". Filled by one of the two ways below.
chosen=""

# The files of Debian's source packages, through apt.
fetch_with_apt() {
  local id="" like="" release=""
  if [ -f "$os_release" ]; then
    id="$(sed -n 's/^ID=//p' "$os_release" | tr -d '"')"
    like="$(sed -n 's/^ID_LIKE=//p' "$os_release" | tr -d '"')"
    release="$(sed -n 's/^UBUNTU_CODENAME=//p' "$os_release" | tr -d '"')"
    [ -n "$release" ] || release="$(sed -n 's/^VERSION_CODENAME=//p' "$os_release" | tr -d '"')"
  fi
  [ -z "$codename" ] || release="$codename"
  local family=other
  case " $id $like " in
    *" ubuntu "*) family=ubuntu ;;
    *" debian "*) family=debian ;;
  esac
  # No os-release at all, but the release named: an apt system, as told.
  [ -f "$os_release" ] || [ -z "$codename" ] || family=apt
  case "$family" in
    debian)
      if [ "$release" = bookworm ]; then
        say "Debian bookworm: the pinned versions are this release's own source packages"
      else
        say "Debian ${release:-(release not named in $os_release; give it as an argument)}: the pinned versions are bookworm's, fetched from bookworm's source packages (nothing installed changes)"
      fi
      ;;
    ubuntu)
      say "Ubuntu ${release:-(release not named in $os_release; give it as an argument)}: the pinned versions are Debian bookworm's, fetched from Debian's archive, not Ubuntu's, whose source packages are its own (nothing installed changes)"
      ;;
    apt) say "release $release (no $os_release): the pinned versions are Debian bookworm's source packages" ;;
    *)
      if [ -f "$os_release" ]; then
        fail "$os_release names neither Debian nor Ubuntu (ID=${id:-none}${like:+, ID_LIKE=$like}): download the tarballs by hand and run this with --from-tarballs DIR (docs/development.md, \"Without apt\")"
      fi
      fail "no $os_release to tell the system by: on Debian or Ubuntu, give the release's codename as an argument; elsewhere download the tarballs by hand and run this with --from-tarballs DIR (docs/development.md, \"Without apt\")"
      ;;
  esac
  { command -v apt-get && command -v apt-cache; } >/dev/null ||
    fail "no apt here (apt-get, apt-cache): download the tarballs by hand and run this with --from-tarballs DIR (docs/development.md, \"Without apt\")"

  # Each file apt is asked for: the package, its version, the file, its sha256.
  local wanted="" dir package version tarball sha d file _
  for dir in $missing; do
    read -r _ package version tarball sha _ <<<"$(library_of "$dir")"
    wanted="$wanted$package $version $tarball $sha"$'\n'
    chosen="$chosen$dir debian $downloads/$tarball"$'\n'
    while read -r _ d file sha _; do
      [ -n "$d" ] || continue
      wanted="$wanted$package $version $file $sha"$'\n'
      chosen="${chosen}patch $sha $downloads/$file"$'\n'
    done <<<"$(patches_of "$dir")"
  done

  have() { # file sha256
    [ -f "$downloads/$1" ] && [ "$(sha256_of "$downloads/$1")" = "$2" ]
  }
  # apt knows a source version only through a deb-src entry.
  has_source() { # package version
    apt-cache showsrc "$1" 2>/dev/null | grep -qx "Version: $2"
  }

  local sudo="" need_apt=0
  [ "$(id -u)" = 0 ] || sudo=sudo
  while read -r package version file sha; do
    [ -n "$package" ] || continue
    have "$file" "$sha" || has_source "$package" "$version" || need_apt=1
  done <<<"$wanted"
  if ((need_apt)); then
    [ -f "$keyring" ] ||
      fail "apt needs a deb-src entry for Debian bookworm, signed by Debian's archive keyring, which is not here ($keyring). Install it (the debian-archive-keyring package) and run this again, or download the tarballs by hand and run this with --from-tarballs DIR (docs/development.md, \"Without apt\")"
    local entry
    entry="# Added by zarr-codecs-wasm's scripts/fetch-compressor-sources.sh: the
# source packages of the compression libraries it builds.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: $keyring"
    if [ -f "$apt_list" ]; then
      say "apt source entry: $apt_list (already there)"
    elif ((dry_run)); then
      say "would write $apt_list:"
      printf '%s\n' "$entry" | sed 's/^/    /'
    else
      say "adding a deb-src entry for bookworm main ($apt_list)"
      printf '%s\n' "$entry" | $sudo tee "$apt_list" >/dev/null
    fi
    if ((dry_run)); then
      say "would run: ${sudo:+$sudo }apt-get update"
    else
      say "apt-get update"
      $sudo apt-get update -qq
    fi
  fi

  ((dry_run)) || mkdir -p "$downloads"
  while read -r package version file sha; do
    [ -n "$package" ] || continue
    have "$file" "$sha" && continue
    if ((dry_run)); then
      say "would run: apt-get source --download-only $package=$version (in $downloads), for $file"
      continue
    fi
    has_source "$package" "$version" ||
      fail "apt has no source package $package $version (cmake/compressor-sources.pin); apt-cache showsrc $package lists the versions it has"
    say "apt-get source --download-only $package=$version"
    # apt checks the files against the signed Sources index; the pin
    # checks that they are the very files this repository was built with.
    (cd "$downloads" && apt-get source --download-only -qq "$package=$version" >/dev/null 2>&1) ||
      fail "apt-get source --download-only $package=$version failed"
    have "$file" "$sha" ||
      fail "$file does not have the pinned sha256 $sha (found $(sha256_of "$downloads/$file")); nothing unpacked"
  done <<<"$wanted"
}

# The tarballs in a folder, each known by its sha256.
fetch_from_folder() {
  local hashes="" f
  for f in "$from"/*; do
    if [ -f "$f" ]; then hashes="$hashes$(sha256_of "$f") $f"$'\n'; fi
  done
  with_sha() { # sha256: the first file of the folder that has it
    awk -v s="$1" '$1 == s { sub(/^[^ ]+ /, ""); print; exit }' <<<"$hashes"
  }
  local problems="" dir package version tarball sha url name usha d file psha found named expected _
  for dir in $missing; do
    read -r _ package version tarball sha _ <<<"$(library_of "$dir")"
    read -r _ _ url name usha _ <<<"$(upstream_of "$dir")"
    if found="$(with_sha "$usha")" && [ -n "$found" ]; then
      if [ "$usha" = "$sha" ]; then
        chosen="$chosen$dir debian $found"$'\n' # the same file as Debian's
      else
        chosen="$chosen$dir upstream $found"$'\n'
      fi
    elif found="$(with_sha "$sha")" && [ -n "$found" ]; then
      chosen="$chosen$dir debian $found"$'\n'
    else
      named=""
      for f in "$from/$name" "$from/$tarball" "$from/$(basename "$url")"; do
        if [ -f "$f" ]; then
          named="$f"
          break
        fi
      done
      expected="upstream's $usha ($url) or Debian's $sha ($(pool_url "$package" "$tarball"))"
      [ "$usha" != "$sha" ] || expected="$sha ($url, the same file as Debian's $(pool_url "$package" "$tarball"))"
      if [ -n "$named" ]; then
        problems="$problems"$'\n'"  $named: sha256 $(sha256_of "$named"), expected $expected"
      else
        problems="$problems"$'\n'"  $dir: no tarball in $from with the sha256 $expected"
      fi
    fi
    while read -r _ d file psha _; do
      [ -n "$d" ] || continue
      if found="$(with_sha "$psha")" && [ -n "$found" ]; then
        chosen="${chosen}patch $psha $found"$'\n'
      elif [ -f "$from/$file" ]; then
        problems="$problems"$'\n'"  $from/$file: sha256 $(sha256_of "$from/$file"), expected $psha"
      else
        problems="$problems"$'\n'"  $dir: no $file in $from (Debian's packaging of $package $version, sha256 $psha, which holds the patch the pin names: $(pool_url "$package" "$file"))"
      fi
    done <<<"$(patches_of "$dir")"
  done
  [ -z "$problems" ] || fail "the tarballs in $from are not all as pinned (cmake/compressor-sources.pin); nothing unpacked:$problems"
}

if [ -n "$from" ]; then
  fetch_from_folder
else
  fetch_with_apt
fi

# ---- unpacking ------------------------------------------------------------------
chosen_for() { # dir, or "patch sha256": the rest of its line
  awk -v k="$1 " 'index($0, k) == 1 { print substr($0, length(k) + 1); exit }' <<<"$chosen"
}

for dir in $missing; do
  read -r kind archive <<<"$(chosen_for "$dir")"
  read -r _ package version tarball sha licenses <<<"$(library_of "$dir")"
  read -r _ _ _ _ _ removed <<<"$(upstream_of "$dir")"
  if [ "$kind" = upstream ]; then
    what="upstream's $(basename "$archive")"
  else
    what="Debian's $package $version ($(basename "$archive"))"
  fi
  if ((dry_run)); then
    say "would unpack $dir from $what into $dest/$dir"
    continue
  fi
  work="$dest/$dir.partial"
  rm -rf "${dest:?}/$dir" "$work"
  mkdir -p "$work"
  tar -xf "$archive" -C "$work" --strip-components=1
  if [ "$kind" = upstream ] && [ "$removed" != - ]; then
    for path in ${removed//,/ }; do
      rm -rf "${work:?}/$path"
    done
  fi
  for license in ${licenses//,/ }; do
    [ -f "$work/$license" ] || fail "$(basename "$archive") has no $license (the license file the pin names)"
  done
  while read -r _ d debian_tarball psha patch; do
    [ -n "$d" ] || continue
    packaging="$(chosen_for "patch $psha")"
    tar -xOf "$packaging" "$patch" | patch -s -p1 -d "$work" --forward ||
      fail "$patch from $debian_tarball does not apply to $dir"
    say "$dir: applied Debian's $(basename "$patch")"
  done <<<"$(patches_of "$dir")"
  stamp_of "$dir" >"$work/.zcw-pin"
  mv "$work" "$dest/$dir"
  say "$dir from $what in $dest/$dir"
done
