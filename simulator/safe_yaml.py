"""The YAML loader of study and config files: SafeLoader, plus YAML 1.2 floats (``1e-3`` is a
number, not a string), no key given twice in one mapping, and a bound on aliases so that an alias
bomb is refused before it expands. Errors are yaml.YAMLError with the line; callers name the file.
"""
import re

import yaml

MAX_ALIASES = 50   # YAML aliases (*name) a file may use: enough for reuse, too few for an alias bomb


class Loader(yaml.SafeLoader):
    """SafeLoader that also reads ``1e-3`` as a float (YAML 1.2), not a string, rejects a key given
    twice in one mapping (naming both lines) and refuses more than MAX_ALIASES aliases."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self._aliases = getattr(self, "_aliases", 0) + 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise yaml.YAMLError(f"more than {MAX_ALIASES} aliases (line {mark.line + 1}); "
                                     "write the values out instead")
        return super().compose_node(parent, index)

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + 1
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.YAMLError(f"key {key!r} appears twice in one mapping (lines {seen[key]} and {line}); "
                                     "give each key once")
            seen[key] = line
        return super().construct_mapping(node, deep=deep)


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


# The project's own declaration files (parameters, catalogue, claims, reference values) are read in
# every job: libyaml's parser when PyYAML has it (about 5x faster), with exactly yaml.safe_load's
# meaning. Files a user writes go through Loader above.
_OWN = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_own(text):
    """yaml.safe_load of one of the project's own files, with libyaml's parser if available."""
    return yaml.load(text, Loader=_OWN)
