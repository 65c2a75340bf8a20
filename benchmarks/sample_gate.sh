#!/usr/bin/env bash
# The sample's whole-document strategies (dense, naive sparse, Index Share) at the run settings' defaults (a
# 704-token attention budget against the sample's 1,855 tokens), on its 9 probes and 34 more written for this
# (samples/workload/gate-probes.jsonl): 9 probes cannot tell an 11-point gap from chance, 43 can tell a
# 5-point gate. Writes benchmarks/sample_gate-<model>.json. MODEL picks a catalogue model.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=${MODEL:-qwen2.5-coder-0.5b-instruct}
probes=$(mktemp)
trap 'rm -f "$probes"' EXIT
cat samples/workload/probes.jsonl samples/workload/gate-probes.jsonl > "$probes"
.venv/bin/python -m engine compare --docs samples/workload/*.txt --probes "$probes" --model "$MODEL" \
    --strategies full_dense,full_naive_sparse,full_index_share --json "benchmarks/sample_gate-$MODEL.json"
