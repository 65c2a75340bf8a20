"""Text whose token count cannot fit in what the workload has left is refused before it is tokenised (18 MiB took
20 s on 2 cores), on a lower bound that never passes the real count; text that may fit is counted exactly."""

import random
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from tokenizers import Tokenizer, normalizers

from tests.workloads.conftest import MODEL
from workloads import tasks
from workloads.documents.extraction.token_floor import TokenFloor
from workloads.documents.intake import store_upload
from workloads.tasks import extract_upload

# Words, every kind of whitespace, and what the tokenizer treats specially: its added tokens, its longest tokens,
# bytes missing from its vocabulary (dropped without a token), characters of four UTF-8 bytes.
PIECES = [
    "a", "word", "it's", "12345", "½", "²", "é", "e\u0301", "日本語", "😀", "\U00040000", "!", "...", "$", "\x7f",
    "\ufffd", " ", "  ", "\n", "\t", "\r\n", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u3000", "\u2028",
    " " * 200, "\n" + " " * 80, "\x04", "\x06", "\x13", "\x14", "\x16", "\x1d", "x\x04y",
    "<|im_start|>", "<|im_end|>", "<|endoftext|>", "#" * 80, "-" * 70, "=" * 65,
]


@pytest.fixture(scope="module")
def tokenizer():
    return tasks._tokenizer(MODEL)


def test_the_floor_never_passes_the_real_token_count(tokenizer):
    floor, rng = TokenFloor(tokenizer), random.Random(7)
    texts = ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 40))) for _ in range(5000)]
    texts += ["".join(chr(rng.randrange(1, 0x110000)) for _ in range(50)).encode(errors="ignore").decode()
              for _ in range(500)]  # anywhere in Unicode, lone surrogates left out as extraction leaves them

    assert [text for text in texts if floor(text) > len(tokenizer(text)["input_ids"])] == []


def test_the_floor_is_one_token_per_word(tokenizer):
    assert TokenFloor(tokenizer)("The notice period is 90 days.\n" * 1000) == 6000


def test_bytes_the_tokenizer_drops_without_a_token_are_not_counted(tokenizer):
    text = "\x04 \x04 \x04"  # three words to the eye; SmolLM2 drops each \x04 and keeps the 2 spaces

    assert len(tokenizer(text)["input_ids"]) == 2 and TokenFloor(tokenizer)(text) <= 2


def test_there_is_no_floor_for_a_tokenizer_it_cannot_reason_about(tokenizer):
    normalised = SimpleNamespace(backend_tokenizer=Tokenizer.from_str(tokenizer.backend_tokenizer.to_str()))
    normalised.backend_tokenizer.normalizer = normalizers.NFKC()  # which may join or split words

    assert TokenFloor(normalised)("many words " * 100) == 0
    assert TokenFloor(lambda text: {"input_ids": []})("many words " * 100) == 0


class CountingTokenizer:
    """The real tokenizer, remembering what it was asked to tokenise."""

    def __init__(self, tokenizer):
        self.tokenizer, self.texts = tokenizer, []
        self.backend_tokenizer = tokenizer.backend_tokenizer

    def __call__(self, text):
        self.texts.append(text)
        return self.tokenizer(text)


def test_it_refuses_text_that_cannot_fit_without_tokenising_it(workload, alice, tokenizer, monkeypatch):
    counting = CountingTokenizer(tokenizer)
    monkeypatch.setattr(tasks, "_tokenizer", lambda name: counting)
    long = "The notice period is 90 days.\n" * 1000
    short = "The governing law is the law of Ireland.\n"
    upload = store_upload(workload, alice, [SimpleUploadedFile("long.txt", long.encode()),
                                            SimpleUploadedFile("short.txt", short.encode())])

    with override_settings(WORKLOAD_MAX_TOKENS=5000):
        extract_upload(upload.pk)

    items = {item.name: item for item in upload.items.all()}
    assert (items["long.txt"].kept, items["long.txt"].detail) == (
        False, "skipped: at least 6,000 tokens would pass the workload's limit of 5,000")
    assert items["short.txt"].kept and items["short.txt"].tokens == len(tokenizer(short)["input_ids"])
    assert counting.texts == [short]
