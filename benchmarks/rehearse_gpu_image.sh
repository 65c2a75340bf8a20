#!/usr/bin/env bash
# A dress rehearsal of benchmarks/gpu_kernels.sh on a machine without a GPU, with the
# GPU image's Python and packages instead of ours: the lent GPU runs its own image
# (Python 3.12, torch 2.11, triton 3.6, transformers 5.17, no Django) and installs
# nothing, so an API that differs there would cost device time to find.
#
# Usage:  PY=python3.12 benchmarks/rehearse_gpu_image.sh [VENV]
# Builds VENV once (default $TMPDIR/costplanner-gpu-image; torch's CUDA wheels, about
# 3 GB), then runs gpu_kernels.sh there in Triton's interpreter on a tiny shape, and
# compiles every kernel for sm_90 with triton 3.6's ptxas. Outputs go to $OUT.
set -euo pipefail

cd "$(dirname "$0")/.."
VENV="${1:-${TMPDIR:-/tmp}/costplanner-gpu-image}"
PY="${PY:-python3.12}"

if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
    # The image's versions, as /work/.library/device/KINDS.md lists them (pip list, 2026-11).
    "$VENV/bin/pip" install --disable-pip-version-check -q torch==2.11.0 triton==3.6.0 transformers==5.17.0 \
        tokenizers==0.23.2 safetensors==0.8.0 accelerate==1.15.0 numpy==2.5.2 psutil pytest pytest-xdist
    # Triton 3.6's interpreter turns a scalar argument into an int with int() on a
    # one-element array, which numpy refuses, so any `range(0, n)` over an argument
    # fails; 3.7 squeezes the array first. Only this rehearsal interprets on 3.6 (the
    # GPU compiles the kernels), so the one-line fix goes into this throwaway venv.
    sed -i 's/lambda self: int(self.handle.data))/lambda self: int(self.handle.data.squeeze()))/' \
        "$VENV"/lib/python3.*/site-packages/triton/runtime/interpreter.py
fi

export OUT="${OUT:-$(mktemp -d)}"
# The interpreter on a small CPU takes longer over the kernel tests than the GPU's compiles.
export TESTS_TIMEOUT="${TESTS_TIMEOUT:-400}"
PYTHON="$VENV/bin/python" BENCH_ARGS="${BENCH_ARGS:---shapes tiny --lengths 1K,2K --quick}" \
    SWEEP_ARGS="${SWEEP_ARGS:---small --jobs 2}" benchmarks/gpu_kernels.sh || status=$?
"$VENV/bin/python" scripts/compile_kernels.py | tee "$OUT/compile_kernels.txt"
exit "${status:-0}"
