"""The error every reference-data check raises (simulator/reference.py and the record readers it
calls, simulator/validation/ns2_records.py among them). Kept apart from reference.py so that those
readers can raise it without importing reference.py back."""


class ReferenceDataError(ValueError):
    """A reference file is missing or malformed; the message names the file, the row and what was expected."""
