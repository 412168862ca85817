"""Receipts: the public chain, its commitments, the service's signatures and their audit (docs/receipts.md)."""
