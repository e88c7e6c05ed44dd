"""The examples run, and what they generate always parses and validates."""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np
import pytest

import stackmask
from conftest import REPO, assert_mask_is_reference, skip_loudly

sys.path.insert(0, str(REPO / "examples"))
import generate  # noqa: E402
import tool_calling  # noqa: E402


@pytest.fixture(scope="module")
def trip_grammar(qwen):
    return stackmask.CompiledGrammar(stackmask.Grammar.from_lark(generate.GRAMMAR), qwen)


def test_generation_loop_with_logits_processor(qwen, trip_grammar):
    model = generate.RandomModel(qwen, seed=1)
    prompt = qwen.encode("Plan a trip as JSON: ")
    texts = generate.generate(trip_grammar, qwen, model, prompt, batch=6)
    assert len(texts) == 6
    for text in texts:
        trip = json.loads(text)
        assert trip["city"] in {"Paris", "Tokyo", "Lima", "Nairobi"}
        assert 1 <= trip["days"] <= 14
        assert trip["activities"] and set(trip["activities"]) <= {"museum", "hike", "food tour", "beach"}
        check = stackmask.Matcher(trip_grammar)
        check.consume_bytes(text)
        assert check.is_accepting()


def test_logits_processor_masks_exactly(qwen, trip_grammar):
    """Each call of the processor leaves finite exactly the tokens of the oracle's mask."""
    from stackmask.hf import StackmaskLogitsProcessor

    processor = StackmaskLogitsProcessor(trip_grammar)
    rng = np.random.default_rng(3)
    prompt = [1, 2, 3]
    input_ids = np.array([prompt, prompt], dtype=np.int64)
    shadow = [stackmask.Matcher(trip_grammar) for _ in range(2)]
    for _ in range(12):
        scores = processor(input_ids, rng.normal(size=(2, qwen.vocab_size)).astype(np.float32))
        next_ids = []
        for row, matcher in enumerate(shadow):
            reference = assert_mask_is_reference(matcher, "processor")
            bits = np.unpackbits(reference.view(np.uint8), bitorder="little")[: qwen.vocab_size].astype(bool)
            assert np.array_equal(np.isfinite(scores[row]), bits)
            token = int(np.argmax(scores[row]))
            matcher.consume_token(token)
            next_ids.append(token)
        input_ids = np.concatenate([input_ids, np.array(next_ids)[:, None]], axis=1)
    with pytest.raises(ValueError, match="batch changed"):
        processor(input_ids[:1], np.zeros((1, qwen.vocab_size), np.float32))
    processor.reset()
    processor(input_ids[:1], np.zeros((1, qwen.vocab_size), np.float32))


def test_logits_processor_with_torch(qwen, trip_grammar):
    try:
        import torch
    except ImportError:
        skip_loudly("torch is not installed: the logits processor is tested on numpy arrays only")
    from stackmask.hf import StackmaskLogitsProcessor

    processor = StackmaskLogitsProcessor(trip_grammar)
    scores = processor(torch.tensor([[1, 2]]), torch.zeros(1, qwen.vocab_size))
    reference = np.zeros(stackmask.bitmask_size(qwen.vocab_size), np.int32)
    stackmask.Matcher(trip_grammar).fill_reference_bitmask(reference)
    bits = np.unpackbits(reference.view(np.uint8), bitorder="little")[: qwen.vocab_size].astype(bool)
    assert np.array_equal(torch.isfinite(scores[0]).numpy(), bits)


def _validate(value: Any, schema: dict, path: str = "$") -> None:
    """Checks `value` against the JSON-Schema keywords the example's tools use
    (type, enum, const, properties, required, additionalProperties, min/max, maxLength,
    oneOf); raises AssertionError naming the first violation."""
    if "oneOf" in schema:
        matches = []
        for option in schema["oneOf"]:
            try:
                _validate(value, option, path)
                matches.append(option)
            except AssertionError:
                pass
        assert len(matches) == 1, f"{path}: {len(matches)} oneOf alternatives match"
        return
    if "const" in schema:
        assert value == schema["const"], f"{path}: {value!r} is not {schema['const']!r}"
    if "enum" in schema:
        assert value in schema["enum"], f"{path}: {value!r} not in {schema['enum']}"
    kind = schema.get("type")
    types = {"string": str, "object": dict, "boolean": bool}
    if kind in types:
        assert isinstance(value, types[kind]), f"{path}: {value!r} is not a {kind}"
    if kind == "integer":
        assert isinstance(value, int) and not isinstance(value, bool), f"{path}: {value!r} is not an integer"
    if "minimum" in schema:
        assert value >= schema["minimum"], f"{path}: {value} < {schema['minimum']}"
    if "maximum" in schema:
        assert value <= schema["maximum"], f"{path}: {value} > {schema['maximum']}"
    if "maxLength" in schema:
        assert len(value) <= schema["maxLength"], f"{path}: longer than {schema['maxLength']}"
    if kind == "object":
        props = schema.get("properties", {})
        for key in schema.get("required", []):
            assert key in value, f"{path}: missing {key!r}"
        if schema.get("additionalProperties") is False:
            assert set(value) <= set(props), f"{path}: unexpected keys {set(value) - set(props)}"
        for key, item in value.items():
            if key in props:
                _validate(item, props[key], f"{path}.{key}")


def test_validator_rejects_what_it_should():
    schema = stackmask.tool_call_schema(tool_calling.TOOLS)
    _validate({"name": "get_time", "arguments": {}}, schema)
    for bad in [
        {"name": "get_time"},
        {"name": "nope", "arguments": {}},
        {"name": "get_weather", "arguments": {"city": "Oslo", "unit": "kelvin"}},
        {"name": "search_files", "arguments": {"query": "x"}},
        {"name": "search_web", "arguments": {"query": "x", "max_results": 11}},
        {"name": "get_time", "arguments": {"x": 1}},
    ]:
        with pytest.raises(AssertionError):
            _validate(bad, schema)


def test_tool_call_schema_shape():
    schema = stackmask.tool_call_schema(tool_calling.TOOLS)
    assert [c["properties"]["name"]["const"] for c in schema["oneOf"]] == [
        "get_weather", "search_web", "search_files", "get_time"]
    with pytest.raises(ValueError, match="at least one"):
        stackmask.tool_call_schema([])
    with pytest.raises(ValueError, match="two tools"):
        stackmask.tool_call_schema([{"name": "a"}, {"name": "a"}])
    with pytest.raises(ValueError, match="name"):
        stackmask.tool_call_schema([{"description": "no name"}])


@pytest.fixture(scope="module")
def tools_grammar(qwen):
    return tool_calling.compile_tools(qwen)


def test_generated_tool_calls_parse_and_validate(qwen, tools_grammar):
    schema = stackmask.tool_call_schema(tool_calling.TOOLS)
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    names = set()
    for seed in range(12):
        text = tool_calling.generate_call(stackmask.Matcher(tools_grammar), qwen, np.random.default_rng(seed))
        call = json.loads(text)
        _validate(call, schema)
        if jsonschema is not None:
            jsonschema.validate(call, schema)
        names.add(call["name"])
    assert len(names) >= 2, f"the stand-in model always called {names}"


def test_tool_call_masks_equal_oracle(qwen, tools_grammar):
    """Teacher-force calls of the overlapping tools; every mask equals the oracle's."""
    for call in [
        {"name": "search_files", "arguments": {"query": "a b", "recursive": True}},
        {"name": "search_web", "arguments": {"query": "q", "max_results": 3}},
        {"name": "get_time", "arguments": {}},
    ]:
        text = json.dumps(call, separators=(",", ":"))  # the example's grammar is compact
        matcher = stackmask.Matcher(tools_grammar)
        for token in qwen.encode(text):
            assert_mask_is_reference(matcher, text)
            matcher.consume_token(token)
        assert_mask_is_reference(matcher, text)
        assert matcher.is_accepting()
