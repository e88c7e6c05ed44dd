//! Schema semantics checked by recognizing JSON texts with the compiled grammar.

use super::*;
use crate::matcher::Recognizer;
use crate::CompiledGrammar;
use std::sync::Arc;

fn grammar(schema: &str) -> Arc<CompiledGrammar> {
    let g = Grammar::from_json_schema(schema).unwrap_or_else(|e| panic!("{schema}: {e}"));
    Arc::new(CompiledGrammar::new(&g).unwrap())
}

fn accepts(compiled: &Arc<CompiledGrammar>, text: &str) -> bool {
    let mut r = Recognizer::new(Arc::clone(compiled));
    r.feed(text.as_bytes()).is_ok() && r.is_complete().unwrap()
}

fn check(schema: &str, cases: &[(&str, bool)]) {
    let g = grammar(schema);
    for (text, valid) in cases {
        assert_eq!(accepts(&g, text), *valid, "schema {schema}\ninstance {text}");
    }
}

#[test]
fn objects_follow_declared_order_required_and_additional_properties() {
    let schema = r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["b"], "additionalProperties": false}"#;
    check(schema, &[
        (r#"{"a": 1, "b": "x"}"#, true),
        (r#"{"b": "x"}"#, true),
        (r#"{"a": 1}"#, false),
        (r#"{"b": "x", "c": 1}"#, false),
        (r#"{}"#, false),
        (r#"{"a":1,"b":"x"}"#, true),
    ]);
    let open = r#"{"properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "boolean"}}"#;
    check(open, &[
        (r#"{"a": 1, "z": true}"#, true),
        (r#"{"z": true}"#, true),
        (r#"{"z": 1}"#, false),
        (r#"{"a": true}"#, false),
        (r#"5"#, true),
    ]);
}

/// The most GSS levels below any head of `r`'s parse.
fn stack_depth(r: &Recognizer) -> usize {
    let parser = r.parser();
    let mut deepest = 0;
    let mut pending: Vec<_> = parser.heads().map(|h| (h, 1)).collect();
    let mut seen = std::collections::HashSet::new();
    while let Some((node, depth)) = pending.pop() {
        deepest = deepest.max(depth);
        pending.extend(parser.node_parents(node).filter(|&p| seen.insert((p, depth + 1))).map(|p| (p, depth + 1)));
    }
    deepest
}

#[test]
fn large_objects_keep_the_declared_or_required_first_order() {
    let properties: Vec<String> = (0..12).map(|i| format!(r#""p{i}": {{"type": "integer"}}"#)).collect();
    let schema = format!(
        r#"{{"type": "object", "properties": {{{}}}, "required": ["p3", "p7"], "additionalProperties": {{"type": "boolean"}}}}"#,
        properties.join(", ")
    );
    let all: Vec<String> = (0..12).map(|i| format!(r#""p{i}": {i}"#)).collect();
    let all = format!("{{{}}}", all.join(", "));
    check(&schema, &[
        (all.as_str(), true),
        (r#"{"p3": 1, "p7": 1}"#, true),
        (r#"{"p0": 1, "p3": 1, "p5": 1, "p7": 1, "p11": 1}"#, true),
        (r#"{"p3": 1, "p7": 1, "p0": 1}"#, true),
        (r#"{"p3": 1, "p7": 1, "z": true, "y": false}"#, true),
        (r#"{"p7": 1, "p3": 1}"#, false),
        (r#"{"p0": 1, "p3": 1}"#, false),
        (r#"{"p3": 1, "p3": 1, "p7": 1}"#, false),
        (r#"{"z": true, "p3": 1, "p7": 1}"#, false),
        (r#"{"p3": 1, "p7": 1, "z": 1}"#, false),
        (r#"{"p3": 1, "p7": 1,}"#, false),
        (r#"{}"#, false),
    ]);
    let optional = r#"{"type": "object", "properties": {"a": {}, "b": {}, "c": {}, "d": {}, "e": {}, "f": {}, "g": {}, "h": {}, "i": {}}, "additionalProperties": false}"#;
    check(optional, &[(r#"{}"#, true), (r#"{"i": 1}"#, true), (r#"{"a": 1, "i": 2}"#, true), (r#"{"i": 1, "a": 2}"#, false)]);
}

#[test]
fn a_parse_of_a_wide_object_holds_a_few_states_however_many_members_are_written() {
    let properties: Vec<String> = (0..150).map(|i| format!(r#""p{i}": {{"type": ["integer", "null"]}}"#)).collect();
    let g = grammar(&format!(r#"{{"type": "object", "properties": {{{}}}}}"#, properties.join(", ")));
    let mut r = Recognizer::new(Arc::clone(&g));
    r.feed(b"{").unwrap();
    let mut depths = Vec::new();
    for i in (0..150).step_by(3) {
        let comma = if i == 0 { "" } else { ", " };
        r.feed(format!(r#"{comma}"p{i}": null"#).as_bytes()).unwrap();
        depths.push(stack_depth(&r));
    }
    assert!(depths.iter().all(|&d| d <= depths[0] + 2), "GSS depth grows with the members written: {depths:?}");
    r.feed(b"}").unwrap();
    assert!(r.is_complete().unwrap());
}

#[test]
fn pattern_properties_and_property_names() {
    let schema = r#"{"type": "object", "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": false}"#;
    check(schema, &[(r#"{"x-a": 1}"#, true), (r#"{"x-a": "s"}"#, false), (r#"{"y": 1}"#, false)]);
    let names = r#"{"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}"#;
    check(names, &[(r#"{"abc": 1}"#, true), (r#"{"aBc": 1}"#, false)]);
}

/// In an `allOf`, each branch's `additionalProperties` covers what that branch does
/// not claim, whatever the other branch claims.
#[test]
fn additional_properties_in_all_of_apply_to_what_their_own_branch_leaves() {
    // The other branch's pattern does not lift `additionalProperties: false`.
    let closed = r#"{"allOf": [{"type": "object", "additionalProperties": false, "properties": {"a": {}}},
        {"patternProperties": {"^z": {"type": "integer"}}}]}"#;
    check(closed, &[(r#"{"a": 1}"#, true), (r#"{"zz": 1}"#, false), ("{}", true)]);
    let typed = r#"{"allOf": [{"type": "object", "additionalProperties": {"type": "integer"}},
        {"patternProperties": {"^z": {"minimum": 5}}}]}"#;
    check(typed, &[(r#"{"zz": 7}"#, true), (r#"{"zz": 7.5}"#, false), (r#"{"zz": 3}"#, false), (r#"{"b": 3}"#, true)]);
    // A name the other branch declares is covered by this branch's pattern when it
    // matches one, and by its `additionalProperties` otherwise.
    let patterned = r#"{"allOf": [{"type": "object", "patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false},
        {"properties": {"x-id": {"minLength": 2}, "other": {}}}]}"#;
    check(patterned, &[(r#"{"x-id": "ab"}"#, true), (r#"{"x-id": "a"}"#, false), (r#"{"x-id": 1}"#, false), (r#"{"other": 1}"#, false)]);
    // A name one branch only requires stays under both branches' `additionalProperties`.
    let required_only = r#"{"allOf": [{"type": "object", "properties": {"c": {}}, "additionalProperties": {"type": "string"}},
        {"type": "object", "required": ["a"], "additionalProperties": {"minLength": 2}}]}"#;
    check(required_only, &[(r#"{"a": "bc"}"#, true), (r#"{"a": "b"}"#, false), (r#"{"a": 1}"#, false), (r#"{"a": "bc", "c": 1}"#, true)]);
    // Patterns on both sides beside `additionalProperties`: an error, not a guess.
    let both = r#"{"allOf": [{"patternProperties": {"^a": {}}, "additionalProperties": false}, {"patternProperties": {"^b": {}}}]}"#;
    let err = Grammar::from_json_schema(both).unwrap_err();
    assert!(err.to_string().contains("allOf combines additionalProperties"), "{err}");
}

#[test]
fn a_key_matching_several_patterns_meets_all_their_schemas() {
    // `a` matches both patterns; `b` only `.*`.
    let nested = r#"{"type": "object", "patternProperties": {"a": {"type": "number"}, ".*": {"type": "number"}}}"#;
    check(nested, &[(r#"{"a": 1}"#, true), (r#"{"b": 1}"#, true), (r#"{"ab": 1, "b": 2}"#, true), (r#"{"a": "x"}"#, false)]);
    let crossing = r#"{"type": "object", "patternProperties": {"^a": {"type": "integer"}, "b$": {"minimum": 5}},
        "additionalProperties": false}"#;
    check(crossing, &[
        (r#"{"ab": 7}"#, true),
        (r#"{"ab": 3}"#, false),
        (r#"{"ab": 7.5}"#, false),
        (r#"{"a": 3}"#, true),
        (r#"{"b": 3}"#, false),
        (r#"{"b": "x"}"#, true),
        (r#"{"c": 1}"#, false),
    ]);
    // Schemas that no value meets together forbid the keys that match both.
    let clashing = r#"{"patternProperties": {"^x": {"type": "string"}, "y$": {"type": "integer"}}}"#;
    check(clashing, &[(r#"{"xa": "s"}"#, true), (r#"{"ay": 1}"#, true), (r#"{"xy": "s"}"#, false), (r#"{"xy": 1}"#, false)]);
    // Nine letters, each a pattern a key may contain: 511 sets of them meet.
    let letters: Vec<String> = ('a'..='i').map(|c| format!(r#""{c}": {{"type": "integer"}}"#)).collect();
    let every_set = format!(r#"{{"patternProperties": {{{}}}}}"#, letters.join(", "));
    let err = Grammar::from_json_schema(&every_set).unwrap_err().to_string();
    assert!(err.contains("#: patternProperties overlap in more than 256 ways"), "{err}");
}

#[test]
fn arrays_with_counts_and_tuples() {
    check(r#"{"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3}"#, &[
        ("[]", false),
        ("[1]", true),
        ("[1, 2, 3]", true),
        ("[1, 2, 3, 4]", false),
        (r#"[1, "a"]"#, false),
    ]);
    check(r#"{"type": "array", "items": [{"type": "integer"}, {"type": "string"}], "additionalItems": false}"#, &[
        (r#"[1, "a"]"#, true),
        ("[1]", true),
        (r#"[1, "a", 2]"#, false),
    ]);
    check(r#"{"type": "array", "minItems": 2}"#, &[("[1]", false), (r#"[1, {"a": [null]}]"#, true), (r#"[1, 2, 3, 4]"#, true)]);
    let tuple_then_rest = r#"{"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": {"type": "boolean"}, "minItems": 1}"#;
    check(tuple_then_rest, &[
        ("[]", false),
        ("[1]", true),
        (r#"[1, "a"]"#, true),
        (r#"[1, "a", true, false]"#, true),
        (r#"[1, "a", 2]"#, false),
        (r#"["a"]"#, false),
    ]);
    check(r#"{"type": "array", "maxItems": 0}"#, &[("[]", true), ("[1]", false)]);
    check(r#"{"type": "array", "items": {"type": "null"}, "minItems": 3, "maxItems": 4}"#, &[
        ("[null, null]", false),
        ("[null, null, null]", true),
        ("[null, null, null, null]", true),
        ("[null, null, null, null, null]", false),
    ]);
}

/// Feeds `[0, 1, …, 149]` to `schema`'s grammar: the GSS must stay about as deep as
/// after the first element, and the array must be complete.
fn assert_a_long_array_holds_a_few_states(schema: &str) {
    let g = grammar(schema);
    let mut r = Recognizer::new(Arc::clone(&g));
    r.feed(b"[0").unwrap();
    let mut depths = Vec::new();
    for i in 1..150 {
        r.feed(format!(", {i}").as_bytes()).unwrap();
        depths.push(stack_depth(&r));
    }
    assert!(depths.iter().all(|&d| d <= depths[0] + 2), "{schema}: GSS depth grows with the elements written: {depths:?}");
    r.feed(b"]").unwrap();
    assert!(r.is_complete().unwrap(), "{schema}");
}

#[test]
fn a_parse_of_a_long_bounded_array_holds_a_few_states_however_many_elements_are_written() {
    assert_a_long_array_holds_a_few_states(r#"{"type": "array", "items": {"type": "integer"}, "maxItems": 200}"#);
}

#[test]
fn a_parse_of_a_long_array_with_contains_holds_a_few_states_however_many_elements_are_written() {
    for schema in [
        r#"{"type": "array", "items": {"type": "integer"}, "contains": {"const": 7}}"#,
        r#"{"type": "array", "items": {"type": "integer"}, "contains": {"const": 7}, "maxItems": 200}"#,
        r#"{"type": "array", "allOf": [{"contains": {"const": 7}}, {"contains": {"const": 8}}]}"#,
    ] {
        assert_a_long_array_holds_a_few_states(schema);
    }
}

#[test]
fn numbers_with_bounds_and_multiples() {
    check(r#"{"type": "integer", "minimum": 1, "exclusiveMaximum": 100}"#, &[
        ("0", false),
        ("1", true),
        ("99", true),
        ("100", false),
        ("1.5", false),
    ]);
    check(r#"{"type": "number", "minimum": -1.5, "maximum": 2.25}"#, &[
        ("-1.5", true),
        ("-1.51", false),
        ("2.25", true),
        ("2.250", true),
        ("2.26", false),
        ("0", true),
    ]);
    check(r#"{"type": "integer", "multipleOf": 5}"#, &[("15", true), ("0", true), ("12", false), ("-25", true)]);
    check(r#"{"type": "number", "multipleOf": 0.01}"#, &[("1.25", true), ("1.255", false), ("3", true)]);
    check(r#"{"type": "number"}"#, &[("1e5", true), ("-0.5E-3", true), ("01", false)]);
}

#[test]
fn strings_with_patterns_formats_lengths_and_escapes() {
    check(r#"{"type": "string", "pattern": "^[a-z]+$", "maxLength": 3}"#, &[
        (r#""abc""#, true),
        (r#""abcd""#, false),
        (r#""ab1""#, false),
    ]);
    check(r#"{"type": "string", "format": "date"}"#, &[(r#""2024-02-29""#, true), (r#""2023-02-29""#, false)]);
    check(r#"{"type": "string", "minLength": 2}"#, &[(r#""é\"""#, true), (r#""é""#, false)]);
    check(r#"{"type": "string"}"#, &[(r#""a\u0041\/""#, true), ("\"a\nb\"", false)]);
}

#[test]
fn a_dollar_inside_a_pattern_ends_the_string() {
    // A path of names, each followed by `/` or by the end of the string.
    check(r#"{"type": "string", "pattern": "^(\\/?((\\.{2})|([a-z0-9\\-]*))($|\\/))*$"}"#, &[
        (r#""a/b""#, true),
        (r#""../x/""#, true),
        (r#""a//""#, true),
        (r#""""#, true),
        (r#""A""#, false),
        (r#""a b""#, false),
    ]);
    check(r#"{"type": "string", "pattern": "foo($|/bar)"}"#, &[
        (r#""xfoo""#, true),
        (r#""foo/barz""#, true),
        (r#""foox""#, false),
        (r#""foo/""#, false),
    ]);
    // Nothing is read after a `$`.
    check(r#"{"type": "string", "pattern": "^$[a-z]*$"}"#, &[(r#""""#, true), (r#""a""#, false)]);
    check(r#"{"type": "string", "pattern": "(x$)?y"}"#, &[(r#""zy""#, true), (r#""x""#, false), (r#""xyz""#, true)]);
    check(r#"{"type": ["string", "null"], "pattern": "a$b"}"#, &[(r#""ab""#, false), (r#""a""#, false), ("null", true)]);
    check(r#"{"type": "string", "pattern": "^(a|b$){2,3}"}"#, &[(r#""ab""#, true), (r#""aab""#, true), (r#""aaa""#, true), (r#""aaaz""#, true), (r#""abz""#, false), (r#""b""#, false)]);
}

#[test]
fn not_of_arrays_and_objects_is_every_way_to_differ() {
    check(r#"{"not": {"enum": [["deleted"]]}}"#, &[
        (r#"["deleted"]"#, false),
        (r#"["x"]"#, true),
        ("[]", true),
        (r#"["deleted", "x"]"#, true),
        (r#""deleted""#, true),
        (r#"{"a": 1}"#, true),
    ]);
    check(r#"{"type": "object", "not": {"const": {"a": 1, "b": [2]}}}"#, &[
        (r#"{"a": 1, "b": [2]}"#, false),
        (r#"{"b": [2], "a": 1}"#, false),
        (r#"{"a": 1.0, "b": [2.0]}"#, false),
        (r#"{"a": 1}"#, true),
        (r#"{"a": 1, "b": [2], "c": 0}"#, true),
        (r#"{"a": 2, "b": [2]}"#, true),
        (r#"{"a": 1, "b": [2, 3]}"#, true),
        ("{}", true),
    ]);
    check(r#"{"not": {"enum": [[], {}, 3]}}"#, &[("[]", false), ("{}", false), ("3", false), ("[[]]", true), (r#"{"a": {}}"#, true), ("4", true)]);
    // A oneOf narrowed by a composite enum: a value in both branches is in neither.
    let one_of = r#"{"oneOf": [{"enum": [["deleted"]]}, {"type": "array", "items": {"enum": ["deleted", "size"]}, "minItems": 1}]}"#;
    check(one_of, &[(r#"["deleted"]"#, false), (r#"["size"]"#, true), (r#"["deleted", "size"]"#, true), ("[]", false)]);
}

#[test]
fn enums_consts_and_not() {
    check(r#"{"enum": ["a", 1, null, {"k": [true]}]}"#, &[
        (r#""a""#, true),
        ("1", true),
        ("1.0", true),
        ("null", true),
        (r#"{"k": [true]}"#, true),
        (r#""b""#, false),
        ("2", false),
    ]);
    check(r#"{"type": "string", "not": {"enum": ["x", "y"]}}"#, &[(r#""x""#, false), (r#""xy""#, true)]);
    check(r#"{"not": {"type": "string"}}"#, &[(r#""x""#, false), ("1", true)]);
    check(r#"{"type": "string", "enum": ["ab", "abc"], "maxLength": 2}"#, &[(r#""ab""#, true), (r#""abc""#, false)]);
}

#[test]
fn combinators_refs_and_recursion() {
    let tree = r##"{"$ref": "#/$defs/node", "$defs": {"node": {"type": "object",
        "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
        "required": ["v"], "additionalProperties": false}}}"##;
    check(tree, &[(r#"{"v": 1, "kids": [{"v": 2, "kids": []}, {"v": 3}]}"#, true), (r#"{"v": 1, "kids": [{}]}"#, false)]);
    let all_of = r#"{"allOf": [{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
        {"properties": {"b": {"type": "string"}}, "required": ["b"]}]}"#;
    check(all_of, &[(r#"{"a": 1, "b": "x"}"#, true), (r#"{"a": 1}"#, false)]);
    // One branch's `additionalProperties: false` forbids the properties only the other
    // declares, whichever side of the `allOf` each is on.
    let closed = r#"{"properties": {"a": {"type": "integer"}}, "additionalProperties": false}"#;
    let open = r#"{"properties": {"b": {"type": "string"}}}"#;
    for (first, second) in [(closed, open), (open, closed)] {
        let all_of = format!(r#"{{"allOf": [{first}, {second}]}}"#);
        check(&all_of, &[(r#"{"a": 1}"#, true), (r#"{"a": 1, "b": "x"}"#, false), (r#"{"b": "x"}"#, false)]);
    }
    check(r#"{"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 1}]}"#, &[("1", true), (r#""a""#, true), (r#""ab""#, false)]);
}

#[test]
fn ref_siblings_follow_the_draft() {
    let draft7 = r##"{"$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"s": {"type": "string"}}, "$ref": "#/definitions/s", "maxLength": 1}"##;
    check(draft7, &[(r#""abc""#, true)]);
    let draft2020 = r##"{"$defs": {"s": {"type": "string"}}, "$ref": "#/$defs/s", "maxLength": 1}"##;
    check(draft2020, &[(r#""abc""#, false), (r#""a""#, true)]);
}

#[test]
fn one_of_is_exact_when_branches_are_disjoint() {
    let tagged = r#"{"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "a"}, "x": {"type": "integer"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"const": "b"}, "y": {"type": "string"}}, "required": ["kind"]}]}"#;
    check(tagged, &[(r#"{"kind": "a", "x": 1}"#, true), (r#"{"kind": "b", "y": "s"}"#, true), (r#"{"kind": "c"}"#, false)]);
    check(r#"{"oneOf": [{"type": "string"}, {"type": "null"}]}"#, &[("null", true), (r#""s""#, true), ("1", false)]);
    // Apart by a required member's value: a string in one, `false` in the other; and by
    // member counts: two required names against at most one member.
    let by_member = r#"{"oneOf": [
        {"type": "object", "properties": {"type": {"enum": ["git", "svn"]}, "url": {"type": "string"}}, "required": ["type", "url"]},
        {"type": "object", "additionalProperties": {"const": false}, "minProperties": 1, "maxProperties": 1}]}"#;
    check(by_member, &[
        (r#"{"type": "git", "url": "u"}"#, true),
        (r#"{"packagist.org": false}"#, true),
        (r#"{"type": false}"#, true),
        (r#"{"type": "git"}"#, false),
        (r#"{"a": false, "b": false}"#, false),
    ]);
    let by_count = r#"{"oneOf": [
        {"type": "object", "required": ["a", "b", "a"]},
        {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}, "maxProperties": 1}]}"#;
    check(by_count, &[(r#"{"a": 1, "b": 2}"#, true), (r#"{"a": 1}"#, true), (r#"{"b": -1}"#, false), ("{}", true)]);
    // Multiples of 10 match both branches, so neither takes them; non-numbers match both.
    check(r#"{"oneOf": [{"multipleOf": 2}, {"multipleOf": 5}]}"#, &[
        ("4", true),
        ("5", true),
        ("4.0", true),
        ("10", false),
        ("3", false),
        (r#""s""#, false),
    ]);
    // A tuple's failures have no schema here: narrowing by it is an error.
    let overlapping = r#"{"oneOf": [{"prefixItems": [{"type": "integer"}]}, {"items": {"type": "integer"}}]}"#;
    let err = Grammar::from_json_schema(overlapping).unwrap_err();
    assert!(err.to_string().contains("#/oneOf") && err.to_string().contains("exactly-one"), "{err}");
}

#[test]
fn unsupported_keywords_and_bad_schemas_are_errors_with_a_pointer() {
    for (schema, expected) in [
        (r#"{"properties": {"a": {"uniqueItems": true, "type": "array"}}}"#, "#/properties/a: `uniqueItems`"),
        (r#"{"type": "string", "format": "regex"}"#, "format \"regex\" is not supported"),
        (r#"{"type": "strin"}"#, "unknown type"),
        (r##"{"$ref": "#/nowhere"}"##, "points to nothing"),
        (r#"{"$ref": "http://example.com/s.json"}"#, "not a reference inside this document"),
        (r#"{"type": "string", "pattern": "(?=a)"}"#, "pattern"),
        ("{", "not valid JSON"),
        ("[1]", "must be an object or a boolean"),
    ] {
        let err = Grammar::from_json_schema(schema).unwrap_err().to_string();
        assert!(err.contains(expected), "{schema}: {err}");
    }
    assert!(matches!(Grammar::from_json_schema("false"), Err(Error::EmptyLanguage { .. })));
}

#[test]
fn counts_beyond_what_the_engine_holds_are_errors() {
    // Read as a rounded bound, `not` of a huge maxLength had accepted every string, and
    // a maxLength past 32 bits had failed as an invalid regex.
    for (schema, keyword) in [
        (r#"{"not": {"maxLength": 100000000000000000000}}"#, "maxLength"),
        (r#"{"not": {"maxItems": 100000000000000000000}}"#, "maxItems"),
        (r#"{"type": "string", "maxLength": 5000000000}"#, "maxLength"),
        (r#"{"type": "string", "minLength": 4294967295}"#, "minLength"),
        (r#"{"type": "object", "maxProperties": 1e30}"#, "maxProperties"),
    ] {
        let err = Grammar::from_json_schema(schema).unwrap_err();
        assert!(matches!(err, Error::Schema { .. }), "{schema}: {err}");
        assert!(err.to_string().contains(&format!("{keyword} ")) && err.to_string().contains("larger than"), "{schema}: {err}");
    }
    check(r#"{"type": "string", "maxLength": 4294967294}"#, &[(r#""abc""#, true), ("1", false)]);
}

#[test]
fn narrowed_one_of_branches_are_held_to_the_alternatives_limit() {
    // Each branch is narrowed by the complement of every other, a union of a dozen
    // cases each: the narrowed branch multiplies, one small product at a time.
    const TYPES: [&str; 3] = ["integer", "string", "boolean"];
    let branch = |i: usize| {
        let properties: serde_json::Map<String, Value> =
            (0..6).map(|k| (format!("p{i}{k}"), serde_json::json!({ "type": TYPES[k % 3] }))).collect();
        let required: Vec<&String> = properties.keys().take(3).collect();
        serde_json::json!({"type": "object", "properties": properties, "required": required})
    };
    let schema = serde_json::json!({"oneOf": (0..5).map(branch).collect::<Vec<_>>()}).to_string();
    let err = Grammar::from_json_schema(&schema).unwrap_err().to_string();
    assert!(err.contains("#/oneOf") && err.contains("alternatives, more than the limit"), "{err}");
    // Two branches stay within it, and exactly one must match.
    let two = serde_json::json!({"oneOf": (0..2).map(branch).collect::<Vec<_>>()}).to_string();
    check(&two, &[
        (r#"{"p00": 1, "p01": "a", "p02": true}"#, true),
        (r#"{"p00": 1, "p01": "a", "p02": true, "p10": 1, "p11": "a", "p12": true}"#, false),
        (r#"{"p00": 1, "p01": "a"}"#, false),
    ]);
}

#[test]
fn compact_whitespace_admits_no_spaces() {
    let options = JsonSchemaOptions { whitespace: Whitespace::Compact, ..JsonSchemaOptions::default() };
    let g = Arc::new(CompiledGrammar::new(&Grammar::from_json_schema_with(r#"{"type": "array"}"#, &options).unwrap()).unwrap());
    assert!(accepts(&g, "[1,2]"));
    assert!(!accepts(&g, "[1, 2]"));
}

#[test]
fn one_of_required_lists_mean_exactly_one_of_the_properties() {
    let schema = r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}"#;
    check(schema, &[
        (r#"{"a": 1}"#, true),
        (r#"{"b": 2}"#, true),
        (r#"{"a": 1, "b": 2}"#, false),
        (r#"{}"#, false),
    ]);
    // Without a type, a non-object satisfies both branches, so no non-object is valid.
    check(r#"{"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}"#, &[("1", false), (r#"{"a": 1, "c": 2}"#, true)]);
}

#[test]
fn double_negation_and_unknown_keywords_in_all_of() {
    check(r#"{"not": {"not": {"type": "integer"}}}"#, &[("1", true), (r#""a""#, false)]);
    check(r#"{"allOf": [{"x-doc": "a", "type": "integer"}, {"x-doc": "b", "minimum": 2}]}"#, &[("2", true), ("1", false)]);
}

#[test]
fn dependencies_in_both_forms() {
    let schema = r#"{"type": "object", "properties": {"a": {}, "b": {}, "c": {"type": "integer"}},
        "dependencies": {"a": ["b"], "b": {"required": ["c"]}}}"#;
    check(schema, &[
        (r#"{}"#, true),
        (r#"{"c": 1}"#, true),
        (r#"{"a": 1}"#, false),
        (r#"{"a": 1, "b": 2}"#, false),
        (r#"{"a": 1, "b": 2, "c": 3}"#, true),
        (r#"{"b": 2, "c": 3}"#, true),
    ]);
    check(r#"{"dependentRequired": {"a": ["b"]}}"#, &[("1", true), (r#"{"a": 1, "b": 2}"#, true), (r#"{"a": 1}"#, false)]);
}

#[test]
fn if_then_else_on_a_discriminator() {
    let schema = r#"{"type": "object", "properties": {"kind": {"type": "string"}, "n": {}},
        "if": {"properties": {"kind": {"const": "num"}}, "required": ["kind"]},
        "then": {"properties": {"n": {"type": "integer"}}},
        "else": {"properties": {"n": {"type": "string"}}}}"#;
    check(schema, &[
        (r#"{"kind": "num", "n": 1}"#, true),
        (r#"{"kind": "num", "n": "x"}"#, false),
        (r#"{"kind": "str", "n": "x"}"#, true),
        (r#"{"kind": "str", "n": 1}"#, false),
        (r#"{"n": "x"}"#, true),
        (r#"{"n": 1}"#, false),
    ]);
    check(r#"{"if": {"minimum": 3}, "then": {"type": "integer"}}"#, &[("4", true), ("4.5", false), ("2.5", true), (r#""s""#, false)]);
    // A string meets the condition (a number keyword), so it must meet `then`.
    check(r#"{"if": {"multipleOf": 2}, "then": {"type": "integer"}}"#, &[("4", true), ("4.5", true), (r#""s""#, false)]);
    let err = Grammar::from_json_schema(r#"{"if": {"prefixItems": [{"type": "integer"}]}, "then": {"maxItems": 1}}"#).unwrap_err();
    assert!(err.to_string().contains("#/if"), "{err}");
}

#[test]
fn not_of_null_boolean_and_integer_values() {
    check(r#"{"type": ["integer", "boolean", "null"], "not": {"enum": [0, false, null]}}"#, &[
        ("0", false),
        ("-0", false),
        ("1", true),
        ("true", true),
        ("false", false),
        ("null", false),
    ]);
    check(r#"{"type": "number", "not": {"const": 1}}"#, &[("1", false), ("1.00", false), ("1e0", false), ("1.5", true), ("2", true)]);
}

#[test]
fn not_of_fractional_values() {
    check(r#"{"type": "number", "not": {"enum": [1.5, 2.0, -0.25]}}"#, &[
        ("1.5", false),
        ("1.50", false),
        ("15e-1", false),
        ("2", false),
        ("2.00", false),
        ("-0.25", false),
        ("0.25", true),
        ("1.25", true),
        ("1.05", true),
        ("3", true),
    ]);
}

#[test]
fn not_of_arrays_and_objects_beside_an_enum() {
    check(r#"{"allOf": [{"enum": [{"foo": false}, {"foo": 12}, [1]]}, {"not": {"enum": [6, {"foo": 12.0}, [1.0]]}}]}"#, &[
        (r#"{"foo": false}"#, true),
        (r#"{"foo": 12}"#, false),
        ("[1]", false),
    ]);
    // Alone, as every way to differ (`not_of_arrays_and_objects_is_every_way_to_differ`).
    check(r#"{"type": "array", "not": {"enum": [[1]]}}"#, &[("[1]", false), ("[1.0]", false), ("[2]", true), ("[1, 1]", true)]);
    // Tiny and huge floats compare in plain notation (serde writes `1e-7`).
    check(r#"{"enum": [1e-7, 2e-7], "not": {"const": 1e-7}}"#, &[("0.0000001", false), ("0.0000002", true)]);
    check(r#"{"enum": [1e-7], "minimum": 0}"#, &[("0.0000001", true), ("0.00000010", true)]);
}

/// Values compare as JSON Schema compares them, not as their spellings: `1` is `1.0`.
#[test]
fn enum_values_are_equal_by_value() {
    check(r#"{"allOf": [{"enum": [1.0]}, {"not": {"not": {"const": 1}}}]}"#, &[("1", true), ("1.0", true), ("2", false)]);
    check(r#"{"allOf": [{"const": 9007199254740992}, {"const": 9007199254740992.0}]}"#, &[("9007199254740992", true)]);
    let apart = Grammar::from_json_schema(r#"{"allOf": [{"const": 9007199254740993}, {"const": 9007199254740992.0}]}"#);
    assert!(apart.unwrap_err().to_string().contains("no sentences"));
    // Branches sharing a value by value are not disjoint: the shared value is in neither.
    check(r#"{"oneOf": [{"enum": [1, 2]}, {"enum": [1.0, 3]}]}"#, &[("1", false), ("1.0", false), ("2", true), ("3", true)]);
    // Objects and arrays shared by value: not disjoint (`{"k": [1, 2]}` was once
    // accepted), so each branch is narrowed by the other's values: the shared one is in
    // neither.
    check(r#"{"oneOf": [{"enum": ["a", {"k": [1, 2]}]}, {"enum": ["b", {"k": [1.0, 2.0]}]}]}"#, &[
        (r#""a""#, true),
        (r#""b""#, true),
        (r#"{"k": [1, 2]}"#, false),
        (r#"{"k": [1.0, 2.0]}"#, false),
    ]);
    check(r#"{"oneOf": [{"enum": ["a", {"k": [1, 2]}]}, {"enum": ["b", {"k": [1.5, 2]}]}]}"#, &[
        (r#""a""#, true),
        (r#"{"k": [1, 2]}"#, true),
        (r#"{"k": [1.5, 2]}"#, true),
    ]);
}

#[test]
fn properties_in_any_order_each_at_most_once() {
    let schema = r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "string"}, "c": {}},
        "required": ["b"], "additionalProperties": {"type": "boolean"}}"#;
    check(schema, &[
        (r#"{"b": "x", "a": 1}"#, true),
        (r#"{"c": null, "b": "x", "a": 1}"#, true),
        (r#"{"z": true, "b": "x", "y": false, "a": 1, "w": true}"#, true),
        (r#"{"z": true, "b": "x"}"#, true),
        // A property twice, a required one missing, an undeclared one of the wrong type.
        (r#"{"a": 1, "b": "x", "a": 2}"#, false),
        (r#"{"b": "x", "b": "y"}"#, false),
        (r#"{"a": 1, "z": true}"#, false),
        (r#"{"z": 1, "b": "x"}"#, false),
        (r#"{"b": 1, "a": 1}"#, false),
    ]);
    // Past the limit, objects keep the declared or required-first orders.
    let options = JsonSchemaOptions { max_any_order_properties: 2, ..JsonSchemaOptions::default() };
    let g = Arc::new(CompiledGrammar::new(&Grammar::from_json_schema_with(schema, &options).unwrap()).unwrap());
    assert!(accepts(&g, r#"{"a": 1, "b": "x", "c": null}"#));
    assert!(accepts(&g, r#"{"b": "x", "a": 1}"#));
    assert!(!accepts(&g, r#"{"c": null, "b": "x"}"#));
}

#[test]
fn contains_needs_one_witness_among_the_items() {
    check(r#"{"type": "array", "contains": {"type": "integer"}}"#, &[
        ("[]", false),
        (r#"["a"]"#, false),
        ("[1]", true),
        (r#"["a", 1]"#, true),
        (r#"[1, "a", 2]"#, true),
        (r#"["a", "b", "c", 4, "d"]"#, true),
    ]);
    check(r#"{"items": {"type": "integer"}, "contains": {"minimum": 5}, "maxItems": 2, "type": "array"}"#, &[
        ("[5]", true),
        ("[1, 2]", false),
        ("[1, 7]", true),
        ("[1, 7, 9]", false),
        (r#"[7, "x"]"#, false),
    ]);
    check(r#"{"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "integer"}, "contains": {"type": "string"}}"#, &[
        (r#"["a"]"#, true),
        (r#"["a", 1, 2]"#, true),
        ("[1]", false),
        ("[]", false),
    ]);
    // Enum values are filtered by `contains` too.
    check(r#"{"enum": [[1], [2, 3]], "contains": {"const": 3}}"#, &[("[2, 3]", true), ("[1]", false)]);
}

#[test]
fn not_items_and_not_contains_are_complements() {
    check(r#"{"type": "array", "not": {"items": {"type": "integer"}}}"#, &[
        ("[]", false),
        ("[1, 2]", false),
        (r#"[1, "a"]"#, true),
        (r#"[null]"#, true),
    ]);
    check(r#"{"type": "array", "not": {"contains": {"const": 0}}}"#, &[
        ("[]", true),
        ("[1, 2]", true),
        ("[1, 0]", false),
    ]);
    // A complement's `items` reaches the elements of the other branch's `prefixItems`.
    check(r#"{"prefixItems": [true], "not": {"contains": {"const": 1}}}"#, &[("[1]", false), ("[2, 1]", false), ("[2, 3]", true)]);
    check(r#"{"allOf": [{"prefixItems": [true]}, {"items": {"const": 2}}]}"#, &[("[1]", false), ("[2, 2]", true)]);
}

#[test]
fn not_of_multiple_of_excludes_the_multiples_in_every_plain_spelling() {
    check(r#"{"type": "integer", "not": {"multipleOf": 2}}"#, &[("1", true), ("7", true), ("2", false), ("-4", false), ("0", false)]);
    check(r#"{"not": {"multipleOf": 0.1}}"#, &[
        ("0.15", true),
        ("0.1", false),
        ("1.50", false),
        ("-0", false),
        (r#""a""#, false),
        ("null", false),
    ]);
    // Failing either keyword: not a multiple, or below the minimum.
    check(r#"{"type": "number", "not": {"multipleOf": 5, "minimum": 10}}"#, &[
        ("7", true),
        ("5", true),
        ("12", true),
        ("15", false),
        ("20.0", false),
    ]);
    check(r#"{"enum": [5, 6], "not": {"multipleOf": 2}}"#, &[("5", true), ("6", false)]);
    // Multiples of 7 (a residue automaton), excluded in every plain spelling (and every
    // non-number, which meets `multipleOf`).
    check(r#"{"not": {"multipleOf": 7}}"#, &[("7", false), ("14.0", false), ("-21", false), ("0", false), ("8", true), ("7.5", true), (r#""a""#, false)]);
    check(r#"{"enum": [14, 15, "x"], "not": {"multipleOf": 7}}"#, &[("14", false), ("15", true), (r#""x""#, false)]);
    // Too many residues for an automaton: refused, naming the value.
    assert!(Grammar::from_json_schema(r#"{"not": {"multipleOf": 4099}}"#).unwrap_err().to_string().contains("multipleOf 4099"));
}

#[test]
fn multiples_beyond_twos_and_fives_are_residues() {
    check(r#"{"type": "integer", "multipleOf": 7}"#, &[("0", true), ("7", true), ("-49", true), ("1001", true), ("8", false), ("70.0", false)]);
    check(r#"{"type": "number", "multipleOf": 1.5}"#, &[("3", true), ("4.5", true), ("4.50", true), ("-1.5", true), ("1", false), ("0.75", false), ("3e0", false)]);
    check(r#"{"type": "number", "multipleOf": 0.3, "minimum": 0.5}"#, &[("0.6", true), ("0.3", false), ("0.9000", true), ("1", false)]);
    // An integer is a multiple of 1.5 when it is one of 3.
    check(r#"{"type": "integer", "multipleOf": 1.5}"#, &[("3", true), ("6", true), ("4", false)]);
    // allOf of 2, 3 and 5: multiples of 30.
    check(r#"{"allOf": [{"multipleOf": 2}, {"multipleOf": 3}, {"multipleOf": 5}]}"#, &[("30", true), ("60.0", true), ("15", false), ("10", false), ("null", true)]);
    // JSON-only validation judges values the same way.
    check(r#"{"anyOf": [{"multipleOf": 7}, {"multipleOf": 11}], "enum": [77, 22, 5]}"#, &[("77", true), ("22", true), ("5", false)]);
}

#[test]
fn each_contains_of_an_allof_needs_its_own_element() {
    check(r#"{"allOf": [{"contains": {"const": 1}}, {"contains": {"const": 2}}]}"#, &[
        ("[1, 2]", true),
        ("[2, 1]", true),
        ("[3, 1, 4, 2, 5]", true),
        ("[1]", false),
        ("[2, 2]", false),
        ("[]", false),
    ]);
    // One element may meet both.
    check(r#"{"allOf": [{"contains": {"minimum": 1}}, {"contains": {"maximum": 1}}]}"#, &[
        ("[1]", true),
        ("[0, 2]", true),
        ("[0]", false),
        ("[2, 3]", false),
    ]);
    // Within a bounded tuple.
    check(r#"{"prefixItems": [{"type": "integer"}], "items": {"type": "string"}, "maxItems": 2,
        "allOf": [{"contains": {"type": "integer"}}, {"contains": {"const": "x"}}]}"#, &[
        (r#"[1, "x"]"#, true),
        (r#"[1, "y"]"#, false),
        ("[1]", false),
        (r#"[1, "x", "x"]"#, false),
    ]);
    // `not` of an `allOf` of `contains`: arrays missing one of them.
    check(r#"{"type": "array", "not": {"allOf": [{"contains": {"const": 1}}, {"contains": {"const": 2}}]}}"#, &[
        ("[1, 2]", false),
        ("[1]", true),
        ("[2, 3]", true),
    ]);
}

#[test]
fn not_of_object_keywords_asks_for_some_member() {
    // Some key fails `propertyNames`.
    check(r#"{"type": "object", "not": {"propertyNames": {"pattern": "^a"}}}"#, &[
        ("{}", false),
        (r#"{"ab": 1}"#, false),
        (r#"{"b": 1}"#, true),
        (r#"{"ab": 1, "b": 2}"#, true),
        (r#"{"b": 1, "ab": 2}"#, true),
    ]);
    // Some key matching a pattern has a value failing its schema (declared keys: each
    // is written once).
    let declared_keys = r#"{"type": "object", "properties": {"x1": {}, "x2": {}, "y": {}}, "additionalProperties": false,
        "not": {"patternProperties": {"^x": {"type": "integer"}}}}"#;
    check(declared_keys, &[
        ("{}", false),
        (r#"{"x1": 1}"#, false),
        (r#"{"x1": "s"}"#, true),
        (r#"{"y": "s"}"#, false),
        (r#"{"y": "s", "x1": 1, "x2": null}"#, true),
    ]);
    // With undeclared keys the object is narrower: every member whose key matches fails
    // the schema, so that the last of a key written twice does.
    check(r#"{"type": "object", "not": {"patternProperties": {"^x": {"type": "integer"}}}}"#, &[
        (r#"{"x": "s"}"#, true),
        (r#"{"y": 1, "x": null}"#, true),
        (r#"{"x": 1}"#, false),
        (r#"{"x": "s", "x": 1}"#, false),
        (r#"{"y": "s"}"#, false),
        (r#"{"x1": "s", "x2": 1}"#, false),
    ]);
    // A key alone is there whichever value is kept.
    check(r#"{"type": "object", "not": {"propertyNames": {"pattern": "^a"}}}"#, &[(r#"{"b": 1, "b": 2}"#, true)]);
    // An undeclared key, or a declared one whose value fails.
    check(r#"{"type": "object", "not": {"properties": {"a": {"type": "integer"}}, "additionalProperties": false}}"#, &[
        ("{}", false),
        (r#"{"a": 1}"#, false),
        (r#"{"a": "s"}"#, true),
        (r#"{"b": 1}"#, true),
        (r#"{"a": 1, "b": 1}"#, true),
    ]);
    // A declared property can be the member asked for: its value then meets both schemas.
    let declared = r#"{"type": "object", "properties": {"x1": {"minimum": 5}}, "additionalProperties": false,
        "not": {"patternProperties": {"^x": {"maximum": 9}}}}"#;
    check(declared, &[(r#"{"x1": 12}"#, true), (r#"{"x1": 7}"#, false), ("{}", false), (r#"{"x2": 12}"#, false)]);
    // Two requirements, met by one member or by two.
    let two = r#"{"type": "object", "properties": {"a": {}, "b": {}, "ab": {}, "bb": {}}, "additionalProperties": false,
        "allOf": [{"not": {"propertyNames": {"maxLength": 1}}}, {"not": {"patternProperties": {"b": {"type": "string"}}}}]}"#;
    check(two, &[
        (r#"{"ab": 1}"#, true),
        (r#"{"ab": "s"}"#, false),
        (r#"{"a": "s", "bb": 2}"#, true),
        (r#"{"bb": 2, "a": "s"}"#, true),
        (r#"{"a": 1, "b": 2}"#, false),
    ]);
    // A key asked for in each of its spellings.
    check(r#"{"type": "object", "not": {"propertyNames": {"not": {"const": "\t"}}}}"#, &[
        (r#"{"\t": 1}"#, true),
        (r#"{"\u0009": 1}"#, true),
        (r#"{"t": 1}"#, false),
    ]);
    // Counts: `not` of minProperties and maxProperties.
    check(r#"{"type": "object", "not": {"minProperties": 2}}"#, &[("{}", true), (r#"{"a": 1}"#, true), (r#"{"a": 1, "b": 2}"#, false)]);
    check(r#"{"type": "object", "not": {"maxProperties": 0}}"#, &[("{}", false), (r#"{"a": 1}"#, true)]);
    // Enum values are filtered by the requirement too.
    check(r#"{"enum": [{"a": 1}, {"b": 1}], "not": {"propertyNames": {"const": "a"}}}"#, &[(r#"{"b": 1}"#, true), (r#"{"a": 1}"#, false)]);
    // `propertyNames: true` fails no object: the other keywords' failures remain.
    check(r#"{"type": "object", "not": {"propertyNames": true, "properties": {"a": {"type": "integer"}}}}"#, &[
        (r#"{"a": "s"}"#, true),
        (r#"{"a": 1}"#, false),
        ("{}", false),
    ]);
    // The compiler's keyword cannot be written in a document: it is dropped as unknown.
    check(r#"{"type": "object", "\u0000someMember": [{"keys": {"const": "a"}, "value": true}]}"#, &[("{}", true)]);
}

#[test]
fn property_names_apply_to_declared_keys_too() {
    check(r#"{"properties": {"a": {}, "bc": {}}, "propertyNames": {"pattern": "^b"}}"#, &[
        (r#"{"a": 1}"#, false),
        (r#"{"bc": 1}"#, true),
        (r#"{"bd": 1}"#, true),
        (r#"{"x": 1}"#, false),
    ]);
    // A required name that propertyNames rejects: no object at all.
    check(r#"{"type": ["object", "null"], "required": ["a"], "propertyNames": {"maxLength": 0}}"#, &[(r#"{"a": 1}"#, false), ("null", true)]);
    // An enum of names, through a $ref.
    let schema = r##"{"propertyNames": {"$ref": "#/$defs/d"}, "properties": {"N": {"type": "integer"}},
        "$defs": {"d": {"type": "string", "enum": ["N", "S", "E"]}}}"##;
    check(schema, &[
        (r#"{"N": 1, "S": true}"#, true),
        (r#"{"N": "x"}"#, false),
        (r#"{"W": 1}"#, false),
    ]);
    // Enum values are filtered the same way.
    check(r#"{"enum": [{"a": 1}, {"b": 1}], "propertyNames": {"pattern": "^b"}}"#, &[(r#"{"b": 1}"#, true), (r#"{"a": 1}"#, false)]);
}

#[test]
fn min_and_max_properties_count_every_member() {
    // Declared and undeclared members both count toward a maximum.
    let schema = r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {}},
        "additionalProperties": {"type": "boolean"}, "maxProperties": 3}"#;
    check(schema, &[
        ("{}", true),
        (r#"{"x": true, "a": 1}"#, true),
        (r#"{"b": null, "x": true, "a": 1}"#, true),
        (r#"{"b": null, "x": true, "a": 1, "y": true}"#, false),
        (r#"{"w": true, "x": true, "y": true, "z": true}"#, false),
        (r#"{"a": 1, "a": 2}"#, false),
    ]);
    // A minimum over declared properties only.
    let schema = r#"{"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "required": ["a"],
        "additionalProperties": false, "minProperties": 2, "maxProperties": 2}"#;
    check(schema, &[
        (r#"{"a": 1}"#, false),
        (r#"{"c": 3, "a": 1}"#, true),
        (r#"{"b": 2, "c": 3}"#, false),
        (r#"{"a": 1, "b": 2, "c": 3}"#, false),
    ]);
    // Where undeclared keys would count toward a minimum, a repeated key would pass
    // for two: an error.
    let err = Grammar::from_json_schema(r#"{"type": "object", "minProperties": 2}"#).unwrap_err();
    assert!(err.to_string().contains("minProperties"), "{err}");
    // An upper bound below the declared properties.
    let schema = r#"{"type": "object", "properties": {"a": {}, "b": {}, "c": {}}, "additionalProperties": false,
        "maxProperties": 1}"#;
    check(schema, &[("{}", true), (r#"{"c": 1}"#, true), (r#"{"a": 1, "b": 2}"#, false)]);
}

#[test]
fn properties_in_declared_or_required_first_order() {
    let schema = r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "c": {"type": "integer"}},
        "required": ["c", "a"]}"#;
    let options = JsonSchemaOptions { property_order: PropertyOrder::DeclaredOrRequiredFirst, ..JsonSchemaOptions::default() };
    let required_first = Arc::new(CompiledGrammar::new(&Grammar::from_json_schema_with(schema, &options).unwrap()).unwrap());
    for (text, valid) in [
        (r#"{"a": 1, "b": 2, "c": 3}"#, true),
        (r#"{"c": 3, "a": 1, "b": 2}"#, true),
        (r#"{"c": 3, "a": 1}"#, true),
        (r#"{"a": 1, "c": 3}"#, true),
        // Neither order.
        (r#"{"b": 2, "a": 1, "c": 3}"#, false),
        (r#"{"a": 1, "c": 3, "b": 2}"#, false),
        (r#"{"c": 3, "b": 2, "a": 1}"#, false),
        (r#"{"c": 3}"#, false),
    ] {
        assert_eq!(accepts(&required_first, text), valid, "{text}");
    }
    let options = JsonSchemaOptions { property_order: PropertyOrder::Declared, ..JsonSchemaOptions::default() };
    let g = Arc::new(CompiledGrammar::new(&Grammar::from_json_schema_with(schema, &options).unwrap()).unwrap());
    assert!(accepts(&g, r#"{"a": 1, "b": 2, "c": 3}"#));
    assert!(!accepts(&g, r#"{"c": 3, "a": 1, "b": 2}"#));
}

#[test]
fn not_of_an_object_condition_is_its_complement() {
    let schema = r#"{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
        "not": {"required": ["a", "b"]}}"#;
    check(schema, &[(r#"{"a": 1}"#, true), (r#"{"b": 1}"#, true), (r#"{}"#, true), (r#"{"a": 1, "b": 2}"#, false)]);
    let by_value = r#"{"not": {"type": "object", "properties": {"kind": {"enum": ["x"]}}, "required": ["kind"]}}"#;
    check(by_value, &[
        (r#"{"kind": "x"}"#, false),
        (r#"{"kind": "y"}"#, true),
        (r#"{"other": 1}"#, true),
        ("1", true),
    ]);
}

#[test]
fn one_of_with_overlapping_object_branches_is_narrowed() {
    let schema = r#"{"type": "object", "properties": {"a": {}, "b": {}}, "oneOf": [
        {"properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "boolean"}}, "required": ["b"]}]}"#;
    check(schema, &[
        (r#"{"a": "x"}"#, true),
        (r#"{"b": true}"#, true),
        (r#"{"a": "x", "b": true}"#, false),
        // "b" is not a boolean, so only the first branch matches.
        (r#"{"a": "x", "b": 2}"#, true),
        (r#"{"a": 1, "b": true}"#, true),
        (r#"{"a": 1, "b": 2}"#, false),
        (r#"{}"#, false),
    ]);
}

#[test]
fn enum_values_are_filtered_by_the_keywords_beside_them() {
    // Object keywords do not touch an enum without objects.
    check(r#"{"enum": ["x", 1], "properties": {"a": {}}, "required": ["a"], "minimum": 2}"#, &[
        (r#""x""#, true),
        ("1", false),
    ]);
    let schema = r#"{"enum": [{"a": 1}, {"a": "s"}, {"b": 1}, {"a": 2, "c": 1}, [1, 1], [1, 2], [3]],
        "properties": {"a": {"type": "integer"}}, "required": ["a"], "additionalProperties": false,
        "items": {"type": "integer", "maximum": 2}, "uniqueItems": true}"#;
    check(schema, &[
        (r#"{"a": 1}"#, true),
        (r#"{"a": "s"}"#, false),
        (r#"{"b": 1}"#, false),
        (r#"{"a": 2, "c": 1}"#, false),
        ("[1, 2]", true),
        ("[1, 1]", false),
        ("[3]", false),
    ]);
    let nested = r##"{"enum": [{"p": {"q": [1]}}, {"p": {"q": []}}], "properties": {"p": {"$ref": "#/$defs/p"}},
        "$defs": {"p": {"properties": {"q": {"minItems": 1}}}}}"##;
    check(nested, &[(r#"{"p": {"q": [1]}}"#, true), (r#"{"p": {"q": []}}"#, false)]);
}

#[test]
fn string_disjointness_is_remembered_by_every_keyword_it_reads() {
    // The compile remembers whether two string schemas meet; the pair under `y` differs
    // from the pair under `x` only in an `enum`, and its branches meet on "ac".
    let schema = r#"{"type": "object", "properties": {
        "x": {"oneOf": [{"type": "string", "pattern": "^a", "enum": ["ab"]}, {"type": "string", "pattern": "^ac"}]},
        "y": {"oneOf": [{"type": "string", "pattern": "^a", "enum": ["ac"]}, {"type": "string", "pattern": "^ac"}]}}}"#;
    check(schema, &[
        (r#"{"x": "ab"}"#, true),
        (r#"{"x": "acd"}"#, true),
        (r#"{"y": "acd"}"#, true),
        (r#"{"y": "ac"}"#, false),
        (r#"{"x": "ac", "y": "ac"}"#, false),
    ]);
}

#[test]
fn overlapping_one_of_branches_are_narrowed_to_exactly_one() {
    // Strings: an IPv4 address is also a dotted name.
    check(r#"{"type": "string", "oneOf": [{"pattern": "^[a-z0-9.]+$"}, {"format": "ipv4"}]}"#, &[
        (r#""example.com""#, true),
        (r#""1.2.3.4""#, false),
        (r#""1.2.3.400""#, true),
    ]);
    // Branches whose string languages do not meet are disjoint as they are.
    check(r#"{"oneOf": [{"format": "hostname"}, {"pattern": "^_"}], "type": "string"}"#, &[
        (r#""a.b""#, true),
        (r#""_x""#, true),
        (r#""""#, false),
    ]);
    // Numbers: integers match both branches, so only fractions remain.
    check(r#"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#, &[
        ("1.5", true),
        ("-0.25", true),
        ("3", false),
        ("1.0", false),
        ("0.000", false),
    ]);
    check(r#"{"type": "number", "not": {"type": "integer"}, "maximum": 2}"#, &[
        ("1.5", true),
        ("2.5", false),
        ("2", false),
    ]);
    check(r#"{"type": "integer", "oneOf": [{"minimum": 2}, {"maximum": 5}]}"#, &[
        ("1", true),
        ("2", false),
        ("5", false),
        ("6", true),
    ]);
    // Closed objects: the empty object matches both.
    check(r#"{"oneOf": [
        {"type": "object", "properties": {"and": {"type": "integer"}}, "additionalProperties": false},
        {"type": "object", "properties": {"or": {"type": "integer"}}, "additionalProperties": false}]}"#, &[
        (r#"{"and": 1}"#, true),
        (r#"{"or": 1}"#, true),
        (r#"{}"#, false),
        (r#"{"and": 1, "or": 1}"#, false),
    ]);
    // A `not` beside a requirement.
    check(r#"{"type": "object", "oneOf": [{"required": ["image"], "not": {"required": ["a", "b"]}}, {"required": ["dir"]}]}"#, &[
        (r#"{"image": 1}"#, true),
        (r#"{"dir": 1}"#, true),
        (r#"{"image": 1, "dir": 1}"#, false),
        (r#"{"image": 1, "a": 1, "b": 1, "dir": 1}"#, true),
        (r#"{"image": 1, "a": 1, "b": 1}"#, false),
    ]);
}

#[test]
fn not_of_any_expressible_condition_is_its_complement() {
    check(r#"{"type": "integer", "not": {"minimum": 3, "maximum": 5}}"#, &[("2", true), ("3", false), ("5", false), ("6", true)]);
    check(r#"{"type": "string", "not": {"minLength": 2}}"#, &[(r#""a""#, true), (r#""ab""#, false)]);
    check(r#"{"type": "array", "not": {"maxItems": 1}}"#, &[("[1, 2]", true), ("[1]", false)]);
    check(r#"{"not": {"type": "string", "format": "ipv4"}}"#, &[(r#""1.2.3.4""#, false), (r#""x""#, true), ("1", true)]);
}

#[test]
fn a_string_constraint_of_several_regexes_fails_where_one_of_them_fails() {
    // The host idiom: a hostname (its labels and its length), an IPv4 or an IPv6
    // address, exactly one. Until session 53 a hostname's failures were not expressible
    // and this was a compile error.
    check(r#"{"oneOf": [{"format": "hostname"}, {"format": "ipv4"}, {"format": "ipv6"}]}"#, &[
        (r#""example.com""#, true),
        (r#""::1""#, true),
        (r#""1.2.3""#, true),
        (r#""1.2.3.400""#, true),
        (r#""1.2.3.4""#, false), // a hostname and an IPv4 address
        (r#""a_b""#, false),     // none
        ("1", false),            // not a string: all three hold
        ("null", false),
    ]);
    // Past the length bound, labels are no hostname.
    let labels = |n: usize| format!("\"{}\"", "a.".repeat(n));
    let schema = r#"{"type": "string", "not": {"format": "hostname"}}"#;
    let g = grammar(schema);
    for (text, valid) in [(labels(126) + "", false), (labels(127), true), (r#""a_b""#.into(), true), (r#""""#.into(), true)] {
        assert_eq!(accepts(&g, &text), valid, "{schema}: {text}");
    }
    // Patterns met together, negated: a string failing either.
    check(r#"{"type": "string", "not": {"allOf": [{"pattern": "^a"}, {"pattern": "b$"}]}}"#, &[
        (r#""ab""#, false),
        (r#""axb""#, false),
        (r#""a""#, true),
        (r#""b""#, true),
    ]);
    // A value narrowed by such a failure is held to it beside an enum: `"zz"` meets both
    // branches (the differential test's seed 3306 found an enum filter that skipped it,
    // in a version that wrote these failures apart).
    check(r#"{"oneOf": [{"const": "zz"}, {"not": {"type": "string", "pattern": "^a"}}]}"#, &[
        (r#""zz""#, false),
        (r#""ab""#, false), // neither
        (r#""b""#, true),
        ("1", true),
    ]);
    // The failures of a schema holding such regexes are the strings failing them (the
    // differential test's seed 179830 found them lost in a version that wrote them as a
    // keyword of their own): here the second branch holds of everything but IPv4
    // addresses.
    check(r#"{"oneOf": [true, {"if": {"if": {"not": {"type": "string", "format": "ipv4"}}, "then": false}, "then": {"type": "null"}}]}"#, &[
        (r#""1.2.3.4""#, true),
        (r#""abc""#, false),
        ("1", false),
    ]);
}

#[test]
fn every_spelling_of_an_excluded_string_is_excluded() {
    // A control character has its short escape and `\u00XX` (hex of either case); an
    // exclusion by one spelling let the others through (found by a differential hunt).
    check(r#"{"not": {"const": "\t"}}"#, &[(r#""\t""#, false), (r#""\u0009""#, false), (r#""\u0008""#, true)]);
    check(r#"{"not": {"const": "\u001f"}}"#, &[(r#""\u001f""#, false), (r#""\u001F""#, false), (r#""\u001e""#, true)]);
    check(r#"{"type": "string", "not": {"pattern": "\\n"}}"#, &[(r#""a\u000Ab""#, false), (r#""a\nb""#, false), (r#""ab""#, true)]);
    check(r#"{"properties": {"\n": {"type": "integer"}}}"#, &[
        (r#"{"\u000a": "x"}"#, false),
        (r#"{"\u000A": 1}"#, true),
        (r#"{"\n": "x"}"#, false),
        (r#"{"\r": "x"}"#, true),
    ]);
    // Values admit every spelling of theirs too.
    check(r#"{"enum": ["\t"]}"#, &[(r#""\t""#, true), (r#""\u0009""#, true), (r#""\u000a""#, false)]);
}

/// Wrong acceptances a differential hunt found (session 53), each now refused or
/// rejected: numbers read exactly, integers in draft 4, `prefixItems` before 2020-12,
/// RFC 3339 durations.
#[test]
fn numbers_drafts_and_durations_read_as_the_specification_says() {
    // Integer bounds beyond a float's precision: the float of 2^63 - 1 is 2^63.
    check(r#"{"type": "integer", "maximum": 9223372036854775807}"#, &[("9223372036854775807", true), ("9223372036854775808", false)]);
    check(r#"{"minimum": 9007199254740993}"#, &[("9007199254740993", true), ("9007199254740992", false)]);
    check(r#"{"allOf": [{"maximum": 9007199254740993}, {"maximum": 9007199254740992}]}"#, &[
        ("9007199254740992", true),
        ("9007199254740993", false),
    ]);
    // A number `serde_json` cannot hold is refused where the text says it is.
    let beyond = Grammar::from_json_schema("{\"description\": \"é\",\n \"not\": {\"const\": 18446744073709551617}}").unwrap_err();
    assert!(beyond.to_string().contains("18446744073709551617 (line 2, column 19)"), "{beyond}");
    // A `multipleOf` near a power of ten is not taken for it.
    let near = Grammar::from_json_schema(r#"{"multipleOf": 0.1000000000001}"#).unwrap_err();
    assert!(near.to_string().contains("multipleOf"), "{near}");
    check(r#"{"multipleOf": 0.01}"#, &[("0.07", true), ("0.075", false), ("3", true)]);
    // Draft 4: an integer has no fraction part, beside an enum too.
    let draft4 = r#""$schema": "http://json-schema.org/draft-04/schema#""#;
    check(&format!(r#"{{{draft4}, "type": "integer", "enum": [1, 0]}}"#), &[("1", true), ("1.0", false), ("0", true), ("-0", true), ("0.0", false)]);
    check(r#"{"type": ["integer", "string"], "enum": [2, "a"]}"#, &[("2", true), ("2.0", false), (r#""a""#, true)]);
    check(r#"{"enum": [2]}"#, &[("2", true), ("2.0", true)]);
    // Before 2020-12, `items` holds of every element, the prefix too.
    for draft in ["http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema"] {
        let schema = format!(r#"{{"$schema": "{draft}", "prefixItems": [{{}}], "items": false}}"#);
        check(&schema, &[("[]", true), ("[1]", false)]);
        let schema = format!(r#"{{"$schema": "{draft}", "prefixItems": [{{"type": "string"}}], "items": {{"maxLength": 1}}}}"#);
        check(&schema, &[(r#"["a", "b"]"#, true), (r#"["ab"]"#, false), ("[1]", false)]);
    }
    check(r#"{"prefixItems": [{}], "items": false}"#, &[("[]", true), ("[1]", true), ("[1, 2]", false)]);
    // RFC 3339 durations: a unit is followed only by the next smaller one.
    check(r#"{"format": "duration"}"#, &[
        (r#""P1Y1M1D""#, true),
        (r#""P1Y1D""#, false),
        (r#""PT1H1M1S""#, true),
        (r#""PT1H1S""#, false),
        (r#""P2W""#, true),
        (r#""P1DT1S""#, true),
    ]);
}

#[test]
fn patterns_read_word_space_and_line_ends_as_python_does() {
    // `\w` is letters, numbers and `_` (no combining marks, no other connectors).
    check(r#"{"type": "string", "pattern": "^\\w+$"}"#, &[(r#""aé_٣""#, true), ("\"e\u{301}\"", false), (r#""a‿b""#, false)]);
    // `\s` holds of \x1C–\x1F, so `\S` does not.
    check(r#"{"type": "string", "pattern": "^\\S$"}"#, &[(r#""a""#, true), (r#""\u001c""#, false), (r#""\u001f""#, false)]);
    // A multi-line `$` also ends a line inside the text, after which a search reads on.
    check(r#"{"type": "string", "not": {"pattern": "(?m)a$"}}"#, &[(r#""a\nb""#, false), (r#""ba""#, false), (r#""ab""#, true)]);
}

#[test]
fn a_ref_from_a_one_of_branch_back_into_it_is_an_error_not_a_stack_overflow() {
    // Each disjointness proof flattened the `oneOf` again from inside its own proof,
    // until the stack overflowed and the process aborted (found by a differential hunt).
    for schema in [
        r##"{"$ref": "#/$defs/d", "$defs": {"d": {"oneOf": [{"properties": {"a": {}}}, {"required": ["a"], "additionalProperties": {"$ref": "#/$defs/d"}}]}}}"##,
        r##"{"properties": {"A": {"$ref": "#/definitions/d"}}, "definitions": {"d": {"oneOf": [{"properties": {"b": {}}, "required": ["b"]}, {"properties": {"b": {"$ref": "#/definitions/d"}}}]}}}"##,
    ] {
        let err = Grammar::from_json_schema(schema).unwrap_err();
        assert!(err.to_string().contains("nest deeper than"), "{schema}: {err}");
    }
    // On a thread with a small stack too (the harness compiles on worker threads).
    let small = std::thread::Builder::new().stack_size(2 << 20);
    let schema = r##"{"$ref": "#/$defs/d", "$defs": {"d": {"oneOf": [{"properties": {"a": {}}}, {"required": ["a"], "additionalProperties": {"$ref": "#/$defs/d"}}]}}}"##;
    let joined = small.spawn(move || Grammar::from_json_schema(schema).is_err()).unwrap().join();
    assert!(matches!(joined, Ok(true)));
}
