"""How a study or config file's problems are worded: a key's path ('grid.algorithm[2]'), values as
written in YAML, 'did you mean', and each JSON-schema error as a message naming the key and the
allowed values (simulator/study.py, simulator/workflow_config.py)."""
from __future__ import annotations

import difflib


def format_value(v) -> str:
    """A grid value as written in YAML: 5 -> '5', 5.0 -> '5.0', None -> 'null'."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def key_path(parts) -> str:
    """('grid', 'algorithm', 2) -> 'grid.algorithm[2]'."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + str(p)
    return out or "(top level)"


def nearest(name, choices) -> str:
    """' (did you mean 'x'?)' or ''."""
    match = difflib.get_close_matches(str(name), [str(c) for c in choices], n=1, cutoff=0.5)
    return f" (did you mean {match[0]!r}?)" if match else ""


def allowed_text(choices) -> str:
    return ", ".join(format_value(c) for c in choices)


def describe(schema: dict) -> str:
    """Allowed values of a schema node, in words: 'integers >= 1', 'numbers > 0 or null', 'none, reno'."""
    if "enum" in schema:
        return allowed_text(schema["enum"])
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    plural = {"number": "numbers", "integer": "integers", "string": "strings", "boolean": "true or false",
              "array": "a list", "object": "a mapping", "null": "null"}
    main = [plural.get(t, t) for t in types if t != "null"]
    text = " or ".join(main) or "values"
    if "exclusiveMinimum" in schema:
        text += f" > {schema['exclusiveMinimum']}"
    if "minimum" in schema:
        text += f" >= {schema['minimum']}"
    if "exclusiveMaximum" in schema:
        text += f" and < {schema['exclusiveMaximum']}"
    if "maximum" in schema:
        text += f" and <= {schema['maximum']}"
    if "null" in types:
        text += " or null"
    if schema.get("description"):
        text += f" ({schema['description']})"
    return text


def _resolve(node: dict, root: dict | None) -> dict:
    """Follow a local '$ref' ('#/$defs/param/K') within root."""
    ref = node.get("$ref", "") if isinstance(node, dict) else ""
    if root is None or not ref.startswith("#/"):
        return node
    for part in ref[2:].split("/"):
        root = root[part]
    return root


def schema_message(err: "jsonschema.ValidationError", root: dict | None = None) -> str:
    """One jsonschema error as a message naming the key and the allowed values."""
    where = key_path(err.absolute_path)
    v, val = err.validator, err.instance
    if v == "additionalProperties":
        allowed = list(err.schema.get("properties", {}))
        extra = [k for k in val if k not in allowed]
        msgs = []
        for k in extra:
            sub = key_path(list(err.absolute_path) + [k])
            msgs.append(f"{sub}: unknown key {k!r}{nearest(k, allowed)}; allowed keys: {', '.join(allowed)}")
        return "\n".join(msgs)
    if v == "enum":
        return f"{where}: {val!r} is not allowed{nearest(val, err.validator_value)}; allowed values: {allowed_text(err.validator_value)}"
    if v == "type":
        expected = err.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        shown = "empty" if val is None else f"a {type(val).__name__}"
        return f"{where}: {val!r} is {shown}, expected a {expected}; allowed values: {describe(err.schema)}"
    if v in ("exclusiveMinimum", "minimum", "exclusiveMaximum", "maximum"):
        return f"{where}: {val!r} is out of range; allowed values: {describe(err.schema)}"
    if v == "required":
        missing = [k for k in err.validator_value if k not in val]
        return f"{where}: missing required key(s) {', '.join(map(repr, missing))}; required keys: {', '.join(err.validator_value)}"
    if v == "minItems":
        return f"{where}: empty list; give at least {err.validator_value} value(s); allowed values: {describe(_resolve(err.schema.get('items', {}), root))}"
    if v == "minProperties":
        allowed = list(err.schema.get("properties", {}))
        keys = f"; allowed keys: {', '.join(allowed)}" if allowed else ""
        return f"{where}: empty mapping; give at least {err.validator_value} key(s){keys}"
    if v == "uniqueItems":
        return f"{where}: values repeat in {val!r}; each value must appear once"
    if v == "pattern":
        return f"{where}: {val!r} is not allowed; allowed values: names of letters, digits and underscores ({err.validator_value})"
    if v == "minLength":
        return f"{where}: empty string; allowed values: non-empty text"
    return f"{where}: {err.message}"
