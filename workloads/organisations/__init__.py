"""An organisation's people: who sees and changes what (access), and its members with their roles (members)."""
