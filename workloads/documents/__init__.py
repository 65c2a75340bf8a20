"""A workload's documents: uploads admitted and read into text (intake, extraction), the set a run read
(document_sets)."""
