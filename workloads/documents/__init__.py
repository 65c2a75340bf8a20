"""A workload's documents: uploads admitted and read into text (intake, extraction), the set a run read
(document_sets).

Layer: above the models; may import models, workers (to queue a task) and engine.core.
"""
