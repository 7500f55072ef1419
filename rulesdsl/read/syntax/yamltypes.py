"""How YAML types what it reads: the YAML 1.2 core schema (as editors and schema validators
read YAML) on PyYAML's fast loader, and the words YAML 1.1 readers take for booleans."""

from __future__ import annotations

import re
from enum import StrEnum

import yaml

# libyaml's loader where PyYAML has it (ten times faster), else the pure-Python one.
FAST_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TAG = "tag:yaml.org,2002:"


class YamlType(StrEnum):
    """What a node is, as YAML 1.2 types it."""

    MAP = "map"
    SEQ = "seq"
    STR = "str"
    INT = "int"
    FLOAT = "float"
    BOOL = "bool"
    NULL = "null"


PLAIN_TAGS = {f"{TAG}{t}" for t in YamlType}
# Booleans to YAML 1.1 readers only: YAML 1.2 reads them as text.
YAML11_BOOLEANS = {"yes", "no", "on", "off", "y", "n"}
# The YAML 1.2 core schema: how a plain scalar is typed, and its first characters.
CORE_TYPES = (
    (YamlType.BOOL, r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (YamlType.INT, r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (
        YamlType.FLOAT,
        r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
        r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
        "-+0123456789.",
    ),
    (YamlType.NULL, r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
)


def core_loader(base: type) -> type:
    """`base`, a safe loader, typing plain scalars by the YAML 1.2 core schema."""
    loader = type(f"Core{base.__name__}", (base,), {"yaml_implicit_resolvers": {}})
    for name, pattern, first in CORE_TYPES:
        loader.add_implicit_resolver(f"{TAG}{name}", re.compile(pattern), first)
    return loader


CoreLoader = core_loader(FAST_LOADER)


def kind_of(node: yaml.Node) -> YamlType:
    """A mapping, a list, or the YAML 1.2 type of a scalar."""
    if isinstance(node, yaml.MappingNode):
        return YamlType.MAP
    if isinstance(node, yaml.SequenceNode):
        return YamlType.SEQ
    name = node.tag.removeprefix(TAG)
    return next((t for t in YamlType if t == name), YamlType.STR)
