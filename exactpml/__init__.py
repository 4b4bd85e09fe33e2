"""exactpml: exact and certified verification of pointwise maximal leakage and privacy theory."""

from exactpml.errors import ExactPMLError, InexactInput, InvalidArgument, InvalidFile, Undecided

__all__ = sorted(
    [
        "ExactPMLError",
        "InexactInput",
        "InvalidArgument",
        "InvalidFile",
        "Undecided",
    ]
)
