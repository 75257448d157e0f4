"""The rules engine as it was before issue 6's speed work, kept verbatim (only its imports
point here) as the oracle for tests/rules/test_differential.py. Do not optimise or fix
it: a behaviour change in the engine must show up as a difference against this copy."""
