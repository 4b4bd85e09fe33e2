"""Mechanism operations against their definitions, with permuted alphabets and symbolic and
irrational entries (expected values by hand or from ``proofs_check/reference``)."""
