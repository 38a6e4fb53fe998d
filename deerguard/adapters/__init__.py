"""deerguard.adapters."""
