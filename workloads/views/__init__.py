"""The HTML pages, one module per page. Every view needs a login and sees only its user's organisation.

Layer: the pages, above the API; may import every layer below, forms, organisations, workers and engine.core.
"""
