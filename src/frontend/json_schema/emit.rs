//! Simple schemas to grammar productions.
//!
//! Every schema becomes a nonterminal whose productions are the alternatives of its
//! simple schemas ([`Schemas::flatten`]), one per admitted type. A `$ref` becomes the
//! nonterminal of its target, built once (so recursive schemas are recursive rules).
//! Strings, numbers and object keys are single terminals, built by [`strings`],
//! [`numbers`] and [`formats`], intersected in the lexer where a schema puts several
//! constraints on one string or number.

use super::normalize::{count, Schemas, Simple, Types, ANNOTATIONS, SOME_MEMBER};
use super::strings::{self, PatternProperty, Spellings};
use super::{numbers, PropertyOrder, Whitespace};
use crate::error::Result;
use crate::ir::{GrammarBuilder, Language, NonterminalId, Symbol, TerminalId, TerminalPattern};
use hashbrown::HashMap;
use serde_json::Value;

/// Assertion keywords this compiler cannot enforce: a schema using one fails to
/// compile, naming it, rather than accepting values that break it.
pub(super) const UNSUPPORTED: &[&str] = &[
    "unevaluatedProperties",
    "unevaluatedItems",
    "minContains",
    "maxContains",
    "$dynamicRef",
    "$recursiveRef",
];

/// The most declared properties any order is built for, whatever the options say:
/// `2^16` member sets already pass the default production limit, and the set is a `u64`.
const MAX_ANY_ORDER_PROPERTIES: usize = 16;

/// The most (member set, member count) pairs a counted member list is built for
/// (`minProperties`/`maxProperties` beyond what the declared properties imply).
const MAX_COUNTED_STATES: usize = 1 << 12;

pub(super) struct Emitter<'a> {
    pub(super) schemas: &'a Schemas<'a>,
    b: GrammarBuilder,
    terminals: HashMap<String, TerminalId>,
    refs: HashMap<String, NonterminalId>,
    /// Nonterminals of inline schemas, by their JSON text.
    by_content: HashMap<String, NonterminalId>,
    pending: Vec<(NonterminalId, String)>,
    punct: Punct,
    any_value: Option<NonterminalId>,
}

/// The terminals of JSON's punctuation and literals.
struct Punct {
    lbrace: Symbol,
    rbrace: Symbol,
    lbrack: Symbol,
    rbrack: Symbol,
    comma: Symbol,
    colon: Symbol,
    null: Symbol,
    r#true: Symbol,
    r#false: Symbol,
}

/// One property of an object schema, in the order values spell them.
struct Member {
    name: String,
    key: Symbol,
    value: NonterminalId,
    /// The schema `value` is the nonterminal of.
    schema: Value,
    /// The property's place in `required`, if it is required.
    required: Option<usize>,
}

/// The members of one `patternProperties` overlap class, or the additional ones: keys
/// matching every regex of `all` and none of `except`, values meeting `schema`.
struct Extra {
    key: Symbol,
    value: NonterminalId,
    all: Vec<String>,
    except: Vec<String>,
    schema: Value,
}

/// One [`SOME_MEMBER`] requirement: some member's key is in one of the `keys`
/// languages (regexes to match, regexes to exclude) and its value meets `value`.
struct Witness {
    keys: Vec<(Vec<String>, Vec<String>)>,
    /// `keys` compiled, to test declared names against.
    matchers: Vec<(Spellings, Spellings)>,
    value: Value,
}

impl Witness {
    /// Whether the key spelled `spelled` is in one of the `keys` languages.
    fn takes_key(&self, spelled: &str) -> bool {
        self.matchers.iter().any(|(all, except)| all.all(spelled) && !except.any(spelled))
    }
}

/// The most [`SOME_MEMBER`] requirements one object, or `contains` schemas one array,
/// is built for: each doubles the states of its member or element list.
const MAX_WITNESSES: usize = 6;

impl<'a> Emitter<'a> {
    pub fn new(schemas: &'a Schemas<'a>, whitespace: Whitespace) -> Emitter<'a> {
        let mut b = GrammarBuilder::new();
        b.limits(schemas.options.limits.clone());
        let mut term = |name: &str, regex: &str| {
            Symbol::Terminal(b.terminal(name, TerminalPattern::Regex(regex.into()), 0, false))
        };
        let punct = Punct {
            lbrace: term("LBRACE", r"\{"),
            rbrace: term("RBRACE", r"\}"),
            lbrack: term("LBRACK", r"\["),
            rbrack: term("RBRACK", r"\]"),
            comma: term("COMMA", ","),
            colon: term("COLON", ":"),
            null: term("NULL", "null"),
            r#true: term("TRUE", "true"),
            r#false: term("FALSE", "false"),
        };
        if whitespace == Whitespace::Flexible {
            b.terminal("WS", TerminalPattern::Regex(r"[ \t\n\r]+".into()), 0, true);
        }
        Emitter {
            schemas,
            b,
            terminals: HashMap::new(),
            refs: HashMap::new(),
            by_content: HashMap::new(),
            pending: Vec::new(),
            punct,
            any_value: None,
        }
    }

    /// Builds the grammar of the root schema.
    pub fn finish(mut self) -> Result<crate::ir::Grammar> {
        let start = self.b.nonterminal("start");
        let root = self.schema(self.schemas.root, "#")?;
        self.b.production(start, vec![Symbol::Nonterminal(root)]);
        while let Some((nt, pointer)) = self.pending.pop() {
            let (target, _) = self.schemas.resolve(&pointer, &pointer)?;
            self.define(nt, target, &pointer)?;
        }
        self.b.build(start)
    }

    /// The nonterminal of `schema`.
    fn schema(&mut self, schema: &Value, at: &str) -> Result<NonterminalId> {
        if let Some(pointer) = self.schemas.plain_ref(schema, at)? {
            return Ok(self.reference(pointer));
        }
        if admits_everything(schema) {
            return self.any_value();
        }
        // A schema met again (merging through a recursive `$ref` rebuilds the same
        // subschema) reuses its nonterminal, which also ends the recursion.
        let key = serde_json::to_string(schema).unwrap_or_default();
        if let Some(&nt) = self.by_content.get(&key) {
            return Ok(nt);
        }
        let nt = self.b.nonterminal(&nonterminal_name(at));
        self.by_content.insert(key, nt);
        self.define(nt, schema, at)?;
        Ok(nt)
    }

    fn reference(&mut self, pointer: String) -> NonterminalId {
        if let Some(&nt) = self.refs.get(&pointer) {
            return nt;
        }
        let nt = self.b.nonterminal(&nonterminal_name(&pointer));
        self.refs.insert(pointer.clone(), nt);
        self.pending.push((nt, pointer));
        nt
    }

    fn define(&mut self, nt: NonterminalId, schema: &Value, at: &str) -> Result<()> {
        for simple in self.schemas.flatten(schema, at)? {
            for alternative in self.simple(&simple, at)? {
                self.production(nt, alternative)?;
            }
        }
        Ok(())
    }

    fn production(&mut self, lhs: NonterminalId, rhs: Vec<Symbol>) -> Result<()> {
        let limit = self.schemas.options.limits.max_productions;
        if self.b.production_count() >= limit {
            return Err(crate::Error::Limit {
                kind: crate::LimitKind::Productions,
                value: self.b.production_count() + 1,
                limit,
            });
        }
        self.b.production(lhs, rhs);
        Ok(())
    }

    fn terminal(&mut self, pattern: TerminalPattern) -> Symbol {
        let key = format!("{pattern:?}");
        if let Some(&t) = self.terminals.get(&key) {
            return Symbol::Terminal(t);
        }
        let name = format!("T{}", self.terminals.len());
        let t = self.b.terminal(&name, pattern, 0, false);
        self.terminals.insert(key, t);
        Symbol::Terminal(t)
    }

    fn regex_terminal(&mut self, regex: String) -> Symbol {
        self.terminal(TerminalPattern::Regex(regex))
    }

    /// The alternatives (right-hand sides) of one simple schema.
    fn simple(&mut self, s: &Simple, at: &str) -> Result<Vec<Vec<Symbol>>> {
        if let Some(keyword) = UNSUPPORTED.iter().find(|k| s.contains_key(**k)) {
            return Err(Schemas::error(at, format!("`{keyword}` is not supported")));
        }
        let mut types = Types::of_simple(s);
        let nots = self.negations(s, at)?;
        types = types.and(Types(!nots.types.0));
        if let Some(Value::Array(values)) = s.get("enum") {
            return self.enumeration(s, values, types, &nots, at);
        }
        if types.intersects(nots.composites) {
            return Err(Schemas::error(at, "`not` of an enum with arrays or objects is supported only beside an `enum`"));
        }
        let mut out = Vec::new();
        if types.contains(Types::NULL) {
            out.push(vec![self.punct.null]);
        }
        if types.contains(Types::BOOLEAN) {
            for (value, symbol) in [(true, self.punct.r#true), (false, self.punct.r#false)] {
                if !nots.booleans.contains(&value) {
                    out.push(vec![symbol]);
                }
            }
        }
        if types.intersects(Types::NUMBER) {
            if let Some(number) = self.number(s, types.and(Types::NUMBER), &nots.numbers, at)? {
                out.push(vec![number]);
            }
        }
        if types.contains(Types::STRING) {
            for (required, excluded) in string_cases(&nots, self.schemas.options.max_alternatives, at)? {
                if let Some(string) = self.string(s, &required, &excluded, at)? {
                    out.push(vec![string]);
                }
            }
        }
        if types.contains(Types::ARRAY) {
            out.extend(self.array(s, at)?);
        }
        if types.contains(Types::OBJECT) {
            out.extend(self.object(s, at)?);
        }
        Ok(out)
    }

    /// What the `not` keywords of `s` exclude. `not` of a union is the intersection
    /// of the negations of its members; each member may exclude whole types, strings
    /// equal to some values, or strings matching a pattern (`not {pattern}` also
    /// excludes every non-string, which satisfies `{pattern}`).
    fn negations(&self, s: &Simple, at: &str) -> Result<Negations> {
        let mut out = Negations {
            types: Types(0),
            strings: Vec::new(),
            string_conjunctions: Vec::new(),
            numbers: Vec::new(),
            booleans: Vec::new(),
            composites: Types(0),
        };
        for (i, not) in s.get("not").and_then(Value::as_array).into_iter().flatten().enumerate() {
            let at = format!("{at}/not/{i}");
            for negated in self.schemas.flatten(not, &at)? {
                let types = Types::of_simple(&negated);
                let keys: Vec<&str> = negated.keys().map(String::as_str).filter(|k| *k != "type").collect();
                match keys.as_slice() {
                    [] => out.types = Types(out.types.0 | types.0),
                    ["enum"] => {
                        for value in negated["enum"].as_array().into_iter().flatten() {
                            match value {
                                Value::String(text) => out.strings.push(strings::literal(text)),
                                Value::Null => out.types = Types(out.types.0 | Types::NULL.0),
                                Value::Bool(b) => out.booleans.push(*b),
                                Value::Number(n) => out.numbers.push(Language::Regex(numbers::spellings(n))),
                                Value::Array(_) | Value::Object(_) => out.composites = Types(out.composites.0 | Types::of(value).0),
                            }
                        }
                    }
                    string_keywords
                        if string_keywords.iter().all(|k| strings::KEYWORDS.contains(k))
                            && (Types::STRING.contains(types) || types == Types::ALL) =>
                    {
                        // `{pattern}` and its kin admit every non-string: `not` excludes them.
                        if types == Types::ALL {
                            out.types = Types(out.types.0 | (Types::ALL.0 & !Types::STRING.0));
                        }
                        match strings::of_simple(self.schemas, &negated, &[], &at)?.map(|(all, _)| all) {
                            None => {}
                            Some(mut all) if all.len() == 1 => out.strings.extend(all.pop()),
                            Some(all) => out.string_conjunctions.push(all),
                        }
                    }
                    ["multipleOf"] => {
                        // Values of other types meet `multipleOf`: `not` excludes them.
                        out.types = Types(out.types.0 | (types.0 & !Types::NUMBER.0));
                        if types.intersects(Types::NUMBER) {
                            out.numbers.push(multiples(&negated["multipleOf"], true, &at)?);
                        }
                    }
                    _ => return Err(Schemas::error(&at, format!("`not` with {} is not supported", keys.join(", ")))),
                }
            }
        }
        Ok(out)
    }

    fn enumeration(
        &mut self,
        s: &Simple,
        values: &[Value],
        types: Types,
        nots: &Negations,
        at: &str,
    ) -> Result<Vec<Vec<Symbol>>> {
        let other: Vec<&str> = s
            .keys()
            .map(String::as_str)
            .filter(|k| !matches!(*k, "enum" | "type" | "not") && !ANNOTATIONS.contains(k) && !ignorable(k))
            .collect();
        let excluded_strings = Spellings::new(&nots.strings, at)?;
        let excluded_conjunctions = nots.string_conjunctions.iter().map(|all| Spellings::new(all, at)).collect::<Result<Vec<_>>>()?;
        let excluded_numbers = Spellings::of_languages(&nots.numbers, at)?;
        // What the keywords beside the enum demand of string and number values (`None`:
        // no value of that type is admitted), built only for types the enum holds.
        let has = |is: fn(&Value) -> bool| !other.is_empty() && values.iter().any(is);
        let strings_ok = if has(Value::is_string) {
            strings::of_simple(self.schemas, s, &[], at)?.map(|(all, _)| Spellings::new(&all, at)).transpose()?
        } else {
            Some(Spellings::none())
        };
        let numbers_ok = if has(Value::is_number) {
            self.number_regexes(s, Types::NUMBER, at)?.map(|all| Spellings::of_languages(&all, at)).transpose()?
        } else {
            Some(Spellings::none())
        };
        // An integer where `type` admits only integers is spelled as one (as `type:
        // integer` alone spells it): `1.0` is no integer in draft 4.
        let integers_only = s.get("type").and_then(Value::as_u64).is_some_and(|bits| !Types(bits as u8).intersects(Types::FRACTION));
        // The object and array keywords (and any `not`), checked value by value.
        let mut beside = s.clone();
        beside.remove("enum");
        let mut out = Vec::new();
        for value in values {
            let spelled = spelling(value);
            let admitted = types.intersects(Types::of(value))
                && match value {
                    Value::String(_) => {
                        !excluded_strings.any(&spelled)
                            && !excluded_conjunctions.iter().any(|all| all.all(&spelled))
                            && strings_ok.as_ref().is_some_and(|ok| ok.all(&spelled))
                    }
                    Value::Number(_) => {
                        !excluded_numbers.any(&spelled) && numbers_ok.as_ref().is_some_and(|ok| ok.all(&spelled))
                    }
                    Value::Bool(b) => !nots.booleans.contains(b),
                    // `not` of objects and arrays too: `beside` keeps the `not`s.
                    Value::Object(_) | Value::Array(_) => self.admits_simple(&beside, value, at, 0)?,
                    Value::Null => true,
                };
            if !admitted {
                continue;
            }
            out.push(match value {
                Value::Number(n) if integers_only => vec![self.regex_terminal(numbers::integer_spellings(n))],
                _ => self.literal(value),
            });
        }
        Ok(out)
    }

    /// The symbols spelling exactly `value` (numbers in any plain spelling of it).
    fn literal(&mut self, value: &Value) -> Vec<Symbol> {
        match value {
            Value::Null => vec![self.punct.null],
            Value::Bool(true) => vec![self.punct.r#true],
            Value::Bool(false) => vec![self.punct.r#false],
            Value::Number(n) => vec![self.regex_terminal(numbers::spellings(n))],
            Value::String(text) => vec![self.regex_terminal(strings::literal(text))],
            Value::Array(items) => {
                let mut out = vec![self.punct.lbrack];
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(self.punct.comma);
                    }
                    out.extend(self.literal(item));
                }
                out.push(self.punct.rbrack);
                out
            }
            Value::Object(members) => {
                let mut out = vec![self.punct.lbrace];
                for (i, (key, item)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(self.punct.comma);
                    }
                    out.push(self.regex_terminal(strings::literal(key)));
                    out.push(self.punct.colon);
                    out.extend(self.literal(item));
                }
                out.push(self.punct.rbrace);
                out
            }
        }
    }

    /// The nonterminal of any JSON value.
    fn any_value(&mut self) -> Result<NonterminalId> {
        if let Some(nt) = self.any_value {
            return Ok(nt);
        }
        let nt = self.b.nonterminal("any_value");
        self.any_value = Some(nt);
        for alternative in self.simple(&Simple::new(), "#")? {
            self.production(nt, alternative)?;
        }
        Ok(nt)
    }

    // ----- numbers -----

    fn number(&mut self, s: &Simple, kinds: Types, excluded: &[Language], at: &str) -> Result<Option<Symbol>> {
        let Some(mut all) = self.number_regexes(s, kinds, at)? else { return Ok(None) };
        if !excluded.is_empty() && all[0] == Language::regex(numbers::ANY_NUMBER) {
            // Exclusions list plain spellings; an exponent spelling of an excluded value
            // (`1e0`) must not slip through.
            all[0] = Language::regex(numbers::PLAIN_NUMBER);
        }
        let pattern = match (all.as_slice(), excluded.is_empty()) {
            ([Language::Regex(regex)], true) => TerminalPattern::Regex(regex.clone()),
            _ => TerminalPattern::Compound { all, except: excluded.to_vec() },
        };
        Ok(Some(self.terminal(pattern)))
    }

    /// The regexes whose intersection is the numbers of `kinds` (integers, fractions or
    /// both) that `s` admits; `None` if none is.
    pub(super) fn number_regexes(&self, s: &Simple, kinds: Types, at: &str) -> Result<Option<Vec<Language>>> {
        let fractions = kinds.contains(Types::FRACTION);
        let mut bounds = Vec::new();
        for (keyword, side, strict) in [
            ("minimum", numbers::Side::Above, false),
            ("exclusiveMinimum", numbers::Side::Above, true),
            ("maximum", numbers::Side::Below, false),
            ("exclusiveMaximum", numbers::Side::Below, true),
        ] {
            if let Some(v) = s.get(keyword) {
                let v = v.as_number().ok_or_else(|| Schemas::error(at, format!("{keyword} must be a number")))?;
                bounds.push(Language::Regex(numbers::bound(side, v, strict)));
            }
        }
        let base = match (kinds.contains(Types::INTEGER), fractions, bounds.is_empty()) {
            (true, false, _) => numbers::ANY_INTEGER,
            (false, true, _) => numbers::NON_INTEGER,
            (true, true, true) => numbers::ANY_NUMBER,
            (true, true, false) => numbers::PLAIN_NUMBER,
            (false, false, _) => return Ok(None),
        };
        let mut all = vec![Language::regex(base)];
        if let Some(m) = s.get("multipleOf") {
            all.push(multiples(m, fractions, at)?);
        }
        all.extend(bounds);
        Ok(Some(all))
    }

    // ----- strings -----

    /// The strings of `s` that also match every regex of `required` and none of
    /// `excluded`.
    fn string(&mut self, s: &Simple, required: &[String], excluded: &[String], at: &str) -> Result<Option<Symbol>> {
        let Some((mut all, except)) = strings::of_simple(self.schemas, s, excluded, at)? else { return Ok(None) };
        all.extend_from_slice(required);
        let pattern = if all.len() == 1 && except.is_empty() {
            TerminalPattern::Regex(all.remove(0))
        } else {
            TerminalPattern::of_regexes(all, except)
        };
        Ok(Some(self.terminal(pattern)))
    }

    // ----- arrays -----

    fn array(&mut self, s: &Simple, at: &str) -> Result<Vec<Vec<Symbol>>> {
        if s.get("uniqueItems") == Some(&Value::Bool(true)) && count(s, "maxItems", at)?.map_or(true, |m| m > 1) {
            return Err(Schemas::error(at, "`uniqueItems` is not supported"));
        }
        let (prefix, rest) = self.array_items(s, None, at)?;
        let min = count(s, "minItems", at)?.map_or(0, |m| m as usize);
        let declared_max = count(s, "maxItems", at)?.map(|m| m as usize);
        // None: unbounded.
        let max = match (declared_max, rest) {
            (Some(m), Some(_)) => Some(m),
            (Some(m), None) => Some(m.min(prefix.len())),
            (None, None) => Some(prefix.len()),
            (None, Some(_)) => None,
        };
        if max.is_some_and(|max| max < min) {
            return Ok(Vec::new());
        }
        // One nonterminal per count of written elements up to `last`; beyond it, an
        // unbounded array repeats `rest` with a left-recursive rule.
        let last = max.unwrap_or(prefix.len().max(min).max(1));
        let limit = self.schemas.options.max_repetition.max(prefix.len());
        if last > limit {
            return Err(Schemas::error(at, format!("minItems/maxItems above {limit} are not supported")));
        }
        let element = |i: usize| if i < prefix.len() { Some(prefix[i]) } else { rest };
        let name = nonterminal_name(at);
        if let Some(Value::Array(wanted)) = s.get("contains").filter(|c| c.as_array().is_some_and(|c| !c.is_empty())) {
            if wanted.len() > MAX_WITNESSES {
                let reason = format!("an array asks for more than {MAX_WITNESSES} kinds of element at once (`contains`)");
                return Err(Schemas::error(at, reason));
            }
            // The elements meeting each set of the `contains` schemas, by the set (bit j
            // for schema j).
            let mut witnesses = vec![(Vec::new(), None)];
            for meets in 1..1u64 << wanted.len() {
                let all: Vec<&Value> = members_of(meets).map(|j| &wanted[j]).collect();
                let schema = if let [one] = all[..] { one.clone() } else { serde_json::json!({ "allOf": all }) };
                witnesses.push(self.array_items(s, Some(&schema), at)?);
            }
            let witness = |meets: u64, i: usize| {
                let (prefix, rest) = &witnesses[meets as usize];
                if i < prefix.len() { Some(prefix[i]) } else { *rest }
            };
            return self.array_with_witnesses(&name, element, witness, wanted.len(), min, max, last);
        }
        // written[i]: the first i + 1 elements, left-recursive so that a parse holds a
        // few states however many are written (a right-recursive chain kept every
        // element on the stack until the array closed).
        let written: Vec<NonterminalId> = (0..last).map(|i| self.b.nonterminal(&format!("{name}_written{i}"))).collect();
        let mut out = Vec::new();
        if min == 0 {
            out.push(vec![self.punct.lbrack, self.punct.rbrack]);
        }
        for i in 0..last {
            let Some(e) = element(i) else { break };
            let e = Symbol::Nonterminal(e);
            match i {
                0 => self.production(written[0], vec![e])?,
                _ => self.production(written[i], vec![Symbol::Nonterminal(written[i - 1]), self.punct.comma, e])?,
            }
            if i + 1 >= min {
                out.push(vec![self.punct.lbrack, Symbol::Nonterminal(written[i]), self.punct.rbrack]);
            }
            // Past `last`, an unbounded array repeats its remaining items' schema.
            if let (true, None, Some(more)) = (i + 1 == last, max, element(last)) {
                self.production(written[i], vec![Symbol::Nonterminal(written[i]), self.punct.comma, Symbol::Nonterminal(more)])?;
            }
        }
        Ok(out)
    }

    /// Arrays of `min..=max` elements (`element(i)` at place `i`) in which each of
    /// `k` `contains` schemas is met by some element (`witness(set, i)`: the element's
    /// schema and the `contains` schemas of the set, bit `j` for schema `j`).
    ///
    /// `written[met][i]`: the first `i + 1` elements, among which the schemas of the set
    /// `met` were met; left-recursive as a plain array's list is, so that a parse holds
    /// a few states however many elements are written. An element may be read both ways
    /// (plain, or as meeting schemas not met yet; the GLR parse keeps both); an array
    /// ends only when all are met. Past `last`, an unbounded array repeats its remaining
    /// items' schema, plain or meeting more schemas.
    #[allow(clippy::too_many_arguments)]
    fn array_with_witnesses(
        &mut self,
        name: &str,
        element: impl Fn(usize) -> Option<NonterminalId>,
        witness: impl Fn(u64, usize) -> Option<NonterminalId>,
        k: usize,
        min: usize,
        max: Option<usize>,
        last: usize,
    ) -> Result<Vec<Vec<Symbol>>> {
        let full = (1u64 << k) - 1;
        // Sets the names keep apart: for one schema, "before" and "after" it is met.
        let label = |met: u64| match (k, met) {
            (1, 0) => "before".to_string(),
            (1, _) => "after".to_string(),
            _ => format!("met{met:x}_"),
        };
        let written: Vec<Vec<NonterminalId>> = (0..=full)
            .map(|met| (0..last).map(|i| self.b.nonterminal(&format!("{name}_{}{i}", label(met)))).collect())
            .collect();
        let mut out = Vec::new();
        for i in 0..last {
            let Some(e) = element(i) else { break };
            if i == 0 {
                self.production(written[0][0], vec![Symbol::Nonterminal(e)])?;
                for meets in 1..=full {
                    if let Some(w) = witness(meets, 0) {
                        self.production(written[meets as usize][0], vec![Symbol::Nonterminal(w)])?;
                    }
                }
            } else {
                self.witnessed_step(&written, i - 1, i, e, |meets| witness(meets, i))?;
            }
            if i + 1 >= min {
                let (lbrack, rbrack) = (self.punct.lbrack, self.punct.rbrack);
                out.push(vec![lbrack, Symbol::Nonterminal(written[full as usize][i]), rbrack]);
            }
            if let (true, None, Some(more)) = (i + 1 == last, max, element(last)) {
                self.witnessed_step(&written, i, i, more, |meets| witness(meets, last))?;
            }
        }
        Ok(out)
    }

    /// One more element after `written[met][from]`, for every set `met`: `element`
    /// plain, into `written[met][to]`, or meeting the schemas of a set `meets` not all
    /// met yet (`witness(meets)`), into `written[met | meets][to]`.
    fn witnessed_step(
        &mut self,
        written: &[Vec<NonterminalId>],
        from: usize,
        to: usize,
        element: NonterminalId,
        witness: impl Fn(u64) -> Option<NonterminalId>,
    ) -> Result<()> {
        let comma = self.punct.comma;
        let full = written.len() as u64 - 1;
        for met in 0..=full {
            let before = Symbol::Nonterminal(written[met as usize][from]);
            self.production(written[met as usize][to], vec![before, comma, Symbol::Nonterminal(element)])?;
            for meets in (1..=full).filter(|meets| meets & !met != 0) {
                if let Some(w) = witness(meets) {
                    self.production(written[(met | meets) as usize][to], vec![before, comma, Symbol::Nonterminal(w)])?;
                }
            }
        }
        Ok(())
    }

    /// The tuple prefix and the schema of the remaining items (`None`: no more items),
    /// each also meeting `witness` when there is one (`contains`).
    fn array_items(
        &mut self,
        s: &Simple,
        witness: Option<&Value>,
        at: &str,
    ) -> Result<(Vec<NonterminalId>, Option<NonterminalId>)> {
        let (tuple, rest) = match (s.get("prefixItems"), s.get("items")) {
            (Some(Value::Array(prefix)), items) => (Some(prefix), items),
            (None, Some(Value::Array(prefix))) => (Some(prefix), s.get("additionalItems")),
            (_, items) => (None, items),
        };
        let mut item = |schema: &Value, at: &str| match witness {
            Some(w) => self.schema(&serde_json::json!({ "allOf": [schema, w] }), &format!("{at}/contains")),
            None => self.schema(schema, at),
        };
        let mut prefix = Vec::new();
        for (i, schema) in tuple.into_iter().flatten().enumerate() {
            prefix.push(item(schema, &format!("{at}/items/{i}"))?);
        }
        let rest = match rest {
            Some(Value::Bool(false)) => None,
            Some(schema) => Some(item(schema, &format!("{at}/items"))?),
            None if witness.is_some() => Some(item(&Value::Bool(true), &format!("{at}/items"))?),
            None => Some(self.any_value()?),
        };
        Ok((prefix, rest))
    }

    // ----- objects -----

    fn object(&mut self, s: &Simple, at: &str) -> Result<Vec<Vec<Symbol>>> {
        let patterns = strings::pattern_properties(self.schemas, s, at)?;
        let key_regexes = self.property_name_regexes(s, at)?;
        let Some(members) = self.members(s, &patterns, &key_regexes, at)? else { return Ok(Vec::new()) };
        let extra = self.extra_members(s, &patterns, &key_regexes, at)?;
        let required = members.iter().filter(|m| m.required.is_some()).count();
        let min = count(s, "minProperties", at)?.map_or(0, |m| m as usize);
        let max = count(s, "maxProperties", at)?.map(|m| m as usize);
        if max.is_some_and(|m| m < required) {
            return Ok(Vec::new());
        }
        let name = nonterminal_name(at);
        let witnesses = self.witnesses(s, at)?;
        let options = &self.schemas.options;
        let any_order = options.property_order == PropertyOrder::Any
            && members.len() <= options.max_any_order_properties.min(MAX_ANY_ORDER_PROPERTIES);
        // Counts that required and declared properties already imply, and
        // `minProperties: 1` (the object is not empty), need no counting.
        let implied = min <= required.max(1) && !max.is_some_and(|m| m < members.len() || !extra.is_empty());
        // An undeclared key may be written twice (the grammar cannot tell keys of one
        // pattern apart), and a parser keeps one of them: such members may count
        // toward `maxProperties` (narrower) but never toward `minProperties`.
        let min_needs_extras = !implied && !extra.is_empty() && min > required.max(1);
        if !witnesses.is_empty() {
            if !any_order || min_needs_extras {
                return Err(Schemas::error(
                    at,
                    "`not` of propertyNames, patternProperties or additionalProperties is supported only for \
                     objects built in any order with few properties, and beside minProperties only when \
                     undeclared properties are not allowed",
                ));
            }
            let (min, max) = if implied { (0, None) } else { (min, max) };
            let list = self.witness_list(&name, &members, &extra, &witnesses, min, max, at)?;
            return Ok(vec![vec![self.punct.lbrace, Symbol::Nonterminal(list), self.punct.rbrace]]);
        }
        let extra_member = if extra.is_empty() { None } else { Some(self.extra_member(&name, &extra)?) };
        let declared: Vec<&Member> = members.iter().collect();
        let mut out = Vec::new();
        if required == 0 && min == 0 {
            out.push(vec![self.punct.lbrace, self.punct.rbrace]);
        }
        if !implied {
            let bound = max.unwrap_or(min);
            if !any_order || min_needs_extras || bound.saturating_add(1).saturating_mul(1 << declared.len()) > MAX_COUNTED_STATES {
                return Err(Schemas::error(
                    at,
                    "minProperties/maxProperties beyond what required and declared properties imply are supported \
                     only for objects built in any order, with few properties and small counts, and minProperties \
                     only when undeclared properties are not allowed",
                ));
            }
            let list = self.counted_list(&name, &declared, extra_member, min, max)?;
            out.push(vec![self.punct.lbrace, Symbol::Nonterminal(list), self.punct.rbrace]);
            return Ok(out);
        }
        if any_order {
            let list = self.any_order_list(&name, &declared, extra_member)?;
            out.push(vec![self.punct.lbrace, Symbol::Nonterminal(list), self.punct.rbrace]);
            return Ok(out);
        }
        let extras = match extra_member {
            Some(member) => Some(self.extra_list(&name, member)?),
            None => None,
        };
        let mut orders = vec![(declared.clone(), name.clone())];
        if self.schemas.options.property_order != PropertyOrder::Declared {
            let mut required_first = declared.clone();
            required_first.sort_by_key(|m| m.required.unwrap_or(usize::MAX));
            if !required_first.iter().zip(&declared).all(|(a, b)| std::ptr::eq(*a, *b)) {
                orders.push((required_first, format!("{name}_req")));
            }
        }
        for (order, name) in orders {
            let list = self.member_list(&name, &order, extras)?;
            out.push(vec![self.punct.lbrace, Symbol::Nonterminal(list), self.punct.rbrace]);
        }
        Ok(out)
    }

    /// The [`SOME_MEMBER`] requirements of `s`, their key schemas as languages of key
    /// spellings.
    fn witnesses(&mut self, s: &Simple, at: &str) -> Result<Vec<Witness>> {
        let Some(Value::Array(entries)) = s.get(SOME_MEMBER) else { return Ok(Vec::new()) };
        if entries.len() > MAX_WITNESSES {
            let reason = format!("`not` of object keywords asks for more than {MAX_WITNESSES} kinds of member at once");
            return Err(Schemas::error(at, reason));
        }
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            let (Some(keys), Some(value)) = (entry.get("keys"), entry.get("value")) else {
                return Err(Schemas::error(at, "malformed member requirement"));
            };
            let keys = self.key_languages(keys, at)?;
            let matchers =
                keys.iter().map(|(all, except)| Ok((Spellings::new(all, at)?, Spellings::new(except, at)?))).collect::<Result<_>>()?;
            out.push(Witness { keys, matchers, value: value.clone() });
        }
        Ok(out)
    }

    /// The key spellings `keys` (a string schema) admits, as pairs of regexes to match
    /// and to exclude, one pair per terminal [`Emitter::simple`] would build for it.
    fn key_languages(&mut self, keys: &Value, at: &str) -> Result<Vec<(Vec<String>, Vec<String>)>> {
        let mut out = Vec::new();
        for s in self.schemas.flatten(keys, at)? {
            if !Types::of_simple(&s).contains(Types::STRING) {
                continue;
            }
            if let Some(Value::Array(values)) = s.get("enum") {
                for value in values {
                    if let Value::String(name) = value {
                        if self.admits_simple(&s, value, at, 0)? {
                            out.push((vec![strings::literal(name)], Vec::new()));
                        }
                    }
                }
                continue;
            }
            let nots = self.negations(&s, at)?;
            if nots.types.contains(Types::STRING) {
                continue;
            }
            for (required, excluded) in string_cases(&nots, self.schemas.options.max_alternatives, at)? {
                if let Some((mut all, except)) = strings::of_simple(self.schemas, &s, &excluded, at)? {
                    all.extend(required);
                    out.push((all, except));
                }
            }
        }
        Ok(out)
    }

    /// A non-empty list of `members` in any order and of undeclared members (`extra`),
    /// as [`Emitter::counted_list`] builds it, in which some member meets each of
    /// `witnesses`.
    ///
    /// The state also holds the set `w` of witnesses met so far. A member whose key
    /// may meet witnesses is also written as their pair (its value meeting their
    /// schemas too), only where that meets one not met yet: a parse takes at most one
    /// such step per witness, and the plain reading stays beside it. The list ends
    /// when `w` holds them all.
    #[allow(clippy::too_many_arguments)]
    fn witness_list(
        &mut self,
        name: &str,
        members: &[Member],
        extra: &[Extra],
        witnesses: &[Witness],
        min: usize,
        max: Option<usize>,
        at: &str,
    ) -> Result<NonterminalId> {
        let n = members.len();
        let flags = 1usize << witnesses.len();
        let full = flags as u64 - 1;
        let cap = max.unwrap_or(min);
        let states = (1usize << n).saturating_mul(cap + 1).saturating_mul(flags);
        if states > MAX_COUNTED_STATES {
            let reason = "`not` of object keywords on an object with this many properties and counts is not supported";
            return Err(Schemas::error(at, reason));
        }
        let required_mask: u64 = members.iter().enumerate().filter(|(_, m)| m.required.is_some()).map(|(i, _)| 1 << i).sum();
        let mut member_pairs = Vec::with_capacity(n);
        for (i, m) in members.iter().enumerate() {
            member_pairs.push(self.witness_member_pairs(name, i, m, witnesses, at)?);
        }
        let extra_pairs = self.witness_extra_members(name, extra, witnesses, at)?;
        let index = |written: u64, count: usize, met: u64| (written as usize * (cap + 1) + count) * flags + met as usize;
        let rest: Vec<NonterminalId> = (0..states).map(|i| self.b.nonterminal(&format!("{name}_w{i:x}"))).collect();
        let next_count = |count: usize| if max.is_some() { count + 1 } else { (count + 1).min(cap) };
        let may_write = |count: usize| !max.is_some_and(|max| count >= max);
        let adds = |meets: u64, met: u64| meets == 0 || meets & !met != 0;
        let comma = self.punct.comma;
        for written in 0..1u64 << n {
            for count in (written.count_ones() as usize).min(cap)..=cap {
                for met in 0..=full {
                    let here = rest[index(written, count, met)];
                    if written & required_mask == required_mask && count >= min && met == full {
                        self.production(here, Vec::new())?;
                    }
                    if !may_write(count) {
                        continue;
                    }
                    let after = next_count(count);
                    for (i, pairs) in member_pairs.iter().enumerate().filter(|(i, _)| written & (1 << i) == 0) {
                        for &(meets, pair) in pairs.iter().filter(|(meets, _)| adds(*meets, met)) {
                            let next = rest[index(written | 1 << i, after, met | meets)];
                            self.production(here, vec![comma, Symbol::Nonterminal(pair), Symbol::Nonterminal(next)])?;
                        }
                    }
                    for &(forced, optional, member) in extra_pairs.iter().filter(|(_, optional, _)| adds(*optional, met)) {
                        let next = rest[index(written, after, met | forced | optional)];
                        self.production(here, vec![comma, Symbol::Nonterminal(member), Symbol::Nonterminal(next)])?;
                    }
                }
            }
        }
        let first = self.b.nonterminal(&format!("{name}_wfirst"));
        if may_write(0) {
            let after = next_count(0);
            for (i, pairs) in member_pairs.iter().enumerate() {
                for &(meets, pair) in pairs {
                    self.production(first, vec![Symbol::Nonterminal(pair), Symbol::Nonterminal(rest[index(1 << i, after, meets)])])?;
                }
            }
            for &(forced, optional, member) in &extra_pairs {
                let next = rest[index(0, after, forced | optional)];
                self.production(first, vec![Symbol::Nonterminal(member), Symbol::Nonterminal(next)])?;
            }
        }
        Ok(first)
    }

    /// The pairs member `m` may be written as: plain (meeting no witness), and for each
    /// set of witnesses its name meets, the pair whose value also meets their schemas;
    /// each with the set (bit `j` for witness `j`).
    fn witness_member_pairs(
        &mut self,
        name: &str,
        i: usize,
        m: &Member,
        witnesses: &[Witness],
        at: &str,
    ) -> Result<Vec<(u64, NonterminalId)>> {
        let spelled = serde_json::to_string(&m.name).unwrap_or_default();
        let named: u64 = witnesses.iter().enumerate().filter(|(_, w)| w.takes_key(&spelled)).map(|(j, _)| 1 << j).sum();
        let mut out = Vec::new();
        for meets in (0..=named).filter(|meets| meets & !named == 0) {
            let at = format!("{at}/properties/{}/meets{meets}", escape_pointer(&m.name));
            let Some(value) = self.meeting(m.value, &m.schema, witnesses, meets, &at)? else { continue };
            let pair = self.b.nonterminal(&format!("{name}_m{i}_{meets}"));
            self.production(pair, vec![m.key, self.punct.colon, Symbol::Nonterminal(value)])?;
            out.push((meets, pair));
        }
        Ok(out)
    }

    /// The undeclared members, by the witnesses they meet: `(forced, optional, member)`.
    ///
    /// A witness asking for a value (`not` of `patternProperties` or
    /// `additionalProperties`) is met by every undeclared member whose key is in its
    /// language: such a member's value must meet it (`forced`). The grammar cannot tell
    /// two undeclared keys apart, and a parser keeps the last of a key written twice:
    /// were one such member enough, `{"b": 1, "b": "x"}` would vouch for `"x"` with
    /// `1`. So these objects are narrower than the schema (every member with such a key
    /// meets the witness, not one). A witness asking for a key alone (`not` of
    /// `propertyNames`) is met by any member with such a key, whichever value is kept:
    /// a member may or may not be read as meeting it (`optional`), as declared ones are.
    fn witness_extra_members(
        &mut self,
        name: &str,
        extra: &[Extra],
        witnesses: &[Witness],
        at: &str,
    ) -> Result<Vec<(u64, u64, NonterminalId)>> {
        let valued: u64 = witnesses.iter().enumerate().filter(|(_, w)| w.value != Value::Bool(true)).map(|(j, _)| 1 << j).sum();
        let full = (1u64 << witnesses.len()) - 1;
        let most = self.schemas.options.max_alternatives;
        let mut out = Vec::new();
        for forced in (0..=valued).filter(|t| t & !valued == 0) {
            // Each class's value nonterminal once the `forced` witnesses are met too
            // (`None`: no value meets them all).
            let mut values = Vec::with_capacity(extra.len());
            for (k, e) in extra.iter().enumerate() {
                values.push(self.meeting(e.value, &e.schema, witnesses, forced, &format!("{at}/additional{k}/meets{forced}"))?);
            }
            for optional in (0..=full & !valued).filter(|u| u & valued == 0) {
                // Keys in the languages of `forced` and `optional`, in none of the other
                // valued witnesses': one (all, except) pair per choice of alternatives.
                let inside = members_of(forced | optional).map(|j| witnesses[j].keys.clone());
                let outside = members_of(valued & !forced).map(|j| outside_cases(&witnesses[j].keys));
                let mut choices: Vec<(Vec<String>, Vec<String>)> = vec![(Vec::new(), Vec::new())];
                for alternatives in inside.chain(outside) {
                    choices = extend_choices(&choices, &alternatives);
                    if choices.len() > most {
                        let reason = format!("member requirements expand to {} key alternatives, more than the limit of {most}", choices.len());
                        return Err(Schemas::error(at, reason));
                    }
                }
                let member = self.b.nonterminal(&format!("{name}_extra{forced:x}_{optional:x}"));
                let mut any = false;
                for (e, value) in extra.iter().zip(&values) {
                    let Some(value) = *value else { continue };
                    for (all, except) in &choices {
                        let all = [&e.all[..], all].concat();
                        let except = [&e.except[..], except].concat();
                        if self.schemas.languages_meet(&all, &except) == Some(false) {
                            continue;
                        }
                        let key = self.terminal(TerminalPattern::of_regexes(all, except));
                        self.production(member, vec![key, self.punct.colon, Symbol::Nonterminal(value)])?;
                        any = true;
                    }
                }
                if any {
                    out.push((forced, optional, member));
                }
            }
        }
        Ok(out)
    }

    /// The value nonterminal of a member whose value (`plain`, of `schema`) also meets
    /// the witnesses of the set `meets`; `plain` itself for none, `None` when no value
    /// meets them all.
    fn meeting(&mut self, plain: NonterminalId, schema: &Value, witnesses: &[Witness], meets: u64, at: &str) -> Result<Option<NonterminalId>> {
        if meets == 0 {
            return Ok(Some(plain));
        }
        let mut schemas = vec![schema.clone()];
        schemas.extend(members_of(meets).map(|j| witnesses[j].value.clone()));
        let schema = serde_json::json!({ "allOf": schemas });
        if self.schemas.flatten(&schema, at)?.is_empty() {
            return Ok(None);
        }
        self.schema(&schema, at).map(Some)
    }

    /// One `key ":" value` nonterminal per member, and the set of the required ones (bit
    /// `i` for member `i`).
    fn member_pairs(&mut self, name: &str, members: &[&Member]) -> Result<(Vec<NonterminalId>, u64)> {
        let required_mask = members.iter().enumerate().filter(|(_, m)| m.required.is_some()).map(|(i, _)| 1 << i).sum();
        let pairs = members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let pair = self.b.nonterminal(&format!("{name}_m{i}"));
                self.production(pair, vec![m.key, self.punct.colon, Symbol::Nonterminal(m.value)]).map(|()| pair)
            })
            .collect::<Result<_>>()?;
        Ok((pairs, required_mask))
    }

    /// A non-empty list of `members` in any order, each at most once and every required
    /// one present, with undeclared members (`extra`) anywhere among them.
    ///
    /// The state is the set `S` of members written so far: `body(S)` is a run of
    /// undeclared members, then `tail(S)`, which either ends (when `S` holds every
    /// required member) or writes one more member `m` and goes on as `body(S + m)`.
    /// Runs are left-recursive and start with their comma, so the grammar is LR(1).
    fn any_order_list(&mut self, name: &str, members: &[&Member], extra: Option<NonterminalId>) -> Result<NonterminalId> {
        let n = members.len();
        let (pairs, required_mask) = self.member_pairs(name, members)?;
        let run = match extra {
            Some(member) => {
                let run = self.b.nonterminal(&format!("{name}_run"));
                self.production(run, vec![self.punct.comma, Symbol::Nonterminal(member)])?;
                self.production(run, vec![Symbol::Nonterminal(run), self.punct.comma, Symbol::Nonterminal(member)])?;
                Some(run)
            }
            None => None,
        };
        let body: Vec<NonterminalId> = (0..1u64 << n).map(|s| self.b.nonterminal(&format!("{name}_s{s:x}"))).collect();
        for written in 0..1u64 << n {
            let tail = self.b.nonterminal(&format!("{name}_t{written:x}"));
            self.production(body[written as usize], vec![Symbol::Nonterminal(tail)])?;
            if let Some(run) = run {
                self.production(body[written as usize], vec![Symbol::Nonterminal(run), Symbol::Nonterminal(tail)])?;
            }
            if written & required_mask == required_mask {
                self.production(tail, Vec::new())?;
            }
            for (i, &pair) in pairs.iter().enumerate().filter(|(i, _)| written & (1 << i) == 0) {
                let next = body[(written | 1 << i) as usize];
                self.production(tail, vec![self.punct.comma, Symbol::Nonterminal(pair), Symbol::Nonterminal(next)])?;
            }
        }
        let first = self.b.nonterminal(&format!("{name}_first"));
        for (i, &pair) in pairs.iter().enumerate() {
            self.production(first, vec![Symbol::Nonterminal(pair), Symbol::Nonterminal(body[1 << i])])?;
        }
        if let Some(member) = extra {
            self.production(first, vec![Symbol::Nonterminal(member), Symbol::Nonterminal(body[0])])?;
        }
        Ok(first)
    }

    /// A non-empty list of `members` in any order, each at most once and every required
    /// one present, with undeclared members (`extra`) anywhere among them, of `min` to
    /// `max` members in all.
    ///
    /// The state is the set `S` of declared members written and the number `c` of
    /// members written (counted up to `max`, or up to `min` when there is no `max`):
    /// `rest(S, c)` ends when `S` holds every required member and `c >= min`, or writes
    /// one more member while `c < max`.
    fn counted_list(
        &mut self,
        name: &str,
        members: &[&Member],
        extra: Option<NonterminalId>,
        min: usize,
        max: Option<usize>,
    ) -> Result<NonterminalId> {
        let n = members.len();
        let cap = max.unwrap_or(min);
        let (pairs, required_mask) = self.member_pairs(name, members)?;
        let index = |written: u64, count: usize| written as usize * (cap + 1) + count;
        let rest: Vec<NonterminalId> = (0..(1usize << n) * (cap + 1))
            .map(|i| self.b.nonterminal(&format!("{name}_c{:x}_{}", i / (cap + 1), i % (cap + 1))))
            .collect();
        // A member written at count `c` leads to count `c + 1`, which stays at `cap`
        // when only `min` is counted.
        let next_count = |count: usize| if max.is_some() { count + 1 } else { (count + 1).min(cap) };
        let may_write = |count: usize| !max.is_some_and(|max| count >= max);
        for written in 0..1u64 << n {
            for count in (written.count_ones() as usize).min(cap)..=cap {
                let here = rest[index(written, count)];
                if written & required_mask == required_mask && count >= min {
                    self.production(here, Vec::new())?;
                }
                if !may_write(count) {
                    continue;
                }
                let after = next_count(count);
                for (i, &pair) in pairs.iter().enumerate().filter(|(i, _)| written & (1 << i) == 0) {
                    let next = rest[index(written | 1 << i, after)];
                    self.production(here, vec![self.punct.comma, Symbol::Nonterminal(pair), Symbol::Nonterminal(next)])?;
                }
                if let Some(member) = extra {
                    let next = rest[index(written, after)];
                    self.production(here, vec![self.punct.comma, Symbol::Nonterminal(member), Symbol::Nonterminal(next)])?;
                }
            }
        }
        let first = self.b.nonterminal(&format!("{name}_first"));
        if may_write(0) {
            let after = next_count(0);
            for (i, &pair) in pairs.iter().enumerate() {
                self.production(first, vec![Symbol::Nonterminal(pair), Symbol::Nonterminal(rest[index(1 << i, after)])])?;
            }
            if let Some(member) = extra {
                self.production(first, vec![Symbol::Nonterminal(member), Symbol::Nonterminal(rest[index(0, after)])])?;
            }
        }
        Ok(first)
    }

    /// A non-empty list of `members` in this order (the optional ones may be left out),
    /// then the `extras` list if any.
    ///
    /// The list is left-recursive, so a parse holds a few states whatever the number of
    /// members written: `last[i]` is a list whose last member is member `i`, and
    /// `ready[k]` such a list, with its comma, before member `k` or a later one (member
    /// `k - 1` and earlier decided). Leaving an optional member out is the unit reduction
    /// `ready[k + 1] → ready[k]`, taken on the lookahead of a later key. (A
    /// right-recursive chain kept every member written on the stack until the object
    /// closed: in an object of a hundred members the mask's walk went down a hundred
    /// levels or more, and built an automaton edge at each level it had not read before.)
    fn member_list(&mut self, name: &str, members: &[&Member], extras: Option<NonterminalId>) -> Result<NonterminalId> {
        let n = members.len();
        let list = self.b.nonterminal(&format!("{name}_list"));
        let optional = |i: usize| members[i].required.is_none();
        let last: Vec<NonterminalId> = (0..n).map(|i| self.b.nonterminal(&format!("{name}_last{i}"))).collect();
        let ready_count = if extras.is_some() { n } else { n.saturating_sub(1) };
        let ready: Vec<NonterminalId> = (1..=ready_count).map(|k| self.b.nonterminal(&format!("{name}_ready{k}"))).collect();
        let ready_at = |k: usize| ready[k - 1];
        for (i, m) in members.iter().enumerate() {
            let kv = [m.key, self.punct.colon, Symbol::Nonterminal(m.value)];
            if (0..i).all(optional) {
                self.production(last[i], kv.to_vec())?;
            }
            if i > 0 {
                self.production(last[i], [&[Symbol::Nonterminal(ready_at(i))], &kv[..]].concat())?;
            }
            if ((i + 1)..n).all(optional) {
                self.production(list, vec![Symbol::Nonterminal(last[i])])?;
            }
        }
        for k in 1..=ready_count {
            self.production(ready_at(k), vec![Symbol::Nonterminal(last[k - 1]), self.punct.comma])?;
            if k >= 2 && optional(k - 1) {
                self.production(ready_at(k), vec![Symbol::Nonterminal(ready_at(k - 1))])?;
            }
        }
        if let Some(extras) = extras {
            if n > 0 {
                self.production(list, vec![Symbol::Nonterminal(ready_at(n)), Symbol::Nonterminal(extras)])?;
            }
            if (0..n).all(optional) {
                self.production(list, vec![Symbol::Nonterminal(extras)])?;
            }
        }
        Ok(list)
    }

    /// The declared properties in order, then required ones that are not declared, whose
    /// names meet `key_regexes` (`propertyNames`); `None` when a required property can
    /// have no value.
    fn members(
        &mut self,
        s: &Simple,
        patterns: &[PatternProperty],
        key_regexes: &[String],
        at: &str,
    ) -> Result<Option<Vec<Member>>> {
        let matchers = patterns
            .iter()
            .map(|p| Ok((p.keys(at)?, p.schema)))
            .collect::<Result<Vec<_>>>()?;
        let required: Vec<&str> = s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let declared = s.get("properties").and_then(Value::as_object);
        let mut names: Vec<&str> = declared.into_iter().flat_map(|p| p.keys().map(String::as_str)).collect();
        for r in &required {
            if !names.contains(r) {
                names.push(r);
            }
        }
        let keys_ok = (!key_regexes.is_empty()).then(|| Spellings::new(key_regexes, at)).transpose()?;
        let mut members = Vec::new();
        for name in names {
            let required_at = required.iter().position(|r| *r == name);
            let spelled = serde_json::to_string(name).unwrap_or_default();
            // A declared name that `propertyNames` rejects cannot be written.
            if keys_ok.as_ref().is_some_and(|ok| !ok.all(&spelled)) {
                if required_at.is_some() {
                    return Ok(None);
                }
                continue;
            }
            let own = declared.and_then(|p| p.get(name));
            let mut schemas: Vec<Value> = own.into_iter().cloned().collect();
            let by_pattern: Vec<Value> =
                matchers.iter().filter(|(m, _)| m.any(&spelled)).map(|(_, schema)| (*schema).clone()).collect();
            if own.is_none() && by_pattern.is_empty() {
                schemas.push(s.get("additionalProperties").cloned().unwrap_or(Value::Bool(true)));
            }
            schemas.extend(by_pattern);
            let schema = if schemas.len() == 1 { schemas.remove(0) } else { serde_json::json!({ "allOf": schemas }) };
            if self.schemas.flatten(&schema, at)?.is_empty() {
                if required_at.is_some() {
                    return Ok(None);
                }
                continue;
            }
            let key = self.regex_terminal(strings::literal(name));
            let value = self.schema(&schema, &format!("{at}/properties/{}", escape_pointer(name)))?;
            members.push(Member { name: name.to_string(), key, value, schema, required: required_at });
        }
        Ok(Some(members))
    }

    /// Key terminals and value nonterminals of the properties not declared: one per set
    /// of `patternProperties` patterns that some key matches exactly (its value meets
    /// all of their schemas), then the additional ones (keys matching none). Declared
    /// names are excluded from all of them; every key meets `names` (`propertyNames`).
    fn extra_members(
        &mut self,
        s: &Simple,
        patterns: &[PatternProperty],
        names: &[String],
        at: &str,
    ) -> Result<Vec<Extra>> {
        let declared: Vec<String> = self.declared_spellings(s);
        let mut out = Vec::new();
        for matched in pattern_overlaps(self.schemas, patterns, names, &declared, at)? {
            let schemas: Vec<&Value> = matched.iter().map(|&i| patterns[i].schema).collect();
            let schema = match schemas[..] {
                [one] => one.clone(),
                _ => serde_json::json!({ "allOf": schemas }),
            };
            if self.schemas.flatten(&schema, at)?.is_empty() {
                continue;
            }
            let mut except = declared.clone();
            except.extend(patterns.iter().enumerate().filter(|(j, _)| !matched.contains(j)).map(|(_, p)| p.regex.0.clone()));
            let mut all: Vec<String> = matched.iter().map(|&i| patterns[i].regex.0.clone()).collect();
            all.extend(names.iter().cloned());
            let key = self.terminal(TerminalPattern::of_regexes(all.clone(), except.clone()));
            let which: Vec<String> = matched.iter().map(usize::to_string).collect();
            let value = self.schema(&schema, &format!("{at}/patternProperties/{}", which.join("+")))?;
            out.push(Extra { key, value, all, except, schema });
        }
        let additional = s.get("additionalProperties").cloned().unwrap_or(Value::Bool(true));
        if !self.schemas.flatten(&additional, at)?.is_empty() {
            let mut except = declared;
            except.extend(patterns.iter().map(|p| p.regex.0.clone()));
            let mut all = vec![strings::length(0, None)];
            all.extend(names.iter().cloned());
            let key = self.terminal(TerminalPattern::of_regexes(all.clone(), except.clone()));
            let value = self.schema(&additional, &format!("{at}/additionalProperties"))?;
            out.push(Extra { key, value, all, except, schema: additional });
        }
        Ok(out)
    }

    fn declared_spellings(&self, s: &Simple) -> Vec<String> {
        let declared = s.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.keys().cloned());
        let required = s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(String::from);
        let mut names: Vec<String> = declared.chain(required).collect();
        names.sort();
        names.dedup();
        names.iter().map(|n| strings::literal(n)).collect()
    }

    /// The regexes `propertyNames` puts on every key (over key spellings).
    pub(super) fn property_name_regexes(&self, s: &Simple, at: &str) -> Result<Vec<String>> {
        let Some(names) = s.get("propertyNames") else { return Ok(Vec::new()) };
        let at = format!("{at}/propertyNames");
        let unsupported = || Schemas::error(&at, "propertyNames other than a string pattern, format, length or enum is not supported");
        let simples = self.schemas.flatten(names, &at)?;
        let [one] = simples.as_slice() else { return Err(unsupported()) };
        let known = |k: &String| matches!(k.as_str(), "type" | "pattern" | "format" | "minLength" | "maxLength" | "enum");
        if !one.keys().all(known) || !Types::of_simple(one).contains(Types::STRING) {
            return Err(unsupported());
        }
        let Some((mut all, _)) = strings::of_simple(self.schemas, one, &[], &at)? else { return Err(unsupported()) };
        if let Some(Value::Array(values)) = one.get("enum") {
            let names: Vec<String> = values.iter().filter_map(Value::as_str).map(strings::literal).collect();
            if names.is_empty() {
                return Err(unsupported());
            }
            all.push(format!("(?:{})", names.join("|")));
        }
        Ok(all)
    }

    /// One undeclared member: `extra → key ":" value` over `extra`'s pairs.
    fn extra_member(&mut self, name: &str, extra: &[Extra]) -> Result<NonterminalId> {
        let member = self.b.nonterminal(&format!("{name}_extra"));
        for e in extra {
            self.production(member, vec![e.key, self.punct.colon, Symbol::Nonterminal(e.value)])?;
        }
        Ok(member)
    }

    /// `list → member | list "," member`.
    fn extra_list(&mut self, name: &str, member: NonterminalId) -> Result<NonterminalId> {
        let list = self.b.nonterminal(&format!("{name}_extras"));
        self.production(list, vec![Symbol::Nonterminal(member)])?;
        self.production(list, vec![Symbol::Nonterminal(list), self.punct.comma, Symbol::Nonterminal(member)])?;
        Ok(list)
    }
}

/// Each choice of `choices` extended by each of `alternatives` (pairs of regexes to
/// match and to exclude, joined).
fn extend_choices(choices: &[(Vec<String>, Vec<String>)], alternatives: &[(Vec<String>, Vec<String>)]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out = Vec::with_capacity(choices.len() * alternatives.len());
    for (all, except) in choices {
        for (more_all, more_except) in alternatives {
            out.push(([&all[..], more_all].concat(), [&except[..], more_except].concat()));
        }
    }
    out
}

/// The texts in none of the `languages` (each the texts matching every regex of its
/// first list and none of its second), as such pairs: a text is outside one when it
/// fails one of its regexes to match or matches one to exclude, and outside them all
/// when it is outside each (the pairs may overlap).
fn outside_cases(languages: &[(Vec<String>, Vec<String>)]) -> Vec<(Vec<String>, Vec<String>)> {
    let mut cases = vec![(Vec::new(), Vec::new())];
    for (all, except) in languages {
        let outside: Vec<(Vec<String>, Vec<String>)> = all
            .iter()
            .map(|a| (Vec::new(), vec![a.clone()]))
            .chain(except.iter().map(|e| (vec![e.clone()], Vec::new())))
            .collect();
        cases = extend_choices(&cases, &outside);
    }
    cases
}

/// The indices of the bits set in `set`.
fn members_of(set: u64) -> impl Iterator<Item = usize> {
    (0..64).filter(move |j| set & (1 << j) != 0)
}

/// `true`, or an object schema with nothing but annotations.
fn admits_everything(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(map) => map.keys().all(|k| ANNOTATIONS.contains(&k.as_str())),
        _ => false,
    }
}

/// What `not` removes from a simple schema.
struct Negations {
    types: Types,
    /// Spelling regexes of strings that are excluded.
    strings: Vec<String>,
    /// Groups of spelling regexes: a string matching every regex of one is excluded
    /// (`not` of a `hostname`: its labels and its length).
    string_conjunctions: Vec<Vec<String>>,
    /// Spelling languages of numbers that are excluded.
    numbers: Vec<Language>,
    /// `true` and `false`, when excluded.
    booleans: Vec<bool>,
    /// The types of excluded arrays and objects: only an enum beside them can drop those
    /// (value by value, [`Emitter::admits_simple`]).
    composites: Types,
}

/// The string terminals that together admit the strings `nots` leaves, as pairs of
/// regexes to match and to exclude: a string fails a conjunction `r1 ∧ … ∧ rk` when it
/// fails `r1`, or matches `r1` and fails `r2`, and so on (disjoint cases, so the
/// terminals never share a string); one pair per choice of case in every conjunction,
/// at most `most` (the alternatives limit).
fn string_cases(nots: &Negations, most: usize, at: &str) -> Result<Vec<(Vec<String>, Vec<String>)>> {
    let mut cases = vec![(Vec::new(), nots.strings.clone())];
    for conjunction in &nots.string_conjunctions {
        let mut next = Vec::with_capacity(cases.len() * conjunction.len());
        for (required, excluded) in &cases {
            for (i, failed) in conjunction.iter().enumerate() {
                let required: Vec<String> = required.iter().chain(&conjunction[..i]).cloned().collect();
                let excluded: Vec<String> = excluded.iter().chain([failed]).cloned().collect();
                next.push((required, excluded));
            }
        }
        if next.len() > most {
            let reason = format!("`not` of string schemas expands to {} string alternatives, more than the limit of {most}", next.len());
            return Err(Schemas::error(at, reason));
        }
        cases = next;
    }
    Ok(cases)
}

/// The spelling of a string or number value that this module's regexes are written
/// against: numbers in plain notation.
pub(super) fn spelling(value: &Value) -> String {
    match value {
        Value::Number(n) => numbers::plain(n),
        _ => serde_json::to_string(value).unwrap_or_default(),
    }
}

/// Keywords that do not constrain an enum's values.
fn ignorable(keyword: &str) -> bool {
    let constrains = matches!(
        keyword,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" | "items" | "prefixItems"
            | "additionalItems" | "minItems" | "maxItems" | "uniqueItems" | "properties" | "required"
            | "additionalProperties" | "patternProperties" | "propertyNames" | "minProperties" | "maxProperties"
            | "contains"
    );
    !constrains && !strings::KEYWORDS.contains(&keyword)
}

/// [`numbers::multiples`], or the error naming `m`.
fn multiples(m: &Value, fractions: bool, at: &str) -> Result<Language> {
    m.as_number().and_then(|m| numbers::multiples(m, fractions)).ok_or_else(|| {
        let supported = "supported: p / 10^k where p divides 10^4 (0.01, 0.25, 2.5, 16), or p times k + 2 is at most 4,096";
        Schemas::error(at, format!("multipleOf {m} is not supported ({supported})"))
    })
}

/// Most sets of `patternProperties` patterns whose keys one object tells apart.
const MAX_PATTERN_SETS: usize = 256;

/// The sets of `patterns` (indices, ascending) that some key matches exactly: every
/// pattern of the set and no other, meeting `names` and spelled unlike `declared`.
///
/// Patterns that no key matches together (most often: they differ in a prefix, which
/// a search of their pair's product sees at once) each form a set of their own; a
/// pattern of no such set may be one no key matches, and its key terminal then merely
/// never matches. The patterns that overlap are searched together in the product of
/// their automata, one group of overlapping patterns at a time.
fn pattern_overlaps(
    schemas: &Schemas,
    patterns: &[PatternProperty],
    names: &[String],
    declared: &[String],
    at: &str,
) -> Result<Vec<Vec<usize>>> {
    let regex = |i: usize| patterns[i].regex.0.clone();
    let mut groups = Partition::new(patterns.len());
    for i in 0..patterns.len() {
        for j in i + 1..patterns.len() {
            let pair: Vec<String> = [regex(i), regex(j)].into_iter().chain(names.iter().cloned()).collect();
            if schemas.languages_meet(&pair, &[]) != Some(false) {
                groups.join(i, j);
            }
        }
    }
    let declared: Vec<String> = (!declared.is_empty()).then(|| format!("(?:{})", declared.join("|"))).into_iter().collect();
    let mut out = Vec::new();
    for group in groups.classes() {
        if let [one] = group[..] {
            out.push(vec![one]);
            continue;
        }
        let observed: Vec<String> = group.iter().map(|&i| regex(i)).collect();
        let sets = schemas.languages_match_sets(&observed, names, &declared).ok_or_else(|| {
            Schemas::error(at, "patternProperties whose overlaps are too costly to decide (too many patterns or automaton states)")
        })?;
        out.extend(sets.iter().map(|&set| group.iter().enumerate().filter(|(k, _)| set >> k & 1 == 1).map(|(_, &i)| i).collect()));
        if out.len() > MAX_PATTERN_SETS {
            return Err(Schemas::error(at, format!("patternProperties overlap in more than {MAX_PATTERN_SETS} ways")));
        }
    }
    out.sort();
    Ok(out)
}

/// Disjoint classes of `0..n`, joined pairwise (union-find).
struct Partition(Vec<usize>);

impl Partition {
    fn new(n: usize) -> Partition {
        Partition((0..n).collect())
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.0[i] != i {
            self.0[i] = self.0[self.0[i]];
            i = self.0[i];
        }
        i
    }

    fn join(&mut self, i: usize, j: usize) {
        let (a, b) = (self.root(i), self.root(j));
        self.0[a.max(b)] = a.min(b);
    }

    /// The classes, each ascending, ordered by their least member.
    fn classes(mut self) -> Vec<Vec<usize>> {
        let mut by_root: Vec<Vec<usize>> = vec![Vec::new(); self.0.len()];
        for i in 0..self.0.len() {
            let root = self.root(i);
            by_root[root].push(i);
        }
        by_root.retain(|class| !class.is_empty());
        by_root
    }
}

fn escape_pointer(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// A readable nonterminal name from a JSON pointer.
fn nonterminal_name(at: &str) -> String {
    let tail: String = at.rsplit('/').next().unwrap_or("").chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').take(24).collect();
    if tail.is_empty() { "schema".into() } else { format!("s_{tail}") }
}
