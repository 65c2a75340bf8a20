"""A long text's tokens are counted a piece at a time, and the count is the tokenizer's own count of the whole text:
counting a workload's whole limit in one call took the tokenizer 623 MB."""

import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from benchmarks.upload_memory import MIB, write_text_files
from engine.model.loader import load_tokenizer
from workloads import tasks
from workloads.documents.extraction.token_count import PIECE_CHARACTERS, TokenCount
from workloads.documents.intake import store_upload
from workloads.models import Document
from workloads.tasks import extract_upload

# Cut places, places that look like them but are not ("  b", " \nb", "\n\nb"), and what the pre-tokenizer treats
# apart: contractions, digits, punctuation, other scripts, Unicode spaces, an added token.
ALPHABET = [" ", " ", "\n", "\n\n", "\t", "a", "Word", "'s", "'ll", "12", "3", ",", ".", "(", "é", "中文", "’",
            "\u00a0", "\u2003", "\x1c", "\x85", "<|im_start|>", "<|endoftext|>", "🙂", "\x04"]


@pytest.fixture(scope="module")
def tokenizer():
    return load_tokenizer()


def test_counting_in_small_pieces_gives_the_tokenizers_count_of_the_whole(tokenizer):
    shuffle = random.Random(24)
    for length in (40, 400, 4000):
        for _ in range(20):
            text = "".join(shuffle.choice(ALPHABET) for _ in range(length))
            for piece in (1, 7, 64):
                assert TokenCount(tokenizer, piece)(text) == len(tokenizer(text)["input_ids"]), (piece, text)


def test_counting_english_in_pieces_gives_the_tokenizers_count(tokenizer, tmp_path):
    text = write_text_files(tmp_path, 1, MIB // 4)[0].read_text()
    assert TokenCount(tokenizer, 4096)(text) == len(tokenizer(text)["input_ids"])


class _Recording:
    """The real tokenizer, noting the length of each text it is given."""

    def __init__(self, tokenizer):
        self._tokenizer, self.lengths = tokenizer, []

    def __call__(self, text, **kwargs):
        self.lengths.append(len(text))
        return self._tokenizer(text, **kwargs)

    def __getattr__(self, name):
        return getattr(self._tokenizer, name)


def test_extraction_never_gives_the_tokenizer_a_long_text_whole(workload, alice, tokenizer, tmp_path, monkeypatch):
    text = write_text_files(tmp_path, 1, MIB)[0].read_text()
    recording = _Recording(tokenizer)
    monkeypatch.setattr(tasks, "_tokenizer", lambda name: recording)
    extract_upload(store_upload(workload, alice, [SimpleUploadedFile("long.txt", text.encode())]).pk)
    assert Document.objects.get(workload=workload).tokens == len(tokenizer(text)["input_ids"])
    assert len(recording.lengths) > 1 and max(recording.lengths) < PIECE_CHARACTERS + 1000
