"""deerguard.authz."""
