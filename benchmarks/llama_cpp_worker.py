"""llama.cpp's side of benchmarks/llama_cpp_peer.py, run by the interpreter that has llama-cpp-python.

Usage (the peer benchmark starts it): python llama_cpp_worker.py MODEL.gguf N_CTX THREADS
Reads one JSON request a line, {"ids": [...], "decode": N}, and answers one JSON line: a fresh prefill of the ids
through llama.cpp's own batched eval, then N greedy one-token steps, each timed in process CPU seconds over the
threads (the same basis as the engine's computed seconds) and in wall seconds.
"""

import json
import sys
import time

import numpy as np
from llama_cpp import Llama


def main() -> None:
    path, n_ctx, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    llm = Llama(model_path=path, n_ctx=n_ctx, n_threads=threads, n_threads_batch=threads, verbose=False)
    vocab = llm.n_vocab()
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        llm.reset()
        cpu, wall = time.process_time(), time.perf_counter()
        llm.eval(request["ids"])
        prefill = ((time.process_time() - cpu) / threads, time.perf_counter() - wall)
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(request["decode"]):
            logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(vocab,))  # the last token's row
            llm.eval([int(logits.argmax())])
        steps = max(1, request["decode"])
        print(json.dumps({"prefill_s": prefill[0], "prefill_wall_s": prefill[1],
                          "decode_s_per_token": (time.process_time() - cpu) / threads / steps,
                          "decode_wall_s_per_token": (time.perf_counter() - wall) / steps}), flush=True)


if __name__ == "__main__":
    main()
