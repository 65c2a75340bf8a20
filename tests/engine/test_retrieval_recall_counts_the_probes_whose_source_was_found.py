"""A probe's source counts as retrieved when the chunks found hold its passage, or else come from its documents;
retrieval recall is the share of probes with a source whose source was retrieved."""

from engine.strategies.chunking import Chunk
from engine.core.probes import ProbeQuestion
from engine.strategies.retrieval import recall, retrieved_source


def chunk(document: str, text: str, index: int = 0) -> Chunk:
    return Chunk(document, index, text, n_tokens=len(text.split()), start=0)


FEE = chunk("contract.txt", "Terms.\n\nThe monthly service fee is\n$4,500 per month.")
CONTACT = chunk("chat.txt", "Dana Reyes's phone extension is 4412.")
OTHER = chunk("contract.txt", "Either party may end the agreement with 45 days of notice.", index=1)


def test_it_finds_a_passage_inside_a_chunk_whatever_the_whitespace():
    probe = ProbeQuestion("Fee?", "$4,500", source="contract.txt",
                          passage="The monthly service fee is $4,500 per month.")
    assert retrieved_source(probe, [FEE]) is True
    assert retrieved_source(probe, [OTHER, CONTACT]) is False  # the right document, the wrong chunk


def test_it_needs_every_hop_of_a_multi_hop_passage():
    probe = ProbeQuestion("Extension?", "4412", "multi_hop", source="contract.txt + chat.txt",
                  passage="The monthly service fee is $4,500 per month. … Dana Reyes's phone extension is 4412.")
    assert retrieved_source(probe, [FEE, CONTACT]) is True
    assert retrieved_source(probe, [CONTACT]) is False


def test_without_a_passage_it_needs_a_chunk_of_each_source_document():
    assert retrieved_source(ProbeQuestion("Notice?", "45", source="contract.txt"), [OTHER]) is True
    assert retrieved_source(ProbeQuestion("Notice?", "45", source="chat.txt"), [OTHER]) is False
    assert retrieved_source(ProbeQuestion("Ext?", "4412", source="contract.txt + chat.txt"), [OTHER]) is False
    assert retrieved_source(ProbeQuestion("Ext?", "4412", source="contract.txt + chat.txt"), [CONTACT, OTHER]) is True


def test_a_probe_without_a_source_is_left_out_of_the_recall():
    assert retrieved_source(ProbeQuestion("Anything?", "x"), [FEE]) is None
    assert recall([True, None, False, True]) == 2 / 3
    assert recall([None, None]) is None


def test_an_absent_probe_is_left_out_of_the_recall_though_it_keeps_the_fact_it_was_modelled_on():
    probe = ProbeQuestion("Priya's extension?", "not stated", "absent", source="chat.txt",
                          passage="Dana Reyes's phone extension is 4412.")
    assert retrieved_source(probe, [CONTACT]) is None
