from proofs_check.claims import vadhan as vadhan
