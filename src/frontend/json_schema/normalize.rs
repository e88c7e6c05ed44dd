//! Schemas to unions of combinator-free schemas.
//!
//! [`Schemas::flatten`] rewrites a schema as a list of *simple* schemas (keyword maps
//! without `$ref`, `allOf`, `anyOf` or `oneOf`) whose union is the schema's language:
//! `allOf` and `$ref` siblings merge keyword by keyword ([`merge`]), `anyOf` and `oneOf`
//! distribute. `oneOf` is exact when its branches are pairwise disjoint, which
//! [`Schemas::disjoint`] proves from types, `enum`/`const` values, required
//! discriminator properties, forbidden properties, ranges and string languages (an
//! empty intersection of regexes). Branches it cannot prove disjoint are narrowed: each
//! is merged with the complement of the others ([`Schemas::complement`]), so a value
//! matching two is in neither. When a complement is not expressible, compiling fails,
//! or (with [`OneOf::AsAnyOf`](super::OneOf::AsAnyOf)) the `oneOf` is recorded as
//! approximated and compiled as `anyOf`.
//!
//! Inside a simple schema, `const` is a one-value `enum`, `type` is a [`Types`] set
//! kept as the bits of a [`Types`] set, and `pattern`, `format` and `not` are arrays (an `allOf`
//! of two patterns keeps both; the lexer intersects them).

use super::numbers;
use super::strings::{self, Spellings, StringRegex};
use super::{Draft, Formats, JsonSchemaOptions, OneOf};
use crate::error::{Error, Result};
use serde_json::{Map, Value};

/// A schema without `$ref`, `allOf`, `anyOf`, `oneOf`, normalized as described above.
pub(super) type Simple = Map<String, Value>;

/// Keywords that only annotate: ignored by the compiler.
pub(super) const ANNOTATIONS: &[&str] = &[
    "$schema", "$id", "id", "$comment", "$anchor", "$vocabulary", "title", "description", "default", "examples",
    "example", "deprecated", "readOnly", "writeOnly", "contentMediaType", "contentEncoding", "definitions", "$defs",
];

/// The compiler's own keyword for "some member's key is in `keys` and its value meets
/// `value`", a list of `{"keys": SCHEMA, "value": SCHEMA}` that all hold (an `allOf`
/// keeps both lists). It is what `not` of `propertyNames`, `patternProperties` and
/// `additionalProperties` leaves ([`Schemas::complement`]). A schema never spells it: the
/// name starts with a NUL, and a keyword of that name in a document is dropped as unknown.
pub(super) const SOME_MEMBER: &str = "\u{0}someMember";

/// The set of JSON types a schema admits. `INTEGER` and `FRACTION` split `number`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Types(pub u8);

impl Types {
    pub const NULL: Types = Types(1);
    pub const BOOLEAN: Types = Types(2);
    pub const INTEGER: Types = Types(4);
    /// Numbers that are not integers.
    pub const FRACTION: Types = Types(8);
    pub const STRING: Types = Types(16);
    pub const ARRAY: Types = Types(32);
    pub const OBJECT: Types = Types(64);
    pub const ALL: Types = Types(127);
    pub const NUMBER: Types = Types(4 | 8);

    pub fn contains(self, other: Types) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn intersects(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }
    pub fn and(self, other: Types) -> Types {
        Types(self.0 & other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn named(name: &str) -> Option<Types> {
        Some(match name {
            "null" => Types::NULL,
            "boolean" => Types::BOOLEAN,
            "integer" => Types::INTEGER,
            "number" => Types::NUMBER,
            "string" => Types::STRING,
            "array" => Types::ARRAY,
            "object" => Types::OBJECT,
            _ => return None,
        })
    }

    /// The type of a JSON value.
    pub fn of(value: &Value) -> Types {
        match value {
            Value::Null => Types::NULL,
            Value::Bool(_) => Types::BOOLEAN,
            Value::Number(n) if n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0) => {
                Types::INTEGER
            }
            Value::Number(_) => Types::FRACTION,
            Value::String(_) => Types::STRING,
            Value::Array(_) => Types::ARRAY,
            Value::Object(_) => Types::OBJECT,
        }
    }

    /// The types a simple schema admits, from `type` and `enum`.
    pub fn of_simple(simple: &Simple) -> Types {
        let mut types = match simple.get("type").and_then(Value::as_u64) {
            Some(bits) => Types(bits as u8),
            None => Types::ALL,
        };
        if let Some(Value::Array(values)) = simple.get("enum") {
            types = types.and(Types(values.iter().fold(0, |acc, v| acc | Types::of(v).0)));
        }
        types
    }
}

/// The schema document, with what resolving and flattening need.
pub(super) struct Schemas<'a> {
    pub root: &'a Value,
    pub draft: Draft,
    pub options: &'a JsonSchemaOptions,
    /// JSON pointers of the `oneOf`s compiled as `anyOf`.
    pub approximated: std::cell::RefCell<Vec<String>>,
    /// Complements built so far to narrow `oneOf` branches (see [`MAX_NARROWINGS`]).
    pub narrowings: std::cell::Cell<usize>,
    /// [`strings_disjoint`] by the [`string_keywords`] of its two schemas, smaller first.
    /// Narrowing `oneOf` branches asks about the same pair many times (once per branch
    /// pair, again when narrowing, again for each object holding them), and an answer
    /// can take milliseconds: two formats' DFAs explored side by side.
    pub strings_disjoint: std::cell::RefCell<hashbrown::HashMap<(String, String), bool>>,
    /// [`strings::pattern`] by pattern. Merges copy one `pattern` into many simple
    /// schemas, each read on its own (a schema of Azure Pipelines tasks asked for 275
    /// patterns 56,692 times).
    pub patterns: std::cell::RefCell<hashbrown::HashMap<String, std::result::Result<StringRegex, String>>>,
    /// The DFAs of the regexes whose languages were tested against each other.
    pub(super) languages: std::cell::RefCell<strings::Languages>,
    /// Flattenings in progress on the stack, from every entry (a disjointness proof or
    /// a complement flattens anew from inside another flattening); see [`MAX_NESTING`].
    pub nesting: std::cell::Cell<usize>,
    /// Set once [`MAX_NESTING`] was reached: every later flattening fails at once (a
    /// proof that gives up on an error would otherwise descend again), and the compile
    /// fails.
    pub too_deep: std::cell::Cell<bool>,
    /// [`JsonSchemaOptions::time_budget`](super::JsonSchemaOptions::time_budget), from
    /// the start of the compile; read every few flattenings.
    pub(crate) deadline: crate::error::Deadline,
    /// Flattenings begun, for [`Deadline::check_at`](crate::error::Deadline::check_at).
    pub steps: std::cell::Cell<usize>,
}

/// Most complements built to narrow `oneOf` branches in one schema. A branch narrowed
/// by a recursive schema holds `not` of it, which the emitter meets as a new schema:
/// without a bound, such a `oneOf` could unfold forever.
const MAX_NARROWINGS: usize = 512;

/// How deep `$ref`s and combinators may nest while flattening.
const MAX_FLATTEN_DEPTH: usize = 64;

/// How many flattenings may be in progress at once, counting those that proofs and
/// complements start from inside others. A `$ref` from a `oneOf` branch's property back
/// to the `oneOf` made each disjointness proof flatten the `oneOf` again, without end,
/// until the stack overflowed (about 1.9 KiB of stack a level: 256 levels stay within a
/// 2 MiB thread stack).
pub(super) const MAX_NESTING: usize = 256;

impl<'a> Schemas<'a> {
    /// The draft whose `format` vocabulary applies ([`Formats`]).
    pub fn format_vocabulary(&self) -> Draft {
        match self.options.formats {
            Formats::EveryDraft => Draft::Draft2020,
            Formats::OfTheDraft => self.draft,
        }
    }

    pub fn error(at: &str, reason: impl Into<String>) -> Error {
        Error::Schema { pointer: if at.is_empty() { "#".into() } else { at.to_string() }, reason: reason.into() }
    }

    /// The target of a `$ref`, and its pointer.
    pub fn resolve(&self, reference: &str, at: &str) -> Result<(&'a Value, String)> {
        let local = self.local_part(reference).ok_or_else(|| {
            Self::error(at, format!("$ref {reference:?} is not a reference inside this document"))
        })?;
        let decoded = percent_decode(local);
        let target = if decoded.is_empty() { Some(self.root) } else { self.root.pointer(&decoded) };
        target
            .map(|v| (v, format!("#{decoded}")))
            .ok_or_else(|| Self::error(at, format!("$ref {reference:?} points to nothing")))
    }

    /// The JSON pointer of a reference into this document: `#/...`, or the root's own
    /// id followed by `#/...`.
    fn local_part<'r>(&self, reference: &'r str) -> Option<&'r str> {
        if let Some(pointer) = reference.strip_prefix('#') {
            return (pointer.is_empty() || pointer.starts_with('/')).then_some(pointer);
        }
        let id = self.root.get("$id").or_else(|| self.root.get("id")).and_then(Value::as_str)?;
        let rest = reference.strip_prefix(id.trim_end_matches('#'))?;
        let pointer = rest.strip_prefix('#').unwrap_or(rest);
        (pointer.is_empty() || pointer.starts_with('/')).then_some(pointer)
    }

    /// The target pointer when `schema` is nothing but a reference (annotations aside),
    /// or when this draft ignores a reference's siblings.
    pub fn plain_ref(&self, schema: &Value, at: &str) -> Result<Option<String>> {
        let Value::Object(map) = schema else { return Ok(None) };
        let Some(reference) = map.get("$ref") else { return Ok(None) };
        let reference = reference.as_str().ok_or_else(|| Self::error(at, "$ref must be a string"))?;
        let only_ref = map.keys().all(|k| k == "$ref" || ANNOTATIONS.contains(&k.as_str()));
        if only_ref || self.draft.ignores_ref_siblings() {
            return Ok(Some(self.resolve(reference, at)?.1));
        }
        Ok(None)
    }

    /// `schema` as a union of simple schemas.
    pub fn flatten(&self, schema: &Value, at: &str) -> Result<Vec<Simple>> {
        self.flatten_at(schema, at, 0)
    }

    fn flatten_at(&self, schema: &Value, at: &str, depth: usize) -> Result<Vec<Simple>> {
        if self.too_deep.get() || self.nesting.get() >= MAX_NESTING {
            self.too_deep.set(true);
            return Err(self.nested_too_deep(at));
        }
        let step = self.steps.get();
        self.steps.set(step + 1);
        self.deadline.check_at(step)?;
        self.nesting.set(self.nesting.get() + 1);
        let flat = self.flatten_nested(schema, at, depth);
        self.nesting.set(self.nesting.get() - 1);
        flat
    }

    /// The error of a compile that reached [`MAX_NESTING`].
    pub(super) fn nested_too_deep(&self, at: &str) -> Error {
        let reason = format!(
            "$ref, combinators and the proofs over them nest deeper than {MAX_NESTING} \
             (a $ref from a oneOf branch back into the oneOf?)"
        );
        Self::error(at, reason)
    }

    fn flatten_nested(&self, schema: &Value, at: &str, depth: usize) -> Result<Vec<Simple>> {
        if depth > MAX_FLATTEN_DEPTH {
            return Err(Self::error(at, format!("$ref and combinators nest deeper than {MAX_FLATTEN_DEPTH} (a cycle through allOf, anyOf or oneOf?)")));
        }
        let map = match schema {
            Value::Bool(true) => return Ok(vec![Simple::new()]),
            Value::Bool(false) => return Ok(Vec::new()),
            Value::Object(map) => map,
            _ => return Err(Self::error(at, "a schema must be an object or a boolean")),
        };
        if let Some(reference) = map.get("$ref") {
            let reference = reference.as_str().ok_or_else(|| Self::error(at, "$ref must be a string"))?;
            let (target, pointer) = self.resolve(reference, at)?;
            let target = self.flatten_at(target, &pointer, depth + 1)?;
            if self.draft.ignores_ref_siblings() {
                return Ok(target);
            }
            let (base, negation) = self.base_and_negation(map, at, depth)?;
            let acc = self.product(self.product(vec![base], target, at)?, negation, at)?;
            return self.combinators(map, at, depth, acc);
        }
        let (base, negation) = self.base_and_negation(map, at, depth)?;
        let acc = self.product(vec![base], negation, at)?;
        self.combinators(map, at, depth, acc)
    }

    /// The keywords of `map` other than the combinators, and what its `not` admits when
    /// that is a union of simple schemas ([`Schemas::complement`]: a value fails a
    /// conjunction of keywords when it fails one of them), and leaves `base`. Any other
    /// `not` stays in `base` for the emitter (negated types, values and patterns); the
    /// union is then "anything".
    fn base_and_negation(&self, map: &Map<String, Value>, at: &str, depth: usize) -> Result<(Simple, Vec<Simple>)> {
        let negated = map.get("not").filter(|not| double_negated(not).is_none());
        let complement = match negated {
            Some(not) => self.complement_of_union(&self.flatten_at(not, &format!("{at}/not"), depth + 1)?, at)?,
            None => None,
        };
        let mut base = self.base(map, at)?;
        if complement.is_some() {
            base.remove("not");
        }
        Ok((base, complement.unwrap_or_else(|| vec![Simple::new()])))
    }

    /// The keywords of `map` other than the combinators, normalized.
    fn base(&self, map: &Map<String, Value>, at: &str) -> Result<Simple> {
        let mut base = Simple::new();
        for (k, v) in map {
            let combinator = matches!(
                k.as_str(),
                "allOf" | "anyOf" | "oneOf" | "$ref" | "dependencies" | "dependentRequired" | "dependentSchemas" | "if"
                    | "then" | "else"
            );
            let double_negation = k == "not" && double_negated(v).is_some();
            if !combinator && !double_negation && !ANNOTATIONS.contains(&k.as_str()) && k != SOME_MEMBER {
                base.insert(k.clone(), v.clone());
            }
        }
        normalize_keywords(&mut base, self.draft, at)?;
        Ok(base)
    }

    fn combinators(&self, map: &Map<String, Value>, at: &str, depth: usize, mut acc: Vec<Simple>) -> Result<Vec<Simple>> {
        if let Some(inner) = map.get("not").and_then(double_negated) {
            let inner = self.flatten_at(inner, &format!("{at}/not/not"), depth + 1)?;
            acc = self.product(acc, inner, at)?;
        }
        if let Some(all) = map.get("allOf") {
            for (i, sub) in schema_list(all, at, "allOf")?.iter().enumerate() {
                let sub = self.flatten_at(sub, &format!("{at}/allOf/{i}"), depth + 1)?;
                acc = self.product(acc, sub, at)?;
            }
        }
        for keyword in ["dependencies", "dependentRequired", "dependentSchemas"] {
            let Some(dependencies) = map.get(keyword) else { continue };
            let dependencies =
                dependencies.as_object().ok_or_else(|| Self::error(at, format!("{keyword} must be an object")))?;
            for (name, dependency) in dependencies {
                let cases = self.dependency_cases(name, dependency, &format!("{at}/{keyword}"), depth)?;
                acc = self.product(acc, cases, at)?;
            }
        }
        if let Some(condition) = map.get("if") {
            let cases = self.conditional(condition, map.get("then"), map.get("else"), at, depth)?;
            acc = self.product(acc, cases, at)?;
        }
        if let Some(any) = map.get("anyOf") {
            let mut union = Vec::new();
            for (i, sub) in schema_list(any, at, "anyOf")?.iter().enumerate() {
                union.extend(self.flatten_at(sub, &format!("{at}/anyOf/{i}"), depth + 1)?);
            }
            acc = self.product(acc, union, at)?;
        }
        if let Some(one) = map.get("oneOf") {
            let mut raw = Vec::new();
            let mut branches = Vec::new();
            for (i, sub) in schema_list(one, at, "oneOf")?.iter().enumerate() {
                let branch = self.flatten_at(sub, &format!("{at}/oneOf/{i}"), depth + 1)?;
                branches.push(self.product(acc.clone(), branch.clone(), at)?);
                raw.push(branch);
            }
            acc = self.exclusive(branches, &raw, &format!("{at}/oneOf"))?.into_iter().flatten().collect();
        }
        Ok(acc)
    }

    /// A dependency of property `name` as a union: objects without `name`, or objects
    /// with it that also meet the dependency (the listed properties are present, or the
    /// schema holds). Values that are not objects satisfy both cases.
    fn dependency_cases(&self, name: &str, dependency: &Value, at: &str, depth: usize) -> Result<Vec<Simple>> {
        let mut absent = Simple::new();
        absent.insert("properties".into(), serde_json::json!({ name: false }));
        let mut present = Simple::new();
        match dependency {
            Value::Array(names) => {
                let mut required = vec![Value::String(name.to_string())];
                required.extend(names.iter().cloned());
                present.insert("required".into(), Value::Array(required));
                Ok(vec![absent, present])
            }
            schema => {
                present.insert("required".into(), serde_json::json!([name]));
                let mut cases = self.product(vec![present], self.flatten_at(schema, at, depth + 1)?, at)?;
                cases.insert(0, absent);
                Ok(cases)
            }
        }
    }

    /// `if`/`then`/`else` as the union of `if ∧ then` and `¬if ∧ else`, where `¬if` is
    /// [`Schemas::complement_of_union`]; a condition whose failures are not expressible
    /// is an error.
    fn conditional(
        &self,
        condition: &Value,
        then: Option<&Value>,
        otherwise: Option<&Value>,
        at: &str,
        depth: usize,
    ) -> Result<Vec<Simple>> {
        let at_if = format!("{at}/if");
        let holds = self.flatten_at(condition, &at_if, depth + 1)?;
        let fails = self
            .complement_of_union(&holds, &at_if)?
            .ok_or_else(|| Self::error(&at_if, "`if` with a condition whose failures are not expressible is not supported"))?;
        let then = self.flatten_at(then.unwrap_or(&Value::Bool(true)), &format!("{at}/then"), depth + 1)?;
        let otherwise = self.flatten_at(otherwise.unwrap_or(&Value::Bool(true)), &format!("{at}/else"), depth + 1)?;
        let mut cases = self.product(holds, then, at)?;
        cases.extend(self.product(fails, otherwise, at)?);
        Ok(cases)
    }

    /// The `oneOf` branches made pairwise disjoint. A branch that may overlap another is
    /// narrowed to values the other rejects ([`Schemas::narrow`]), when that complement
    /// is expressible; otherwise compiling fails, or (with [`OneOf::AsAnyOf`]) the `oneOf` is recorded
    /// as approximated and its branches are kept as they are.
    fn exclusive(&self, branches: Vec<Vec<Simple>>, raw: &[Vec<Simple>], at: &str) -> Result<Vec<Vec<Simple>>> {
        let mut out = Vec::with_capacity(branches.len());
        for i in 0..branches.len() {
            let mut narrowed = branches[i].clone();
            for j in (0..branches.len()).filter(|&j| j != i) {
                let disjoint = narrowed.iter().all(|a| branches[j].iter().all(|b| self.disjoint(a, b, 0)));
                if disjoint {
                    continue;
                }
                match self.narrow(narrowed, &raw[j], at)? {
                    Some(values) => narrowed = values,
                    None => return self.not_exclusive(branches, at, i.min(j), i.max(j)),
                }
            }
            out.push(narrowed);
        }
        Ok(out)
    }

    /// The values of `values` that fail every schema of `other` (a union): each value
    /// schema is merged with the complement of each schema it may overlap. `None` when
    /// a complement is not expressible.
    fn narrow(&self, values: Vec<Simple>, other: &[Simple], at: &str) -> Result<Option<Vec<Simple>>> {
        let mut out = Vec::new();
        for a in values {
            let mut cases = vec![a.clone()];
            for b in other.iter().filter(|b| !self.disjoint(&a, b, 0)) {
                self.narrowings.set(self.narrowings.get() + 1);
                if self.narrowings.get() > MAX_NARROWINGS {
                    return Err(Self::error(at, format!("narrowing oneOf branches takes more than {MAX_NARROWINGS} complements")));
                }
                let Some(complement) = self.complement(b, Some(&a), at)? else { return Ok(None) };
                cases = self.product(cases, complement, at)?;
            }
            out.extend(cases);
            // Narrowing a branch by each other branch in turn multiplies its schemas.
            self.check_alternatives(out.len(), at)?;
        }
        Ok(Some(out))
    }

    /// The values failing every schema of `union` (`not` of it), as a union of simple
    /// schemas; `None` when some failures are not expressible.
    fn complement_of_union(&self, union: &[Simple], at: &str) -> Result<Option<Vec<Simple>>> {
        let mut cases = vec![Simple::new()];
        for condition in union {
            let Some(complement) = self.complement(condition, None, at)? else { return Ok(None) };
            cases = self.product(cases, complement, at)?;
        }
        Ok(Some(cases))
    }

    /// The values failing `condition`, as a union of simple schemas: a value fails a
    /// conjunction of keywords when it fails one of them, and each keyword's failures
    /// are a simple schema of the type it constrains (`minimum: m` fails on numbers
    /// below `m`; `required` on objects lacking a name; `not: X` on the values of `X`).
    /// `within` is the schema the values come from: when it is a closed object, the
    /// keys a closed `condition` does not declare are finitely many. `None` when some
    /// keyword's failures are not expressible.
    fn complement(&self, condition: &Simple, within: Option<&Simple>, at: &str) -> Result<Option<Vec<Simple>>> {
        let typed = |types: Types, keyword: &str, value: Value| {
            let mut s = Simple::new();
            s.insert("type".into(), Value::from(types.0));
            s.insert(keyword.into(), value);
            s
        };
        let mut out = Vec::new();
        for (k, v) in condition {
            match k.as_str() {
                "type" => {
                    let others = Types(Types::ALL.0 & !(v.as_u64().unwrap_or(0) as u8));
                    if !others.is_empty() {
                        let mut s = Simple::new();
                        s.insert("type".into(), Value::from(others.0));
                        out.push(s);
                    }
                }
                "required" => out.extend(required(condition).map(object_lacking)),
                "properties" => {
                    // A property `within` forbids cannot fail.
                    let keys = within.and_then(closed_keys);
                    let may_have = |name: &str| {
                        within.map_or(true, |w| property(w, name) != Some(&Value::Bool(false)))
                            && keys.as_ref().map_or(true, |keys| keys.iter().any(|k| k == name))
                    };
                    for (name, schema) in v.as_object().into_iter().flatten().filter(|(name, _)| may_have(name)) {
                        let mut failing = typed(Types::OBJECT, "required", serde_json::json!([name]));
                        failing.insert("properties".into(), serde_json::json!({ name: { "not": schema } }));
                        out.push(failing);
                    }
                }
                "additionalProperties" => match within.and_then(closed_keys) {
                    // Finitely many keys: objects with one the condition does not declare.
                    Some(keys) if v == &Value::Bool(false) && !condition.contains_key("patternProperties") => {
                        let declared = |name: &str| property(condition, name).is_some();
                        let undeclared = keys.into_iter().filter(|k| !declared(k));
                        out.extend(undeclared.map(|k| typed(Types::OBJECT, "required", serde_json::json!([k]))));
                    }
                    _ => out.extend(some_member(undeclared_keys(condition), negated(v))),
                },
                "patternProperties" => {
                    for (pattern, schema) in v.as_object().into_iter().flatten() {
                        let keys = serde_json::json!({ "type": "string", "pattern": pattern });
                        out.extend(some_member(keys, negated(schema)));
                    }
                }
                // Every key meets `propertyNames: true`: no object fails it.
                "propertyNames" if v == &Value::Bool(true) => {}
                "propertyNames" => {
                    let keys = serde_json::json!({ "type": "string", "not": v });
                    out.extend(some_member(keys, Value::Bool(true)));
                }
                "minProperties" => {
                    if let Some(n) = count(condition, k, at)?.filter(|n| *n > 0) {
                        out.push(typed(Types::OBJECT, "maxProperties", Value::from(n - 1)));
                    }
                }
                "maxProperties" => {
                    out.push(typed(Types::OBJECT, "minProperties", Value::from(count(condition, k, at)?.unwrap_or(0) + 1)));
                }
                "not" => {
                    for negated in v.as_array().into_iter().flatten() {
                        out.extend(self.flatten(negated, at)?);
                    }
                }
                // Arrays with an element failing `items` (which applies to every element
                // when there is no tuple form), and arrays with no element meeting `contains`.
                "items" if v.is_object() || v.is_boolean() => {
                    if condition.contains_key("prefixItems") {
                        return Ok(None);
                    }
                    out.push(typed(Types::ARRAY, "contains", serde_json::json!([{ "not": v }])));
                }
                "contains" => {
                    for wanted in v.as_array().into_iter().flatten() {
                        out.push(typed(Types::ARRAY, "items", serde_json::json!({ "not": wanted })));
                    }
                }
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" if v.is_number() => {
                    let opposite = match k.as_str() {
                        "minimum" => "exclusiveMaximum",
                        "maximum" => "exclusiveMinimum",
                        "exclusiveMinimum" => "maximum",
                        _ => "minimum",
                    };
                    out.push(typed(Types::NUMBER, opposite, v.clone()));
                }
                "minLength" | "minItems" => {
                    let (types, max) = if k == "minLength" { (Types::STRING, "maxLength") } else { (Types::ARRAY, "maxItems") };
                    if let Some(n) = count(condition, k, at)?.filter(|n| *n > 0) {
                        out.push(typed(types, max, Value::from(n - 1)));
                    }
                }
                "maxLength" => out.push(typed(Types::STRING, "minLength", Value::from(count(condition, k, at)?.unwrap_or(0) + 1))),
                "maxItems" => out.push(typed(Types::ARRAY, "minItems", Value::from(count(condition, k, at)?.unwrap_or(0) + 1))),
                // Strings failing the keyword: the emitter excludes its regexes (all of
                // them together: a `hostname` is its labels and its length).
                "pattern" | "format" => {
                    let mut alone = Simple::new();
                    alone.insert(k.clone(), v.clone());
                    if !matches!(strings::of_simple(self, &alone, &[], at), Ok(Some(_))) {
                        return Ok(None);
                    }
                    // As a schema to flatten again (a keyword's list is an `allOf`).
                    let each = v.as_array().into_iter().flatten().map(|one| serde_json::json!({ k.as_str(): one }));
                    out.push(typed(Types::STRING, "not", serde_json::json!([{ "allOf": each.collect::<Vec<_>>() }])));
                }
                // Numbers that are not multiples: the emitter excludes the multiples' regex.
                "multipleOf" => out.push(typed(Types::NUMBER, "not", serde_json::json!([{ "multipleOf": v }]))),
                "enum" => {
                    // The values that are none of the listed ones: the scalars in one
                    // negated enum, each array or object by the ways a value differs from it.
                    let Some(values) = v.as_array() else { return Ok(None) };
                    let (composites, scalars): (Vec<&Value>, Vec<&Value>) = values.iter().partition(|x| x.is_array() || x.is_object());
                    let mut cases = vec![Simple::new()];
                    if !scalars.is_empty() {
                        cases[0].insert("not".into(), serde_json::json!([{ "enum": scalars }]));
                    }
                    for composite in composites {
                        cases = self.product(cases, other_than(composite), at)?;
                    }
                    out.extend(cases);
                }
                other if !ASSERTIONS.contains(&other) => {}
                _ => return Ok(None),
            }
        }
        Ok(Some(out))
    }

    fn not_exclusive(&self, branches: Vec<Vec<Simple>>, at: &str, i: usize, j: usize) -> Result<Vec<Vec<Simple>>> {
        match self.options.one_of {
            OneOf::Exact => Err(Self::error(
                at,
                format!(
                    "oneOf branches {i} and {j} may both match one value, and exactly-one cannot be \
                     enforced here (compile with OneOf::AsAnyOf to treat this oneOf as anyOf)"
                ),
            )),
            OneOf::AsAnyOf => {
                self.approximated.borrow_mut().push(at.to_string());
                Ok(branches)
            }
        }
    }

    /// Every merge of one schema of `a` with one of `b`, dropping the unsatisfiable.
    fn product(&self, a: Vec<Simple>, b: Vec<Simple>, at: &str) -> Result<Vec<Simple>> {
        self.check_alternatives(a.len() * b.len(), at)?;
        let mut out = Vec::with_capacity(a.len() * b.len());
        let a_len = a.len();
        for (x, ys) in a.into_iter().zip(copies(b, a_len)) {
            let ys_len = ys.len();
            for (left, y) in copies(x, ys_len).zip(ys) {
                out.extend(merge(self, left, y, at)?);
            }
        }
        Ok(out)
    }

    /// An error when one schema expands to `n` simple schemas, more than
    /// [`JsonSchemaOptions::max_alternatives`].
    fn check_alternatives(&self, n: usize, at: &str) -> Result<()> {
        if n <= self.options.max_alternatives {
            return Ok(());
        }
        let reason = format!("combinators expand to {n} alternatives, more than the limit of {}", self.options.max_alternatives);
        Err(Self::error(at, reason))
    }

    /// Whether no value satisfies both `a` and `b` (`false`: not proven).
    pub fn disjoint(&self, a: &Simple, b: &Simple, depth: usize) -> bool {
        if depth > 8 {
            return false;
        }
        let common = Types::of_simple(a).and(Types::of_simple(b));
        if common.is_empty() {
            return true;
        }
        if let (Some(Value::Array(x)), Some(Value::Array(y))) = (a.get("enum"), b.get("enum")) {
            if !x.iter().any(|v| y.iter().any(|w| same_value(v, w))) {
                return true;
            }
        }
        let per_type = [
            (Types::NULL, false),
            (Types::BOOLEAN, false),
            (Types::INTEGER, ranges_disjoint(a, b, "minimum", "maximum")),
            (Types::FRACTION, ranges_disjoint(a, b, "minimum", "maximum")),
            (
                Types::STRING,
                !common.intersects(Types::STRING)
                    || ranges_disjoint(a, b, "minLength", "maxLength")
                    || self.strings_disjoint(a, b),
            ),
            (Types::ARRAY, ranges_disjoint(a, b, "minItems", "maxItems")),
            (Types::OBJECT, self.objects_disjoint(a, b, depth)),
        ];
        per_type.iter().all(|&(t, disjoint)| !common.intersects(t) || disjoint)
    }

    /// [`strings::pattern`], remembered for this schema's compile.
    pub fn pattern(&self, pattern: &str) -> std::result::Result<StringRegex, String> {
        if let Some(known) = self.patterns.borrow().get(pattern) {
            return known.clone();
        }
        let translated = strings::pattern(pattern);
        self.patterns.borrow_mut().insert(pattern.to_string(), translated.clone());
        translated
    }

    /// [`strings::Languages::meet`] over this compile's DFAs.
    pub fn languages_meet(&self, all: &[String], except: &[String]) -> Option<bool> {
        self.languages.borrow_mut().meet(all, except)
    }

    /// [`strings::Languages::match_sets`] over this compile's DFAs.
    pub(super) fn languages_match_sets(&self, observed: &[String], all: &[String], except: &[String]) -> Option<Vec<u64>> {
        self.languages.borrow_mut().match_sets(observed, all, except)
    }

    /// [`strings_disjoint`], remembered for this schema's compile.
    fn strings_disjoint(&self, a: &Simple, b: &Simple) -> bool {
        let (Some(x), Some(y)) = (string_keywords(a), string_keywords(b)) else { return strings_disjoint(self, a, b) };
        let key = if x <= y { (x, y) } else { (y, x) };
        if let Some(&known) = self.strings_disjoint.borrow().get(&key) {
            return known;
        }
        let disjoint = strings_disjoint(self, a, b);
        self.strings_disjoint.borrow_mut().insert(key, disjoint);
        disjoint
    }

    /// Objects that a required property tells apart, or of which one forbids a property
    /// the other requires.
    fn objects_disjoint(&self, a: &Simple, b: &Simple, depth: usize) -> bool {
        let forbids = |x: &Simple, y: &Simple| {
            let closed = x.get("additionalProperties") == Some(&Value::Bool(false)) && !x.contains_key("patternProperties");
            closed && required(y).any(|name| property(x, name).is_none())
        };
        if forbids(a, b) || forbids(b, a) || counts_disjoint(a, b) {
            return true;
        }
        // A property one side requires, whose value the two sides constrain apart (`type`
        // is a string in one, every member is `false` in the other).
        let values_apart = |x: &Simple, y: &Simple| {
            required(x).any(|name| {
                let (Some(p), Some(q)) = (property_schema(x, name), property_schema(y, name)) else { return false };
                let (Ok(ps), Ok(qs)) = (self.flatten(p, ""), self.flatten(q, "")) else { return false };
                ps.iter().all(|p| qs.iter().all(|q| self.disjoint(p, q, depth + 1)))
            })
        };
        values_apart(a, b) || values_apart(b, a)
    }
}

/// Whether the numbers of members objects of `a` and of `b` may have do not meet: at
/// least `minProperties` and the distinct `required` names, at most `maxProperties`
/// and the keys a closed object may have.
fn counts_disjoint(a: &Simple, b: &Simple) -> bool {
    let fewest = |s: &Simple| {
        let mut names: Vec<&str> = required(s).collect();
        names.sort_unstable();
        names.dedup();
        s.get("minProperties").and_then(Value::as_u64).unwrap_or(0).max(names.len() as u64)
    };
    let most = |s: &Simple| {
        let declared = closed_keys(s).map_or(u64::MAX, |keys| keys.len() as u64);
        s.get("maxProperties").and_then(Value::as_u64).unwrap_or(u64::MAX).min(declared)
    };
    most(a) < fewest(b) || most(b) < fewest(a)
}

/// A schema every value of member `name` meets in objects of `s`: its declared schema,
/// or `additionalProperties` where no `patternProperties` may claim the name (`None`:
/// nothing known; an absent `additionalProperties` admits anything).
fn property_schema<'s>(s: &'s Simple, name: &str) -> Option<&'s Value> {
    property(s, name).or_else(|| if s.contains_key("patternProperties") { None } else { s.get("additionalProperties") })
}

/// The keys objects of `s` may have, when they are finitely many (`s` forbids
/// undeclared properties).
fn closed_keys(s: &Simple) -> Option<Vec<String>> {
    if s.get("additionalProperties") != Some(&Value::Bool(false)) || s.contains_key("patternProperties") {
        return None;
    }
    let mut keys: Vec<String> = s.get("properties").and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k.clone()).collect();
    keys.extend(required(s).map(String::from));
    keys.sort();
    keys.dedup();
    Some(keys)
}

/// The objects without property `name`.
fn object_lacking(name: &str) -> Simple {
    let mut s = Simple::new();
    s.insert("type".into(), Value::from(Types::OBJECT.0));
    s.insert("properties".into(), serde_json::json!({ name: false }));
    s
}

/// The values other than the array or object `value`, as a union of simple schemas:
/// another type; for an array, another length or, at some index, another element; for
/// an object, a key missing, a key with another value, or another key.
fn other_than(value: &Value) -> Vec<Simple> {
    let typed = |types: Types, keywords: Value| {
        let mut s: Simple = keywords.as_object().cloned().unwrap_or_default().into_iter().collect();
        s.insert("type".into(), Value::from(types.0));
        s
    };
    let not_this = |x: &Value| serde_json::json!({ "not": { "enum": [x] } });
    match value {
        Value::Array(items) => {
            let n = items.len();
            let mut out = vec![typed(Types(Types::ALL.0 & !Types::ARRAY.0), serde_json::json!({}))];
            if n > 0 {
                out.push(typed(Types::ARRAY, serde_json::json!({ "maxItems": n - 1 })));
            }
            out.push(typed(Types::ARRAY, serde_json::json!({ "minItems": n + 1 })));
            for (i, item) in items.iter().enumerate() {
                let prefix: Vec<Value> = (0..i).map(|_| Value::Bool(true)).chain([not_this(item)]).collect();
                out.push(typed(Types::ARRAY, serde_json::json!({ "minItems": n, "maxItems": n, "prefixItems": prefix })));
            }
            out
        }
        Value::Object(members) => {
            let mut out = vec![typed(Types(Types::ALL.0 & !Types::OBJECT.0), serde_json::json!({}))];
            out.extend(members.keys().map(|k| object_lacking(k)));
            for (k, member) in members {
                out.push(typed(Types::OBJECT, serde_json::json!({ "required": [k], "properties": { k: not_this(member) } })));
            }
            let names: Vec<&String> = members.keys().collect();
            let other_keys = match names.is_empty() {
                true => serde_json::json!({ "type": "string" }),
                false => serde_json::json!({ "type": "string", "not": { "enum": names } }),
            };
            out.extend(some_member(other_keys, Value::Bool(true)));
            out
        }
        _ => {
            let mut s = Simple::new();
            s.insert("not".into(), serde_json::json!([{ "enum": [value] }]));
            vec![s]
        }
    }
}

/// The objects with some member whose key meets `keys` and whose value meets `value`
/// ([`SOME_MEMBER`]); `None` when no value does.
fn some_member(keys: Value, value: Value) -> Option<Simple> {
    if value == Value::Bool(false) {
        return None;
    }
    let mut s = Simple::new();
    s.insert("type".into(), Value::from(Types::OBJECT.0));
    s.insert(SOME_MEMBER.into(), serde_json::json!([{ "keys": keys, "value": value }]));
    Some(s)
}

/// The keys `additionalProperties` of `s` applies to: those `properties` does not
/// declare and no `patternProperties` pattern matches.
fn undeclared_keys(s: &Simple) -> Value {
    let declared: Vec<&String> = s.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys()).collect();
    let patterns = s.get("patternProperties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys());
    let mut taken: Vec<Value> = patterns.map(|pattern| serde_json::json!({ "pattern": pattern })).collect();
    if !declared.is_empty() {
        taken.push(serde_json::json!({ "enum": declared }));
    }
    if taken.is_empty() {
        return serde_json::json!({ "type": "string" });
    }
    serde_json::json!({ "type": "string", "not": { "anyOf": taken } })
}

/// The values failing `schema`, as a schema.
fn negated(schema: &Value) -> Value {
    match schema {
        Value::Bool(b) => Value::Bool(!b),
        _ => serde_json::json!({ "not": schema }),
    }
}

pub(super) fn required(s: &Simple) -> impl Iterator<Item = &str> {
    s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str)
}

fn property<'s>(s: &'s Simple, name: &str) -> Option<&'s Value> {
    s.get("properties").and_then(|p| p.get(name))
}

/// The largest value a count keyword (`minLength`, `maxItems`, ...) may take: the lexer
/// counts a string's length in 32 bits, `u32::MAX` standing for no bound.
const MAX_COUNT: u64 = u32::MAX as u64 - 1;

/// A non-negative integer keyword, at most [`MAX_COUNT`]. A larger one is an error, not
/// a bound rounded to one the engine holds: `{"not": {"maxLength": 1e20}}` read as a
/// rounded bound had accepted every string.
pub(super) fn count(s: &Simple, keyword: &str, at: &str) -> Result<Option<u64>> {
    let Some(v) = s.get(keyword) else { return Ok(None) };
    let whole = v.as_u64().map(|n| n as f64).or_else(|| v.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0));
    match whole {
        Some(n) if n <= MAX_COUNT as f64 => Ok(Some(n as u64)),
        Some(_) => Err(Schemas::error(at, format!("{keyword} {v} is larger than the largest count supported ({MAX_COUNT})"))),
        None => Err(Schemas::error(at, format!("{keyword} must be a non-negative integer"))),
    }
}

/// The keywords of `s` that [`strings_disjoint`] reads, written out as one text
/// (`None` if they cannot be: then the answer is not remembered).
fn string_keywords(s: &Simple) -> Option<String> {
    let read: Vec<Option<&Value>> = strings::KEYWORDS.iter().chain(&["enum"]).map(|k| s.get(*k)).collect();
    serde_json::to_string(&read).ok()
}

/// Whether no string satisfies both `a` and `b`, by their string regexes and `enum`
/// strings (`false`: not proven). It reads only the [`string_keywords`].
fn strings_disjoint(schemas: &Schemas, a: &Simple, b: &Simple) -> bool {
    // The regexes a string must match; empty when no string is admitted.
    let language = |s: &Simple| -> Option<Vec<String>> {
        let Some((mut all, _)) = strings::of_simple(schemas, s, &[], "").ok()? else { return Some(Vec::new()) };
        if let Some(Value::Array(values)) = s.get("enum") {
            let spelled: Vec<String> = values.iter().filter_map(Value::as_str).map(strings::literal).collect();
            if spelled.is_empty() {
                return Some(Vec::new());
            }
            all.push(format!("(?:{})", spelled.join("|")));
        }
        Some(all)
    };
    let (Some(mut x), Some(y)) = (language(a), language(b)) else { return false };
    if x.is_empty() || y.is_empty() {
        return true;
    }
    x.extend(y);
    schemas.languages_meet(&x, &[]) == Some(false)
}

/// Whether the `[min, max]` ranges of two schemas (inclusive bounds) cannot meet.
fn ranges_disjoint(a: &Simple, b: &Simple, min: &str, max: &str) -> bool {
    let lo = |s: &Simple| s.get(min).and_then(Value::as_f64).unwrap_or(f64::NEG_INFINITY);
    let hi = |s: &Simple| s.get(max).and_then(Value::as_f64).unwrap_or(f64::INFINITY);
    hi(a) < lo(b) || hi(b) < lo(a)
}

/// `X` when `not` holds `{"not": X}` (annotations aside): `not not X` is `X`.
fn double_negated(not: &Value) -> Option<&Value> {
    let map = not.as_object()?;
    let inner = map.get("not")?;
    map.keys().all(|k| k == "not" || ANNOTATIONS.contains(&k.as_str())).then_some(inner)
}

/// Keywords the compiler interprets or refuses; any other keyword is an annotation.
const ASSERTIONS: &[&str] = &[
    "type", "enum", "const", "properties", "patternProperties", "required", "pattern", "format", "not",
    "additionalProperties", "items", "additionalItems", "prefixItems", "propertyNames", "contains", "minContains",
    "maxContains", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
    "minItems", "maxItems", "minProperties", "maxProperties", "uniqueItems", "multipleOf", "dependencies",
    "dependentRequired", "dependentSchemas", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems",
    "nullable", "$dynamicRef", "$recursiveRef", SOME_MEMBER,
];

/// JSON Schema's equality of two values: numbers by their exact value (`1` equals `1.0`,
/// `2^53 + 1` does not equal `2^53` written as a float), arrays item by item, objects
/// regardless of member order.
///
/// `Value`'s own `==` tells an integer from a float of the same value: an `allOf` of
/// `enum: [1.0]` and `const: 1` then had no value, and `oneOf` branches `enum: [1]` and
/// `enum: [1.0]` were proven disjoint, so `1` (matching both) was accepted.
pub(super) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => same_number(x, y),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_value(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

fn same_number(x: &serde_json::Number, y: &serde_json::Number) -> bool {
    let integer = |n: &serde_json::Number| n.as_i64().map(i128::from).or_else(|| n.as_u64().map(i128::from));
    match (integer(x), integer(y)) {
        (Some(i), Some(j)) => i == j,
        (Some(i), None) => float_equals_integer(y.as_f64(), i),
        (None, Some(j)) => float_equals_integer(x.as_f64(), j),
        (None, None) => x.as_f64() == y.as_f64(),
    }
}

/// Whether a float is exactly the integer `i`: `i` as a float may round to it without
/// being it, so the comparison is made in integers (a float beyond `i128` saturates,
/// and no JSON integer reaches `i128`'s bounds).
fn float_equals_integer(f: Option<f64>, i: i128) -> bool {
    f.is_some_and(|f| f.fract() == 0.0 && f as i128 == i)
}

fn schema_list<'v>(value: &'v Value, at: &str, keyword: &str) -> Result<&'v Vec<Value>> {
    match value {
        Value::Array(list) if !list.is_empty() => Ok(list),
        _ => Err(Schemas::error(at, format!("{keyword} must be a non-empty array of schemas"))),
    }
}

/// Puts one simple schema's keywords in the forms [`merge`] and the emitter expect.
fn normalize_keywords(s: &mut Simple, draft: Draft, at: &str) -> Result<()> {
    if let Some(value) = s.remove("const") {
        let value = match s.remove("enum") {
            Some(Value::Array(values)) if !values.iter().any(|v| same_value(v, &value)) => Value::Array(Vec::new()),
            _ => Value::Array(vec![value]),
        };
        s.insert("enum".into(), value);
    }
    if let Some(t) = s.get("type") {
        let types = match t {
            Value::String(name) => Types::named(name).ok_or_else(|| Schemas::error(at, format!("unknown type {name:?}")))?,
            Value::Array(names) => {
                let mut types = Types(0);
                for n in names {
                    let name = n.as_str().ok_or_else(|| Schemas::error(at, "type names must be strings"))?;
                    types = Types(types.0 | Types::named(name).ok_or_else(|| Schemas::error(at, format!("unknown type {name:?}")))?.0);
                }
                types
            }
            _ => return Err(Schemas::error(at, "type must be a string or an array of strings")),
        };
        let nullable = s.get("nullable") == Some(&Value::Bool(true));
        let types = if nullable { Types(types.0 | Types::NULL.0) } else { types };
        s.insert("type".into(), Value::from(types.0));
    }
    s.remove("nullable");
    // Each `contains` of an `allOf` needs its own element: a list, as `pattern`'s.
    if let Some(wanted) = s.remove("contains") {
        s.insert("contains".into(), Value::Array(vec![wanted]));
    }
    if draft == Draft::Draft4 {
        for (flag, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
            if let Some(Value::Bool(exclusive)) = s.get(flag).cloned() {
                s.remove(flag);
                if exclusive {
                    if let Some(value) = s.remove(bound) {
                        s.insert(flag.into(), value);
                    }
                }
            }
        }
    }
    if draft < Draft::Draft2020 {
        scope_items_over_prefix(s);
    }
    for keyword in ["pattern", "format", "not"] {
        if let Some(v) = s.remove(keyword) {
            s.insert(keyword.into(), Value::Array(vec![v]));
        }
    }
    Ok(())
}

/// The order of two bounds' values ([`numbers::compare`]: integers beyond a float's
/// precision too).
fn numeric_order(a: &Value, b: &Value, at: &str) -> Result<std::cmp::Ordering> {
    match (a.as_number(), b.as_number()) {
        (Some(a), Some(b)) => Ok(numbers::compare(a, b)),
        _ => Err(Schemas::error(at, "a bound must be a number")),
    }
}

/// Before 2020-12, `prefixItems` is an unknown keyword and `items` (one schema) holds
/// of every element. `prefixItems` is enforced in every draft (as the schema's author
/// meant it), but must not widen `items` there: `items` also holds of the prefix, so the
/// array meets both readings (`prefixItems: [{}]` beside `items: false` is no element).
fn scope_items_over_prefix(s: &mut Simple) {
    let Some(items) = s.get("items").filter(|items| !items.is_array()).cloned() else { return };
    if let Some(Value::Array(prefix)) = s.get_mut("prefixItems") {
        for schema in prefix.iter_mut() {
            *schema = serde_json::json!({ "allOf": [schema.take(), items.clone()] });
        }
    }
}

/// `value`, `n` times: copies first, `value` itself last (so a schema used once is
/// never copied).
fn copies<T: Clone>(value: T, n: usize) -> impl Iterator<Item = T> {
    let mut value = Some(value);
    (0..n).filter_map(move |i| if i + 1 < n { value.clone() } else { value.take() })
}

/// The conjunction of two simple schemas, keyword by keyword; `None` when nothing
/// satisfies both. Both are consumed, `b` merged into `a` in place (schemas hold whole
/// subtrees: copies of them were most of the cost of a large `allOf`).
pub(super) fn merge(schemas: &Schemas, a: Simple, b: Simple, at: &str) -> Result<Option<Simple>> {
    let (a_before, b_before) = (scoping_view(&a, &b), scoping_view(&b, &a));
    let mut out = a;
    for (k, vb) in b {
        let Some(va) = out.get(&k) else {
            out.insert(k, vb);
            continue;
        };
        if *va == vb {
            continue;
        }
        if matches!(k.as_str(), "properties" | "patternProperties") {
            if let Some(va) = out.get_mut(&k) {
                merge_maps(va, vb);
            }
            continue;
        }
        let vb = &vb;
        let merged = match k.as_str() {
            "type" => {
                let t = Types(va.as_u64().unwrap_or(0) as u8).and(Types(vb.as_u64().unwrap_or(0) as u8));
                if t.is_empty() {
                    return Ok(None);
                }
                Value::from(t.0)
            }
            "enum" => {
                let (Value::Array(x), Value::Array(y)) = (va, vb) else {
                    return Err(Schemas::error(at, "enum must be an array"));
                };
                let both: Vec<Value> = x.iter().filter(|v| y.iter().any(|w| same_value(v, w))).cloned().collect();
                if both.is_empty() {
                    return Ok(None);
                }
                Value::Array(both)
            }
            "required" | "pattern" | "format" | "not" | "contains" | SOME_MEMBER => {
                let mut list = va.as_array().cloned().unwrap_or_default();
                for v in vb.as_array().into_iter().flatten() {
                    if !list.contains(v) {
                        list.push(v.clone());
                    }
                }
                Value::Array(list)
            }
            "additionalProperties" | "items" | "additionalItems" | "propertyNames" => {
                serde_json::json!({ "allOf": [va, vb] })
            }
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties" => {
                if numeric_order(va, vb, at)?.is_ge() { va.clone() } else { vb.clone() }
            }
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" => {
                if numeric_order(va, vb, at)?.is_le() { va.clone() } else { vb.clone() }
            }
            "uniqueItems" => Value::Bool(va == &Value::Bool(true) || vb == &Value::Bool(true)),
            // A multiple of both is a multiple of their least common multiple.
            "multipleOf" => match (va.as_number(), vb.as_number()) {
                (Some(a), Some(b)) => match numbers::common_multiple(a, b) {
                    Some(both) => Value::Number(both),
                    None => return Err(Schemas::error(at, format!("allOf combines multipleOf {va} and {vb}, whose common multiple is not supported"))),
                },
                _ => return Err(Schemas::error(at, "multipleOf must be a number")),
            },
            // An annotation or unknown keyword: no constraint to combine.
            other if !ASSERTIONS.contains(&other) => continue,
            _ => {
                return Err(Schemas::error(at, format!("allOf combines two different values of `{k}`, which is not supported")))
            }
        };
        out.insert(k, merged);
    }
    scope_additional_properties(schemas, &mut out, &a_before, &b_before, at)?;
    scope_additional_properties(schemas, &mut out, &b_before, &a_before, at)?;
    scope_items(&mut out, &a_before, &b_before);
    scope_items(&mut out, &b_before, &a_before);
    Ok(Some(out))
}

/// What [`scope_additional_properties`] and [`scope_items`] read of `a`, the schema
/// being merged with `b`, as it was before the merge: the keywords of extent where one
/// of the two has `additionalProperties` (each declared property's schema left out:
/// only the names are read), `prefixItems`, and `items` where `b` has `prefixItems`
/// for it to apply to.
fn scoping_view(a: &Simple, b: &Simple) -> Simple {
    let mut view = Simple::new();
    let copy = |view: &mut Simple, keyword: &str| {
        if let Some(value) = a.get(keyword) {
            view.insert(keyword.into(), value.clone());
        }
    };
    if a.contains_key("additionalProperties") || b.contains_key("additionalProperties") {
        copy(&mut view, "additionalProperties");
        copy(&mut view, "required");
        for keyword in ["properties", "patternProperties"] {
            if let Some(Value::Object(map)) = a.get(keyword) {
                let names = map.keys().map(|name| (name.clone(), Value::Null)).collect();
                view.insert(keyword.into(), Value::Object(names));
            }
        }
    }
    copy(&mut view, "prefixItems");
    if b.contains_key("prefixItems") {
        copy(&mut view, "items");
    }
    view
}

/// In `allOf`, `x`'s `items`, when it applies to every element (`x` has no
/// `prefixItems`), also applies to the elements of `y`'s `prefixItems`.
fn scope_items(out: &mut Simple, x: &Simple, y: &Simple) {
    let Some(items) = x.get("items").filter(|v| !v.is_array()) else { return };
    if x.contains_key("prefixItems") || items == &Value::Bool(true) {
        return;
    }
    let Some(Value::Array(prefix)) = y.get("prefixItems") else { return };
    let scoped = prefix.iter().map(|p| serde_json::json!({ "allOf": [p, items] })).collect();
    out.insert("prefixItems".into(), Value::Array(scoped));
}

/// In `allOf`, `x`'s `additionalProperties` also applies to the members only `y`
/// claims: the properties only `y` declares (unless one of `x`'s `patternProperties`
/// matches the name) and the keys of `y`'s `patternProperties`. The merged schema
/// would otherwise leave those members to `y` alone: `{"zz": 1}` met the `allOf` of
/// `additionalProperties: false` and `patternProperties: {"^z": {}}`.
fn scope_additional_properties(schemas: &Schemas, out: &mut Simple, x: &Simple, y: &Simple, at: &str) -> Result<()> {
    let Some(additional) = x.get("additionalProperties") else { return Ok(()) };
    if additional == &Value::Bool(true) {
        return Ok(());
    }
    let own = x.get("properties").and_then(Value::as_object);
    let own_patterns = pattern_spellings(schemas, x, at)?;
    let claimed = |name: &str| {
        let spelled = serde_json::to_string(name).unwrap_or_default();
        own.is_some_and(|own| own.contains_key(name)) || own_patterns.iter().any(|(_, p)| p.any(&spelled))
    };
    // Names `y` only requires stay undeclared: the merged `additionalProperties`
    // (both sides') covers them, where declaring them here took them from `y`'s.
    let foreign: Vec<String> =
        y.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys()).filter(|name| !claimed(name)).cloned().collect();
    let foreign_patterns: Vec<(String, Spellings)> =
        pattern_spellings(schemas, y, at)?.into_iter().filter(|(p, _)| !own_patterns.iter().any(|(q, _)| q == p)).collect();
    if !foreign_patterns.is_empty() {
        // A key of `y`'s pattern is `x`'s additional member unless `x` claims it; only
        // a pattern no claim of `x` can meet takes `additional` whole.
        let names_met = own.into_iter().flat_map(|own| own.keys()).any(|name| {
            let spelled = serde_json::to_string(name).unwrap_or_default();
            foreign_patterns.iter().any(|(_, p)| p.any(&spelled))
        });
        if !own_patterns.is_empty() || names_met {
            return Err(Schemas::error(
                at,
                "allOf combines additionalProperties with patternProperties another branch declares, over keys the first also claims",
            ));
        }
        scope_into(out, "patternProperties", foreign_patterns.into_iter().map(|(p, _)| p).collect(), additional, at)?;
    }
    scope_into(out, "properties", foreign, additional, at)
}

/// `x`'s `patternProperties` patterns, each with a matcher of the key spellings it matches.
fn pattern_spellings(schemas: &Schemas, x: &Simple, at: &str) -> Result<Vec<(String, Spellings)>> {
    strings::pattern_properties(schemas, x, at)?.iter().map(|p| Ok((p.pattern.to_string(), p.keys(at)?))).collect()
}

/// Puts `additional` beside the schemas of `names` in `out`'s map `keyword`.
fn scope_into(out: &mut Simple, keyword: &str, names: Vec<String>, additional: &Value, at: &str) -> Result<()> {
    if names.is_empty() {
        return Ok(());
    }
    let map = out.entry(keyword).or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(map) = map else {
        return Err(Schemas::error(at, format!("{keyword} must be an object")));
    };
    for name in names {
        let declared = map.get(&name).cloned().unwrap_or(Value::Bool(true));
        map.insert(name, serde_json::json!({ "allOf": [declared, additional] }));
    }
    Ok(())
}

/// Merges the property map `b` into `a`: a property both declare differently gets
/// both schemas (`allOf`). (`a`, when not a map, becomes one.)
fn merge_maps(a: &mut Value, b: Value) {
    if !a.is_object() {
        *a = Value::Object(Map::new());
    }
    let (Value::Object(out), Value::Object(b)) = (a, b) else { return };
    for (k, vb) in b {
        match out.get_mut(&k) {
            Some(va) if *va != vb => *va = all_of(std::mem::take(va), vb),
            Some(_) => {}
            None => _ = out.insert(k, vb),
        }
    }
}

/// `{"allOf": [a, b]}`.
fn all_of(a: Value, b: Value) -> Value {
    Value::Object(Map::from_iter([("allOf".to_string(), Value::Array(vec![a, b]))]))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
