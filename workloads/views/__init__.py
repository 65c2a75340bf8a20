"""The HTML pages, one module per page. Every view needs a login and sees only its user's organisation."""
