"""The YAML loader of study and config files: SafeLoader, plus YAML 1.2 floats (``1e-3`` is a
number, not a string), keys that are names given once per mapping, at most MAX_DEPTH nested
levels, and a bound on aliases so that an alias bomb is refused before it expands. Errors are yaml.YAMLError with the line; callers name the file.
"""
import copy
import re
from functools import lru_cache

import yaml

MAX_ALIASES = 50   # YAML aliases (*name) a file may use: enough for reuse, too few for an alias bomb
# Lists and mappings inside one another: study and config files need 5; PyYAML composes nested
# nodes by recursion, so 100,000 levels of `[` ended in a RecursionError instead of a message.
MAX_DEPTH = 50
_MERGE = "tag:yaml.org,2002:merge"


class Loader(yaml.SafeLoader):
    """SafeLoader that also reads ``1e-3`` as a float (YAML 1.2), not a string, rejects a key given
    twice in one mapping (naming both lines), a key that is not a name (a list, a mapping, a number,
    true/false or null), more than MAX_DEPTH nested levels and more than MAX_ALIASES aliases."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self._aliases = getattr(self, "_aliases", 0) + 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise yaml.YAMLError(f"more than {MAX_ALIASES} aliases (line {mark.line + 1}); "
                                     "write the values out instead")
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.YAMLError(f"more than {MAX_DEPTH} levels of lists and mappings inside one another "
                                     f"(line {mark.line + 1}); allowed: at most {MAX_DEPTH} levels")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            line = key_node.start_mark.line + 1
            if key_node.tag == _MERGE:
                continue                                  # `<<: *alias`: SafeLoader merges it
            if not isinstance(key_node, yaml.ScalarNode):
                kind = "list" if isinstance(key_node, yaml.SequenceNode) else "mapping"
                raise yaml.YAMLError(f"line {line}: a {kind} is used as a key (a `?` complex key); allowed "
                                     "keys: names (strings), e.g. `lambda:`")
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise yaml.YAMLError(f"line {line}: key {key_node.value!r} reads as {_kind(key)}, not a name; "
                                     f"allowed keys: names (strings): write it in quotes, e.g. "
                                     f"'\"{key_node.value}\":', if you mean the name")
            if key in seen:
                raise yaml.YAMLError(f"key {key!r} appears twice in one mapping (lines {seen[key]} and {line}); "
                                     "give each key once")
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


def _kind(value) -> str:
    if value is None:
        return "null"
    return {bool: "true/false", int: "a number", float: "a number"}.get(type(value), f"a {type(value).__name__}")


Loader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:float"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(
        r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |\.[0-9_]+(?:[eE][-+]?[0-9]+)?
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
        re.X,
    ),
    list("-+0123456789."),
)


def load_user(text):
    """A file the user writes (study, workflow config), read with Loader. `validate` reads one file up to
    three times (a config? a suite study? the study), so the last few documents are kept, each caller
    getting its own copy."""
    return copy.deepcopy(_load_user(text))


@lru_cache(maxsize=4)
def _load_user(text):
    return yaml.load(text, Loader=Loader)


# The project's own declaration files (parameters, catalogue, claims, reference values) are read in
# every job: libyaml's parser when PyYAML has it (about 5x faster), with exactly yaml.safe_load's
# meaning. Files a user writes go through Loader above.
_OWN = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_own(text):
    """yaml.safe_load of one of the project's own files, with libyaml's parser if available."""
    return yaml.load(text, Loader=_OWN)
