#!/bin/sh
# Regenerates the committed PTX of every corpus kernel from its CUDA source with nvcc
# (PTX for sm_80 at -O3). Neither the build nor the tests need nvcc; run this after editing a
# .cu file and commit the .ptx beside it. NVCC overrides the compiler path.
set -eu
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cd "$(dirname "$0")"
for cu in */*.cu; do
  dir=$(dirname "$cu")
  name=$(basename "$cu" .cu)
  "$NVCC" --ptx -arch=sm_80 -O3 "$cu" -o "$dir/$name.ptx"
  echo "regenerated $dir/$name.ptx"
done
