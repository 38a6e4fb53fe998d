"""deerguard.provenance."""
