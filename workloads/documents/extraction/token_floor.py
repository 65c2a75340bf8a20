"""A lower bound on a text's token count, to refuse text that cannot fit in a workload before tokenising it.

Tokenising is the slow part of saving a large text: 18 MiB of it took 20 s on 2 CPU cores, this bound 0.7 s.

The bound holds for byte-level BPE tokenizers (GPT-2's family; SmolLM2's) without a normalizer, whose added tokens
neither hold nor strip whitespace. For any other tokenizer it is 0, so every text is tokenised as before. Why:
- The pre-tokenizer cuts the text into pieces by GPT-2's pattern, and BPE never merges across pieces. No piece holds
  the non-space characters of two words (runs of bytes between ASCII whitespace, which the pattern's \\s includes).
- A piece yields at least one token, unless all its bytes are missing from the vocabulary: BPE without an unknown
  token silently drops those (SmolLM2 drops \\x04, \\x06, \\x13, \\x14, \\x16, \\x1d, the lead bytes of U+40000
  to U+BFFFF, and bytes UTF-8 never uses). They are deleted before counting; that never turns one word into two.
- An added token ("<|im_start|>") is matched in the raw text and counts once, but holds no whitespace: it lies within
  one word, which it gives a token.
So the text has at least one token per word. And every byte left is part of exactly one token, none longer than the
longest entry of the vocabulary: at least bytes / longest tokens (SmolLM2: 81 bytes, a newline and 80 spaces).
"""

from tokenizers.models import BPE
from tokenizers.pre_tokenizers import ByteLevel

# A word is a run of bytes other than ASCII whitespace (the bytes bytes.split() splits on). Each byte is marked as
# either, and a word starts at each " x" and at a leading "x": counted by bytes.count, in a copy of the text. A regex
# that counted them (re.subn) kept every piece between words: 600 MB for 20 MiB of English.
_WORD_MARKS = bytes.maketrans(bytes(range(256)), bytes(b" "[0] if byte in b" \t\n\r\x0b\x0c" else b"x"[0]
                                                        for byte in range(256)))


def _byte_level_characters() -> list[str]:
    """GPT-2's character for each byte value, in which byte-level vocabularies are written: printable Latin-1 stands
    for itself, other bytes for the characters from U+0100 on, in order."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    others = iter(range(256, 512))
    return [chr(byte) if byte in printable else chr(next(others)) for byte in range(256)]


_BYTE_CHARACTERS = _byte_level_characters()


class TokenFloor:
    """floor(text) <= len(tokenizer(text)["input_ids"]), in a small fraction of the time tokenising takes."""

    def __init__(self, tokenizer):
        self._dropped, self._longest = byte_level_bpe(tokenizer) or (b"", 0)

    def __call__(self, text: str) -> int:
        if not self._longest:
            return 0
        data = text.encode().translate(None, self._dropped)
        size, marks = len(data), data.translate(_WORD_MARKS)
        del data  # the text and two copies of it would be held at once otherwise
        words = marks.count(b" x") + marks.startswith(b"x")
        return max(words, -(-size // self._longest))


def byte_level_bpe(tokenizer) -> tuple[bytes, int] | None:
    """(bytes the vocabulary lacks, longest token in bytes) for a tokenizer the bound holds for, else None."""
    backend = getattr(tokenizer, "backend_tokenizer", None)  # transformers' fast tokenizers have one
    if backend is None or backend.normalizer is not None:
        return None
    pre_tokenizer, model = backend.pre_tokenizer, backend.model
    if not (isinstance(pre_tokenizer, ByteLevel) and pre_tokenizer.use_regex and isinstance(model, BPE)):
        return None
    if model.continuing_subword_prefix or model.end_of_word_suffix:  # a byte inside a word is another entry then
        return None
    added = backend.get_added_tokens_decoder().values()
    if any(token.lstrip or token.rstrip or any(c.isspace() for c in token.content) for token in added):
        return None
    vocabulary = backend.get_vocab(with_added_tokens=False)
    dropped = bytes(byte for byte, character in enumerate(_BYTE_CHARACTERS) if character not in vocabulary)
    # One character of a byte-level vocabulary entry stands for one byte.
    longest = max([*map(len, vocabulary), *(len(token.content.encode()) for token in added)])
    return dropped, longest
