#!/usr/bin/env bash
# The one script for a lent GPU: card and versions, the kernel tests at realistic shapes,
# `python -m engine check --backend triton`, every tiling the autotuner may pick
# (benchmarks/gpu_config_sweep.py --kept), then the kernel benchmark.
#
# Usage:  OUT=/some/folder benchmarks/gpu_kernels.sh   (settings below can be overridden the same way)
# Writes under $OUT: gpu.txt, kernel_tests.log/.xml, check.log, sweep.log, gpu_config_sweep.json,
# bench.log, gpu_kernels.json and README.md (benchmarks/README.md with its bench section rewritten;
# copy it back over benchmarks/README.md to publish the figures).
#
# Every step runs under `timeout` and a failing step does not stop the later ones: the
# device time is lent once. Defaults fit about 10 minutes in all; the benchmark stops
# starting measurements after BENCH_BUDGET_S and writes what it has after every length.
set -u

cd "$(dirname "$0")/.." || exit 1
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT" && OUT="$(cd "$OUT" && pwd)"
PYTHON="${PYTHON:-python3}"
TESTS_TIMEOUT="${TESTS_TIMEOUT:-150}"
CHECK_TIMEOUT="${CHECK_TIMEOUT:-90}"
SWEEP_TIMEOUT="${SWEEP_TIMEOUT:-150}"
BENCH_TIMEOUT="${BENCH_TIMEOUT:-220}"
BENCH_BUDGET_S="${BENCH_BUDGET_S:-160}"
BENCH_ARGS="${BENCH_ARGS:-}"  # more `engine bench` options, e.g. "--lengths 128K --quick" for a rerun
export PYTHONUNBUFFERED=1  # logs up to the moment a timeout strikes

declare -A RC

step() {  # step NAME SECONDS LOG COMMAND...: run it under timeout, log it, record its exit code
    local name=$1 limit=$2 log=$3
    shift 3
    echo "== $name (limit ${limit}s): $*"
    local start=$SECONDS
    timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
    RC[$name]=$?
    echo "== $name: exit ${RC[$name]} after $((SECONDS - start))s$([ "${RC[$name]}" = 124 ] && echo ' (timed out)')"
}

{
    date -u +"%Y-%m-%dT%H:%M:%SZ"
    nvidia-smi
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
        --format=csv
    "$PYTHON" - <<'EOF'
import platform, torch, triton, transformers
print(f"python {platform.python_version()}, torch {torch.__version__} (CUDA {torch.version.cuda}), "
      f"triton {triton.__version__}, transformers {transformers.__version__}")
if torch.cuda.is_available():
    p = torch.cuda.get_device_properties(0)
    print(f"{p.name}: {p.total_memory / 2**30:.0f} GiB, {p.multi_processor_count} SMs, "
          f"L2 {p.L2_cache_size / 2**20:.0f} MiB, sm_{p.major}{p.minor}")
else:
    print("no CUDA device visible")
EOF
} >"$OUT/gpu.txt" 2>&1
grep -E "^(NVIDIA|name,|python |[A-Z].*GiB)|Driver Version" "$OUT/gpu.txt" | head -8

# Not the `model` tests: the default model cannot reach the GPU machine (its GGUF package and
# `gguf` are not installed there, and the converted cache, 260 MB, is over what a call carries).
# The tests autotune about 60 kernel keys (shapes x dtypes), each compiling every config its
# pruning keeps, one after another: about 240 compiles (counted on the CPU). pytest-xdist, which the GPU image has,
# spreads them over 8 processes; --maxfail rather than -x, so that one failure does not hide
# the state of the other kernels.
XDIST=$("$PYTHON" -c "import xdist" 2>/dev/null && echo "-n 8")
step kernel_tests "$TESTS_TIMEOUT" "$OUT/kernel_tests.log" \
    "$PYTHON" -m pytest tests/engine/kernels -q $XDIST --maxfail=10 -m "not model" -p no:cacheprovider \
    --junitxml="$OUT/kernel_tests.xml"
tail -n 15 "$OUT/kernel_tests.log"

step check "$CHECK_TIMEOUT" "$OUT/check.log" "$PYTHON" -m engine check --backend triton
tail -n 20 "$OUT/check.log"

# Every tiling the autotuner may pick, not only the one it picked: on 2026-12-04 fp32 tilings it
# could pick were wrong or faulted, and at D 128 none fitted the shared memory. SWEEP_ARGS replaces
# "--jobs 14" (the rehearsal in the interpreter passes "--small --jobs 2").
step sweep "$SWEEP_TIMEOUT" "$OUT/sweep.log" \
    "$PYTHON" benchmarks/gpu_config_sweep.py --kept --out "$OUT/gpu_config_sweep.json" ${SWEEP_ARGS:---jobs 14}
grep -v " ok$" "$OUT/sweep.log" | tail -n 15

cp benchmarks/README.md "$OUT/README.md"
step bench "$BENCH_TIMEOUT" "$OUT/bench.log" \
    "$PYTHON" -m engine bench --budget-s "$BENCH_BUDGET_S" --out "$OUT/gpu_kernels.json" --readme "$OUT/README.md" $BENCH_ARGS
tail -c 8000 "$OUT/bench.log"  # its table comes last; the tool returns the last 12,000 characters

echo "== exit codes: kernel_tests ${RC[kernel_tests]}, check ${RC[check]}, sweep ${RC[sweep]}, bench ${RC[bench]}" \
    "(124: timed out)"
echo "== files in $OUT: $(ls "$OUT" | tr '\n' ' ')"
[ "${RC[kernel_tests]}" = 0 ] && [ "${RC[check]}" = 0 ] && [ "${RC[sweep]}" = 0 ] && [ "${RC[bench]}" = 0 ]
