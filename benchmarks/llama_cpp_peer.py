"""Our dense and Index Share against llama.cpp, the CPU peer, on the same GGUF file, lengths and text.

Usage: .venv/bin/python benchmarks/llama_cpp_peer.py [--lengths 4096 8192 16384 32704] [--rounds 3]
       [--decode-tokens 8] [--llama-python PATH] [--json benchmarks/llama_cpp_peer.json]

Users who run a GGUF on a CPU run llama.cpp. This joins the default model's GGUF from its installed packages (the
very file `make model` converts for the engine) and runs it through llama-cpp-python in a worker process
(benchmarks/llama_cpp_worker.py): its own batched prefill and greedy decode, dense attention, on the GGUF's own
quantised weights, with as many threads as torch uses. The engine runs the converted bf16 weights, dense and Index
Share at the runs' defaults (engine.core.run_settings, as benchmarks/cpu_long_context.py). The text is samples/contracts
repeated to length, the same token ids for both. Every round runs every length and, within it, the three in turn;
times are computed CPU seconds (process CPU time / threads) with the wall clock beside llama.cpp's, min, median and
max over the rounds, and each of ours as a ratio to llama.cpp's median (above 1: llama.cpp is faster).

llama-cpp-python is not a requirement of the project: --llama-python names an interpreter that has it; by default
one is made at .cache/llama-cpp/ with `pip install llama-cpp-python`, which compiles llama.cpp (about 15 minutes on
2 cores). If it does not build, the benchmark stops with pip's error.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script: the repository root

from engine.core.openmp import wait_passively  # noqa: E402

wait_passively()  # before torch loads (engine/core/openmp.py)

import torch  # noqa: E402

from benchmarks.cpu_long_context import run_config, spread  # noqa: E402
from benchmarks.cpu_prefill import real_text_ids  # noqa: E402
from benchmarks.machine import cpu_model  # noqa: E402
from engine.model.generate import generate  # noqa: E402
from engine.core.jsonfile import write_json_atomic  # noqa: E402
from engine.core.catalogue import default_key, lookup  # noqa: E402
from engine.model.loader import load_model  # noqa: E402
from engine.model.provisioning import join_parts, part_files  # noqa: E402

HERE = Path(__file__).resolve().parent
VENV = HERE.parent / ".cache" / "llama-cpp"
OURS = ("dense", "index_share")


def llama_python(given: Path | None) -> Path:
    """An interpreter with llama-cpp-python: the one given, else .cache/llama-cpp's, made on first use."""
    if given is not None:
        return given
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"installing llama-cpp-python into {VENV} (compiles llama.cpp: about 15 minutes on 2 cores)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "llama-cpp-python"], check=True)
    return python


class Worker:
    """llama.cpp in its own process, the model loaded once, one request at a time."""

    def __init__(self, python: Path, gguf: Path, n_ctx: int, threads: int):
        self.process = subprocess.Popen([str(python), str(HERE / "llama_cpp_worker.py"), str(gguf), str(n_ctx),
                                         str(threads)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if not json.loads(self._line()).get("ready"):
            raise RuntimeError("the llama.cpp worker did not start")

    def run(self, ids: list[int], decode: int) -> dict:
        self.process.stdin.write(json.dumps({"ids": ids, "decode": decode}) + "\n")
        self.process.stdin.flush()
        return json.loads(self._line())

    def _line(self) -> str:
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the llama.cpp worker stopped (exit {self.process.wait()})")
        return line

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lengths", type=int, nargs="+", default=[4096, 8192, 16384, 32704])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--decode-tokens", type=int, default=8)
    parser.add_argument("--llama-python", type=Path)
    parser.add_argument("--json", type=Path, default=HERE / "llama_cpp_peer.json")
    args = parser.parse_args()

    python = llama_python(args.llama_python)
    lm = load_model()
    threads = torch.get_num_threads()
    texts = {n: real_text_ids(lm, n) for n in args.lengths}
    runs = {mode: run_config(mode) for mode in OURS}
    timed: dict[tuple[int, str], dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(dir=HERE.parent / ".cache") as tmp:
        gguf = Path(tmp) / "model.gguf"
        join_parts(part_files(lookup(default_key())), gguf)
        peer = Worker(python, gguf, max(args.lengths) + args.decode_tokens + 16, threads)
        peer.run(texts[args.lengths[0]][:256], 2)  # warm up, as the engine's first call below
        generate(lm, texts[args.lengths[0]][:256], runs["index_share"], 2)
        for r in range(args.rounds):
            for n in args.lengths:
                measured = {"llama.cpp": peer.run(texts[n], args.decode_tokens)}
                for mode, cfg in runs.items():
                    result = generate(lm, texts[n], cfg, max_new_tokens=args.decode_tokens + 1)
                    per_token = result.decode.cpu_seconds / max(1, result.decode_forwards)
                    measured[mode] = {"prefill_s": result.prefill.cpu_seconds, "decode_s_per_token": per_token}
                for name, m in measured.items():
                    t = timed.setdefault((n, name), {})
                    for key, value in m.items():
                        t.setdefault(key, []).append(value)
                    print(f"round {r + 1}, {n} tokens, {name}: prefill {m['prefill_s']:.2f} s, "
                          f"decode {m['decode_s_per_token']:.3f} s/token", flush=True)
        peer.close()
    rows = []
    for n in args.lengths:
        peer_median = {k: statistics.median(timed[n, "llama.cpp"][k]) for k in ("prefill_s", "decode_s_per_token")}
        for name in ("llama.cpp", *OURS):
            t = timed[n, name]
            rows.append({"tokens": n, "engine": name, **{k: spread(v) for k, v in t.items()},
                         "prefill_vs_llama_cpp": statistics.median(t["prefill_s"]) / peer_median["prefill_s"],
                         "decode_vs_llama_cpp": statistics.median(t["decode_s_per_token"]) / peer_median["decode_s_per_token"]})
    version = subprocess.run([str(python), "-c", "import llama_cpp; print(llama_cpp.__version__)"], check=True,
                             capture_output=True, text=True).stdout.strip()
    report = {
        "date": datetime.now(timezone.utc).isoformat(timespec="minutes"),
        "device": f"{cpu_model()}, {threads} threads", "torch": torch.__version__,
        "llama_cpp_python": version, "model": lm.name,
        "engine": "bf16 weights converted from the GGUF; dense and Index Share at the runs' defaults",
        "llama_cpp": "the GGUF's own weights, llama-cpp-python's defaults (no flash attention), batch 512",
        "rounds": args.rounds, "decode_tokens": args.decode_tokens,
        "basis": "computed CPU seconds (process CPU time / threads); ratios are our median / llama.cpp's median",
        "rows": rows,
    }
    write_json_atomic(args.json, report)
    print(f"\nDevice: {report['device']}; {lm.name}; median (min-max) of {args.rounds} interleaved rounds\n")
    print(table(report))


def table(report: dict) -> str:
    lines = ["| tokens | engine | prefill s | vs llama.cpp | decode s/token | vs llama.cpp |",
             "|---:|---|---:|---:|---:|---:|"]
    for r in report["rows"]:
        p, d = r["prefill_s"], r["decode_s_per_token"]
        lines.append(f"| {r['tokens']} | {r['engine']} | {p['median']:.2f} ({p['min']:.2f}-{p['max']:.2f}) | "
                     f"{r['prefill_vs_llama_cpp']:.2f}x | {d['median']:.3f} ({d['min']:.3f}-{d['max']:.3f}) | "
                     f"{r['decode_vs_llama_cpp']:.2f}x |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
