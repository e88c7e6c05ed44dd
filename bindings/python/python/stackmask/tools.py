"""Tool calling: one JSON Schema for "call exactly one of these tools".

An agent gives the model a list of tools (OpenAI-style function definitions) and wants
the model's reply to be one call, ``{"name": "<tool>", "arguments": {...}}``, whose
arguments satisfy that tool's parameter schema. :func:`tool_call_schema` builds the
schema whose top level is a ``oneOf`` over one object schema per tool; compile it with
``Grammar.from_json_schema`` and every constrained generation parses and validates.
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, Mapping


def _function_of(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    """The function definition of ``tool`` (``{"type": "function", "function": {...}}``
    or the function definition itself)."""
    if tool.get("type") == "function" and isinstance(tool.get("function"), Mapping):
        return tool["function"]
    return tool


def tool_call_schema(tools: Iterable[Mapping[str, Any]]) -> Dict[str, Any]:
    """The JSON Schema of one call of one of ``tools``.

    Each tool is an OpenAI-style function definition, ``{"name": ..., "description":
    ..., "parameters": <JSON Schema of the arguments object>}``, optionally wrapped as
    ``{"type": "function", "function": {...}}``. A tool without ``parameters`` takes an
    empty object.

    The result is ``{"oneOf": [call_schema(tool) for tool in tools]}`` where a call
    schema is an object with exactly the properties ``name`` (``const``: the tool's
    name) and ``arguments`` (the tool's parameters), both required.

    Raises ``ValueError`` for an empty list, a tool without a string name, or two tools
    with the same name.
    """
    calls = []
    names = set()
    for tool in tools:
        function = _function_of(tool)
        name = function.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"a tool needs a non-empty string name: {tool!r}")
        if name in names:
            raise ValueError(f"two tools are named {name!r}")
        names.add(name)
        parameters = function.get("parameters") or {
            "type": "object",
            "properties": {},
            "additionalProperties": False,
        }
        calls.append(
            {
                "type": "object",
                "properties": {"name": {"const": name}, "arguments": parameters},
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    if not calls:
        raise ValueError("tool_call_schema needs at least one tool")
    return {"oneOf": calls}
