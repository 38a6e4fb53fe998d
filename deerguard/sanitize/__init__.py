"""deerguard.sanitize."""
