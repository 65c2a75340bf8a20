#!/usr/bin/env bash
# Issue 25's one prepared run on a lent H200 (at most 10 minutes in all): the kernel tests, the exact
# indexer's group bench against the ledger (index_share vs naive_sparse at 128K/512K/1M, dense flash up
# to 128K), and the whole-model bench (Llama-3.1-8B shape, random bf16 weights made on the device;
# dense timed under cuDNN, flash and memory-efficient SDPA, the fastest named; its Triton-torch logits
# check first), which writes the device profile.
#
# Usage:  OUT=/some/folder benchmarks/gpu_model.sh
# Writes under $OUT: gpu.txt, kernel_tests.log, exact_bench.log, gpu_kernels_exact.json,
# model_bench.log, bench_model.json and profiles/<device>.json (copy to benchmarks/profiles/ to publish).
# Every step runs under `timeout`, a failing step does not stop the later ones, and both benches
# write their JSON after every length (the model bench after every variant).
set -u

cd "$(dirname "$0")/.." || exit 1
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT" && OUT="$(cd "$OUT" && pwd)"
PYTHON="${PYTHON:-python3}"
TESTS_TIMEOUT="${TESTS_TIMEOUT:-120}"
EXACT_TIMEOUT="${EXACT_TIMEOUT:-150}"
MODEL_TIMEOUT="${MODEL_TIMEOUT:-290}"
EXACT_ARGS="${EXACT_ARGS:---shapes llama3-8b --lengths 128K,512K,1M --dense-max 128K --budget-s 110}"
MODEL_ARGS="${MODEL_ARGS:---preset llama-3.1-8b --lengths 32K,128K,512K --budget-s 230}"
export PYTHONUNBUFFERED=1

declare -A RC
step() {  # step NAME SECONDS LOG COMMAND...
    local name=$1 limit=$2 log=$3
    shift 3
    echo "== $name (limit ${limit}s): $*"
    local start=$SECONDS
    timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
    RC[$name]=$?
    echo "== $name: exit ${RC[$name]} after $((SECONDS - start))s$([ "${RC[$name]}" = 124 ] && echo ' (timed out)')"
}

{ date -u +"%Y-%m-%dT%H:%M:%SZ"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
  "$PYTHON" -c "import torch, triton, transformers; print(torch.__version__, torch.version.cuda, triton.__version__, transformers.__version__)"
} >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt"

XDIST=$("$PYTHON" -c "import xdist" 2>/dev/null && echo "-n 8")
step kernel_tests "$TESTS_TIMEOUT" "$OUT/kernel_tests.log" \
    "$PYTHON" -m pytest tests/engine/kernels -q $XDIST --maxfail=10 -m "not model" -p no:cacheprovider
tail -n 10 "$OUT/kernel_tests.log"

step exact_bench "$EXACT_TIMEOUT" "$OUT/exact_bench.log" \
    "$PYTHON" -m engine bench --indexer exact --out "$OUT/gpu_kernels_exact.json" $EXACT_ARGS
tail -c 4000 "$OUT/exact_bench.log"

step model_bench "$MODEL_TIMEOUT" "$OUT/model_bench.log" \
    "$PYTHON" -m engine bench-model --out "$OUT/bench_model.json" --profile-dir "$OUT/profiles" $MODEL_ARGS
tail -c 3000 "$OUT/model_bench.log"
"$PYTHON" - "$OUT/bench_model.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("check:", json.dumps(r["check"].get("agrees", r["check"])), "complete:", r["complete"])
for row in r["lengths"]:
    for name, m in row["variants"].items():
        if "prefill_s" in m:
            s = m["prefill_shares"]["share"]
            print(f"{row['tokens']:>8} {name:22} prefill {m['prefill_s']:.2f} s  decode {m['decode_s_per_token'] * 1e3:.1f} ms/token"
                  f"  peak {m['peak_memory_bytes'] / 2**30:.1f} GiB  attention {s['attention']:.0%} indexer {s['indexer']:.0%} other {s['other']:.0%}")
        else:
            print(f"{row['tokens']:>8} {name:22} {m}")
PY

echo "== exit codes: kernel_tests ${RC[kernel_tests]}, exact_bench ${RC[exact_bench]}, model_bench ${RC[model_bench]}"
[ "${RC[kernel_tests]}" = 0 ] && [ "${RC[exact_bench]}" = 0 ] && [ "${RC[model_bench]}" = 0 ]
