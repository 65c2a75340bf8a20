"""GGUF headers written here with the gguf package's own writer: a tensor-free file says what a model claims."""

import numpy as np
import pytest
from gguf import GGUFWriter

from engine.core.catalogue import QWEN_05B


@pytest.fixture
def write_gguf(tmp_path):
    def write(name: str = QWEN_05B.gguf_name, architecture: str = "qwen2", context_length: int = 32768,
              licence: str | None = None):
        path = tmp_path / f"{name.replace(' ', '-')}-{architecture}-{context_length}-{licence}.gguf"
        writer = GGUFWriter(path, architecture)
        writer.add_name(name)
        writer.add_context_length(context_length)
        if licence is not None:
            writer.add_license(licence)
        writer.add_tensor("token_embd.weight", np.zeros((4, 4), dtype=np.float32))
        writer.write_header_to_file()
        writer.write_kv_data_to_file()
        writer.write_tensors_to_file()
        writer.close()
        return path

    return write
