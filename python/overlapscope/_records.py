"""Plain Python objects over the documents core writes.

Every object is read from its part of a JSON document that the C++ core
wrote (`analyze --json`, `diff --json`, the ranks document): each field of
that part is an attribute in snake_case (``costMs`` is ``cost_ms``), and
``to_dict()`` gives the part back unchanged. Nothing here judges anything:
fields a later schema adds appear as attributes without a change here.
"""

import html
import re

_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def snake(name):
    """``costMs`` -> ``cost_ms``, ``allFixesMs`` -> ``all_fixes_ms``."""
    return _CAMEL.sub(r"_\1", name).lower()


class Record:
    """A JSON object's fields as attributes (snake_case); nested objects and
    lists of objects that a subclass names in ``_nested`` become its types."""

    _nested = {}

    def __init__(self, fields):
        self._fields = fields
        for key, value in fields.items():
            kind = self._nested.get(key)
            if kind is not None and value is not None:
                value = [kind(v) for v in value] if isinstance(value, list) else kind(value)
            setattr(self, snake(key), value)

    def to_dict(self):
        """The object's part of the document, as core wrote it."""
        return self._fields

    def get(self, key, default=None):
        """A field by its JSON name (``"costMs"``)."""
        return self._fields.get(key, default)

    def __eq__(self, other):
        return type(self) is type(other) and self._fields == other._fields

    def __repr__(self):
        shown = ", ".join(f"{snake(k)}={v!r}" for k, v in self._fields.items()
                          if not isinstance(v, (list, dict)))
        return f"{type(self).__name__}({shown})"


def html_table(header, rows):
    """A small HTML table; every cell escaped."""
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(_cell(c))}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _cell(value):
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
