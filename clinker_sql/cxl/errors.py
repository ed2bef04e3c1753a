"""CXL compile errors carry a position inside the CXL text; the caller maps it
into the YAML file with `CxlSource.location`."""

from __future__ import annotations


class CxlError(Exception):
    def __init__(self, code: str, message: str, line: int, col: int, hint: str = "",
                 length: int = 1):
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.col = col
        self.hint = hint
        self.length = length
