#!/bin/sh
# Lays out in DEST what the runtime image holds, from a built and pruned checkout at SRC:
# the production node_modules (workspace links included), each workspace's package.json and
# compiled dist/, the GraphQL SDL the gateway reads, and the container helpers. Sources,
# tests, build info and the dev toolchain stay behind. Used by the Dockerfile's build stage,
# and by the deploy tests, which run the compiled services from such a layout.
set -eu
src=$1
dest=$2
mkdir -p "$dest"
cd "$src"
cp -a package.json node_modules "$dest/"
for ws in protos services/*; do
  [ -f "$ws/package.json" ] || continue
  mkdir -p "$dest/$ws"
  cp -a "$ws/package.json" "$dest/$ws/"
  [ -d "$ws/dist" ] && cp -a "$ws/dist" "$dest/$ws/"
done
cp -a protos/graphql "$dest/protos/"
mkdir -p "$dest/deploy/docker"
cp -a deploy/docker/healthcheck.mjs deploy/docker/civicgraph "$dest/deploy/docker/"
find "$dest" -name '*.tsbuildinfo' -delete
