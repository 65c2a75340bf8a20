"""An organisation's people: who sees and changes what (access), and its members with their roles (members).

Beside the layers: the views and the API ask it who may do what; it imports only the models.
"""
