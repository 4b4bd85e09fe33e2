"""Edge cases of the PML measures, capacities and divergences: permuted alphabet orders,
symbolic and irrational kernels, ε = 0, sets of priors (expected values by hand or from
``proofs_check/reference``)."""
