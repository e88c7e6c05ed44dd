//! Whether one JSON value satisfies a schema: how an `enum` of objects or arrays is
//! filtered by the object and array keywords beside it.
//!
//! The checks reuse the regexes the grammar is built from (strings, numbers, property
//! names), so a value is admitted here exactly when the grammar of the same keywords
//! would accept its spelling. A keyword these checks do not know is an error, never a
//! pass.

use super::emit::{spelling, Emitter, UNSUPPORTED};
use super::normalize::{count, required, same_value, Schemas, Simple, Types, SOME_MEMBER};
use super::strings::{self, Spellings};
use crate::error::Result;
use serde_json::{Map, Value};

/// How deep values may nest for [`Emitter::admits`].
const MAX_DEPTH: usize = 64;

impl Emitter<'_> {
    /// Whether `value` satisfies `schema` (any schema: `$ref`s and combinators are
    /// flattened first).
    pub(super) fn admits(&self, schema: &Value, value: &Value, at: &str, depth: usize) -> Result<bool> {
        if depth > MAX_DEPTH {
            return Err(Schemas::error(at, format!("an enum value nests deeper than {MAX_DEPTH}")));
        }
        for simple in self.schemas.flatten(schema, at)? {
            if self.admits_simple(&simple, value, at, depth)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether `value` satisfies the simple schema `s`.
    pub(super) fn admits_simple(&self, s: &Simple, value: &Value, at: &str, depth: usize) -> Result<bool> {
        if let Some(keyword) = UNSUPPORTED.iter().find(|k| s.contains_key(**k)) {
            return Err(Schemas::error(at, format!("`{keyword}` is not supported")));
        }
        if !Types::of_simple(s).contains(Types::of(value)) {
            return Ok(false);
        }
        if let Some(Value::Array(values)) = s.get("enum") {
            if !values.iter().any(|v| same_value(v, value)) {
                return Ok(false);
            }
        }
        for not in s.get("not").and_then(Value::as_array).into_iter().flatten() {
            if self.admits(not, value, &format!("{at}/not"), depth + 1)? {
                return Ok(false);
            }
        }
        let spelled = || spelling(value);
        match value {
            Value::String(_) => Ok(match strings::of_simple(self.schemas, s, &[], at)? {
                Some((all, _)) => Spellings::new(&all, at)?.all(&spelled()),
                None => false,
            }),
            Value::Number(_) => Ok(match self.number_regexes(s, Types::NUMBER, at)? {
                Some(all) => Spellings::of_languages(&all, at)?.all(&spelled()),
                None => false,
            }),
            Value::Object(members) => self.admits_object(s, members, at, depth),
            Value::Array(items) => self.admits_array(s, items, at, depth),
            Value::Null | Value::Bool(_) => Ok(true),
        }
    }

    fn admits_object(&self, s: &Simple, members: &Map<String, Value>, at: &str, depth: usize) -> Result<bool> {
        if required(s).any(|name| !members.contains_key(name)) {
            return Ok(false);
        }
        let n = members.len() as u64;
        if count(s, "minProperties", at)?.is_some_and(|min| n < min) || count(s, "maxProperties", at)?.is_some_and(|max| n > max) {
            return Ok(false);
        }
        let declared = s.get("properties").and_then(Value::as_object);
        let patterns = strings::pattern_properties(self.schemas, s, at)?
            .into_iter()
            .map(|p| Ok((p.keys(at)?, p.schema)))
            .collect::<Result<Vec<_>>>()?;
        let names = self.property_name_regexes(s, at)?;
        let names = (!names.is_empty()).then(|| Spellings::new(&names, at)).transpose()?;
        for (name, member) in members {
            let spelled = serde_json::to_string(name).unwrap_or_default();
            if names.as_ref().is_some_and(|names| !names.all(&spelled)) {
                return Ok(false);
            }
            let own = declared.and_then(|p| p.get(name));
            let mut matched = own.is_some();
            if let Some(schema) = own {
                if !self.admits(schema, member, at, depth + 1)? {
                    return Ok(false);
                }
            }
            for (pattern, schema) in &patterns {
                if pattern.any(&spelled) {
                    matched = true;
                    if !self.admits(schema, member, at, depth + 1)? {
                        return Ok(false);
                    }
                }
            }
            if !matched {
                let additional = s.get("additionalProperties").unwrap_or(&Value::Bool(true));
                if !self.admits(additional, member, at, depth + 1)? {
                    return Ok(false);
                }
            }
        }
        for wanted in s.get(SOME_MEMBER).and_then(Value::as_array).into_iter().flatten() {
            let (keys, schema) = (&wanted["keys"], &wanted["value"]);
            let meets = |(name, member): (&String, &Value)| {
                Ok(self.admits(keys, &Value::String(name.clone()), at, depth + 1)? && self.admits(schema, member, at, depth + 1)?)
            };
            if !try_any(members, meets)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn admits_array(&self, s: &Simple, items: &[Value], at: &str, depth: usize) -> Result<bool> {
        let n = items.len() as u64;
        if count(s, "minItems", at)?.is_some_and(|min| n < min) || count(s, "maxItems", at)?.is_some_and(|max| n > max) {
            return Ok(false);
        }
        if s.get("uniqueItems") == Some(&Value::Bool(true))
            && items.iter().enumerate().any(|(i, a)| items[..i].iter().any(|b| same_value(a, b)))
        {
            return Ok(false);
        }
        let (tuple, rest) = match (s.get("prefixItems"), s.get("items")) {
            (Some(Value::Array(prefix)), items) => (prefix.as_slice(), items),
            (None, Some(Value::Array(prefix))) => (prefix.as_slice(), s.get("additionalItems")),
            (_, items) => (&[][..], items),
        };
        for contains in s.get("contains").and_then(Value::as_array).into_iter().flatten() {
            let at = format!("{at}/contains");
            if !try_any(items, |item| self.admits(contains, item, &at, depth + 1))? {
                return Ok(false);
            }
        }
        let any = Value::Bool(true);
        for (i, item) in items.iter().enumerate() {
            let schema = tuple.get(i).or(rest).unwrap_or(&any);
            if !self.admits(schema, item, at, depth + 1)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Whether `test` holds of some element, stopping at the first that does or at the first error.
fn try_any<T>(elements: impl IntoIterator<Item = T>, mut test: impl FnMut(T) -> Result<bool>) -> Result<bool> {
    for element in elements {
        if test(element)? {
            return Ok(true);
        }
    }
    Ok(false)
}
