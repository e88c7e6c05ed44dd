//! JSON Schema front-end: a schema in, a [`Grammar`] of the JSON texts it accepts out.
//!
//! [`Grammar::from_json_schema`] compiles drafts 4, 6, 7, 2019-09 and 2020-12 (the
//! draft named by `$schema`, 2020-12 when there is none). The grammar accepts a JSON
//! text exactly when it is valid against the schema, within the limits below; a keyword
//! the compiler cannot enforce is an [`Error::Schema`] naming it
//! and where it is, never a silently looser grammar. `docs/json-schema.md` lists the
//! keywords.
//!
//! The stages, one module each:
//! - `normalize`: `$ref`, `allOf`, `anyOf`, `oneOf` to unions of combinator-free
//!   schemas; exactness checks for `oneOf`;
//! - `emit`: those schemas to productions, one nonterminal per schema and `$ref`;
//! - `strings`, `numbers`, `formats`: string and number constraints as regexes over
//!   JSON spellings, intersected by the lexer ([`TerminalPattern::Compound`]).
//!
//! Where the grammar is narrower than the schema (it never is wider):
//! - properties appear in any order for objects declaring up to
//!   `max_any_order_properties` of them; larger objects take the declared order or the
//!   required ones first, undeclared ones after;
//! - constrained strings (by `pattern`, `format`, length, `enum` or as object keys) are
//!   spelled as serializers write them (characters as themselves except `"`, `\` and
//!   control characters; a control character in each of its escapes); numbers with
//!   bounds or `multipleOf` in plain decimal notation.
//!
//! [`TerminalPattern::Compound`]: crate::ir::TerminalPattern::Compound
//!
//! # Example
//! ```
//! use stackmask::Grammar;
//!
//! let grammar = Grammar::from_json_schema(r#"{
//!     "type": "object",
//!     "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 0}},
//!     "required": ["name"],
//!     "additionalProperties": false
//! }"#).unwrap();
//! assert!(grammar.productions.len() > 5);
//!
//! let err = Grammar::from_json_schema(r#"{"type": "array", "uniqueItems": true}"#).unwrap_err();
//! assert_eq!(err.to_string(), "JSON Schema error at #: `uniqueItems` is not supported");
//! ```

mod admits;
mod emit;
mod formats;
mod normalize;
mod numbers;
mod strings;
#[cfg(test)]
mod tests;

use crate::error::{Error, LimitKind, Position, Result};
use crate::ir::{Grammar, GrammarLimits};
use serde_json::Value;

/// Whitespace between JSON tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Whitespace {
    /// Any JSON whitespace between tokens (the default).
    #[default]
    Flexible,
    /// None at all: the most compact spelling.
    Compact,
}

/// Which `format` values are asserted in which draft.
///
/// # Example
/// ```
/// use stackmask::frontend::json_schema::{compile_json_schema, Formats, JsonSchemaOptions};
/// use stackmask::{CompiledGrammar, matcher::Recognizer};
/// use std::sync::Arc;
///
/// let schema = r#"{"$schema": "http://json-schema.org/draft-07/schema#", "format": "uuid"}"#;
/// let accepts = |formats| {
///     let options = JsonSchemaOptions { formats, ..JsonSchemaOptions::default() };
///     let grammar = compile_json_schema(schema, &options).unwrap().grammar;
///     let mut r = Recognizer::new(Arc::new(CompiledGrammar::new(&grammar).unwrap()));
///     r.feed(br#""not a uuid""#).is_ok() && r.is_complete().unwrap()
/// };
/// assert!(!accepts(Formats::EveryDraft));
/// // Draft-07 does not define `uuid`: there it is an unknown format, an annotation.
/// assert!(accepts(Formats::OfTheDraft));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Formats {
    /// Every format this compiler enforces, whatever the draft (the default): as
    /// MaskBench's labels read them (Python `jsonschema`'s `FormatChecker()`, which
    /// checks `date` in a draft-04 schema and `uuid` in a draft-06 one).
    #[default]
    EveryDraft,
    /// Only the formats the schema's draft defines (`uuid` and `duration` from 2019-09,
    /// `date` and `time` from draft-07, `uri-reference` from draft-06); a later one is
    /// an unknown format there, an annotation, as the `jsonschema` crate reads it.
    OfTheDraft,
}

/// How `oneOf` is compiled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OneOf {
    /// Exactly one branch must match. Branches proven disjoint (by type, `enum`/`const`
    /// values, a required discriminator property, a property one branch forbids and the
    /// other requires, ranges, or string languages that do not meet) are kept; others
    /// are narrowed to the values the other branches reject, when those complements are
    /// expressible keyword by keyword; otherwise compiling fails.
    #[default]
    Exact,
    /// A `oneOf` whose branches may overlap is compiled as `anyOf` and listed in
    /// [`SchemaGrammar::approximated`]: the grammar may accept values that match two
    /// branches.
    AsAnyOf,
}

/// The orders in which an object's properties may be written.
///
/// JSON objects are unordered, so [`PropertyOrder::Any`] is the exact language, but
/// writing each of `n` properties at most once in any order takes `2^n` rules: objects
/// that declare more than [`JsonSchemaOptions::max_any_order_properties`] properties
/// keep the orders of [`PropertyOrder::DeclaredOrRequiredFirst`]. The value sets are
/// the same in every mode; only which spellings of an object are accepted changes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PropertyOrder {
    /// As `properties` declares them, then required properties that are not declared;
    /// undeclared properties after them all.
    Declared,
    /// [`PropertyOrder::Declared`], or the required properties first in `required`'s
    /// order and then the others as declared. Writers (people and models) follow either
    /// list; the parser forks where both orders fit the text.
    DeclaredOrRequiredFirst,
    /// Any order, each declared property at most once, undeclared properties anywhere
    /// among them (the default).
    #[default]
    Any,
}

/// Options for [`compile_json_schema`].
///
/// # Example
/// ```
/// use stackmask::frontend::json_schema::{compile_json_schema, JsonSchemaOptions, OneOf};
///
/// // `[1]` matches both branches, and a tuple's failures have no schema here.
/// let schema = r#"{"oneOf": [{"prefixItems": [{"type": "integer"}]}, {"items": {"type": "integer"}}]}"#;
/// assert!(compile_json_schema(schema, &JsonSchemaOptions::default()).is_err());
/// let options = JsonSchemaOptions { one_of: OneOf::AsAnyOf, ..JsonSchemaOptions::default() };
/// let compiled = compile_json_schema(schema, &options).unwrap();
/// assert_eq!(compiled.approximated, ["#/oneOf"]);
/// ```
#[derive(Clone, Debug)]
pub struct JsonSchemaOptions {
    /// Whitespace between tokens. Default [`Whitespace::Flexible`].
    pub whitespace: Whitespace,
    /// `oneOf` semantics. Default [`OneOf::Exact`].
    pub one_of: OneOf,
    /// Which formats are asserted in which draft. Default [`Formats::EveryDraft`].
    pub formats: Formats,
    /// Property orders accepted. Default [`PropertyOrder::Any`].
    pub property_order: PropertyOrder,
    /// Most declared properties an object may have for [`PropertyOrder::Any`] to apply
    /// to it (an object with `n` takes about `n * 2^n` rules). Default 8; values above 16
    /// count as 16.
    pub max_any_order_properties: usize,
    /// Limits checked while building the grammar.
    pub limits: GrammarLimits,
    /// Longest schema text accepted, in bytes. Default 4 MiB.
    pub max_schema_bytes: usize,
    /// Most simple schemas one schema may expand to when `allOf`, `anyOf` and `oneOf`
    /// distribute over each other, or when a `oneOf` branch is narrowed to the values
    /// the other branches reject. Default 2,048.
    pub max_alternatives: usize,
    /// Largest `minItems`/`maxItems` compiled (each count is a rule). Default 1,024.
    pub max_repetition: usize,
    /// Wall-clock budget of the translation to a grammar (`$ref`s and combinators
    /// flattened, `oneOf` branches proven disjoint or narrowed, rules emitted), checked
    /// as it goes: past it the compile fails with [`LimitKind::SchemaCompileTime`](crate::LimitKind::SchemaCompileTime).
    /// `None`: no budget. Default 10 s, as the lexer's and the LR tables' budgets.
    ///
    /// # Example
    /// ```
    /// use stackmask::frontend::json_schema::{compile_json_schema, JsonSchemaOptions};
    /// use std::time::Duration;
    /// let options = JsonSchemaOptions { time_budget: Some(Duration::ZERO), ..JsonSchemaOptions::default() };
    /// let err = compile_json_schema(r#"{"type": "object"}"#, &options).unwrap_err();
    /// assert!(err.to_string().contains("JSON Schema translation time"), "{err}");
    /// ```
    pub time_budget: Option<std::time::Duration>,
}

impl Default for JsonSchemaOptions {
    fn default() -> Self {
        JsonSchemaOptions {
            whitespace: Whitespace::Flexible,
            one_of: OneOf::Exact,
            formats: Formats::EveryDraft,
            property_order: PropertyOrder::Any,
            max_any_order_properties: 8,
            limits: GrammarLimits::default(),
            max_schema_bytes: 4 << 20,
            max_alternatives: 2048,
            max_repetition: 1024,
            time_budget: Some(std::time::Duration::from_secs(10)),
        }
    }
}

/// A compiled schema: the grammar, and what it approximates.
#[derive(Clone, Debug)]
pub struct SchemaGrammar {
    /// The grammar of the valid JSON texts.
    pub grammar: Grammar,
    /// JSON pointers of the `oneOf`s compiled as `anyOf` ([`OneOf::AsAnyOf`] only).
    pub approximated: Vec<String>,
}

/// The JSON Schema draft, which decides how `$ref` siblings and `exclusiveMinimum`
/// read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Draft {
    Draft4,
    Draft6,
    Draft7,
    Draft2019,
    Draft2020,
}

impl Draft {
    fn of(schema: &Value) -> Draft {
        let uri = schema.get("$schema").and_then(Value::as_str).unwrap_or("");
        if uri.contains("draft-04") || uri.contains("draft-03") {
            Draft::Draft4
        } else if uri.contains("draft-06") {
            Draft::Draft6
        } else if uri.contains("draft-07") {
            Draft::Draft7
        } else if uri.contains("2019-09") {
            Draft::Draft2019
        } else {
            Draft::Draft2020
        }
    }

    /// Drafts 4 to 7 ignore the keywords beside a `$ref`.
    fn ignores_ref_siblings(self) -> bool {
        matches!(self, Draft::Draft4 | Draft::Draft6 | Draft::Draft7)
    }
}

/// Compiles a JSON Schema to a grammar, reporting approximations.
///
/// # Errors
/// [`Error::Schema`] for text that is not JSON, a malformed schema, or a keyword or
/// value that cannot be enforced (with the JSON pointer of the schema that uses it);
/// [`Error::Limit`] when the text or the grammar is too large;
/// [`Error::EmptyLanguage`] when no JSON value is valid.
///
/// # Example
/// ```
/// use stackmask::frontend::json_schema::{compile_json_schema, JsonSchemaOptions};
///
/// let compiled = compile_json_schema(r#"{"enum": ["red", "green"]}"#, &JsonSchemaOptions::default()).unwrap();
/// assert!(compiled.approximated.is_empty());
/// ```
pub fn compile_json_schema(text: &str, options: &JsonSchemaOptions) -> Result<SchemaGrammar> {
    if text.len() > options.max_schema_bytes {
        return Err(Error::Limit { kind: LimitKind::GrammarBytes, value: text.len(), limit: options.max_schema_bytes });
    }
    let root: Value = serde_json::from_str(text).map_err(|e| Error::Schema {
        pointer: "#".into(),
        reason: format!("not valid JSON: {e}"),
    })?;
    if let Some((at, literal, read)) = numbers::first_inexact_literal(text) {
        let position = Position::of_offset(text, at);
        let reason = format!(
            "the number {literal} ({position}) is beyond what a 64-bit integer or float holds; it would be read as {read}"
        );
        return Err(Error::Schema { pointer: "#".into(), reason });
    }
    compile_json_schema_value(&root, options)
}

/// [`compile_json_schema`] for a schema already parsed. Its numbers are what the parse
/// made of them: `serde_json` reads an integer beyond 64 bits, or a fraction with more
/// digits than a float keeps, as the nearest float, and the grammar then bounds or
/// lists that value. [`compile_json_schema`] refuses such literals in the text.
///
/// # Errors
/// As [`compile_json_schema`].
pub fn compile_json_schema_value(root: &Value, options: &JsonSchemaOptions) -> Result<SchemaGrammar> {
    let schemas = normalize::Schemas {
        root,
        draft: Draft::of(root),
        options,
        approximated: std::cell::RefCell::new(Vec::new()),
        narrowings: std::cell::Cell::new(0),
        strings_disjoint: Default::default(),
        patterns: Default::default(),
        languages: Default::default(),
        nesting: Default::default(),
        too_deep: Default::default(),
        deadline: crate::error::Deadline::total(options.time_budget, crate::LimitKind::SchemaCompileTime),
        steps: Default::default(),
    };
    let grammar = emit::Emitter::new(&schemas, options.whitespace).finish();
    // A proof may have given up on the nesting error or the budget and let the compile
    // go on.
    if schemas.too_deep.get() {
        return Err(schemas.nested_too_deep("#"));
    }
    schemas.deadline.check()?;
    let grammar = grammar?;
    let mut approximated = schemas.approximated.into_inner();
    approximated.sort();
    approximated.dedup();
    Ok(SchemaGrammar { grammar, approximated })
}

impl Grammar {
    /// Compiles a JSON Schema with default options: exact `oneOf`, flexible whitespace.
    ///
    /// See the [module documentation](crate::frontend::json_schema).
    ///
    /// # Errors
    /// As [`compile_json_schema`].
    ///
    /// # Example
    /// ```
    /// use stackmask::Grammar;
    ///
    /// let grammar = Grammar::from_json_schema(r#"{"type": "array", "items": {"type": "integer"}}"#).unwrap();
    /// assert!(!grammar.productions.is_empty());
    /// ```
    pub fn from_json_schema(text: &str) -> Result<Grammar> {
        Self::from_json_schema_with(text, &JsonSchemaOptions::default())
    }

    /// Compiles a JSON Schema with the given options. Approximated `oneOf`s (with
    /// [`OneOf::AsAnyOf`]) are not reported; use [`compile_json_schema`] to see them.
    ///
    /// # Errors
    /// As [`compile_json_schema`].
    pub fn from_json_schema_with(text: &str, options: &JsonSchemaOptions) -> Result<Grammar> {
        compile_json_schema(text, options).map(|compiled| compiled.grammar)
    }
}
