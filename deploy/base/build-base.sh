#!/bin/sh
# Makes the local base image every Dockerfile here starts from, localhost/debian:bookworm, with
# debootstrap (Debian's minimal variant), so no container registry is needed. Does nothing when the
# image exists already; REBUILD=1 makes it again (for security updates).
set -eu
IMAGE=${BASE_IMAGE:-localhost/debian:bookworm}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ "${REBUILD:-0}" != 1 ] && podman image exists "$IMAGE"; then
  echo "$IMAGE exists"
  exit 0
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
debootstrap --variant=minbase bookworm "$dir" "$MIRROR" >"$dir.log" 2>&1 || {
  tail -n 20 "$dir.log" >&2
  exit 1
}
rm -f "$dir.log"
# The package lists and caches debootstrap leaves are only weight: images run apt-get update first.
rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
tar -C "$dir" -c . | podman import --change 'CMD ["/bin/bash"]' - "$IMAGE"
echo "built $IMAGE"
