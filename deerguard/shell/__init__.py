"""Shell command parsing and classification."""
