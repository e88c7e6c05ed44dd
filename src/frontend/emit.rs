//! Assembly of the IR: symbols for rules and terminals (created on first use, so only
//! what the start rule reaches ends up in the grammar), deduplicated productions, and
//! cached helper rules.

use super::terminals::{Fragment, PatternKey};
use crate::error::{Error, LimitKind, Result};
use crate::ir::{Grammar, GrammarBuilder, GrammarLimits, NonterminalId, Symbol, TerminalId, TerminalPattern};
use hashbrown::{HashMap, HashSet};
use std::collections::VecDeque;

/// The right-hand sides of one rule.
pub(super) type Alternatives = Vec<Vec<Symbol>>;

/// A named terminal of the grammar, compiled.
#[derive(Clone, Debug)]
pub(super) struct NamedTerminal {
    /// Its regex, or [`TerminalPattern::Declared`].
    pub pattern: TerminalPattern,
    /// Lark priority.
    pub priority: i32,
    /// Set when it is one literal or regex: rules writing the same pattern use it.
    pub key: Option<PatternKey>,
}

/// How a helper rule's productions derive from its alternatives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum HelperShape {
    /// `H: alt | alt ...`
    Plain,
    /// `H: alt | H alt ...` (one or more).
    Repeated,
}

/// Builds the IR grammar while the rules are expanded.
pub(super) struct Emitter<'d> {
    builder: GrammarBuilder,
    max_productions: usize,
    named: HashMap<&'d str, NamedTerminal>,
    pattern_owners: HashMap<PatternKey, &'d str>,
    terminal_ids: HashMap<&'d str, TerminalId>,
    pattern_ids: HashMap<PatternKey, TerminalId>,
    ignored_patterns: HashMap<String, TerminalId>,
    names: TerminalNames,
    rule_ids: HashMap<&'d str, NonterminalId>,
    queued_rules: VecDeque<(&'d str, NonterminalId)>,
    helpers: HashMap<(HelperShape, Alternatives), NonterminalId>,
    helper_count: usize,
}

impl<'d> Emitter<'d> {
    /// An emitter for a grammar whose named terminals are `named`, in definition order
    /// (when two are the same single pattern, rules use the later one, as in Lark).
    pub(super) fn new(limits: GrammarLimits, named: Vec<(&'d str, NamedTerminal)>) -> Self {
        let mut builder = GrammarBuilder::new();
        let max_productions = limits.max_productions;
        builder.limits(limits);
        let pattern_owners = named
            .iter()
            .filter(|(_, t)| t.pattern != TerminalPattern::Declared)
            .filter_map(|(name, t)| Some((t.key.clone()?, *name)))
            .collect();
        let names =
            TerminalNames { taken: named.iter().map(|(name, _)| name.to_string()).collect(), anonymous: 0, ignored: 0 };
        Emitter {
            builder,
            max_productions,
            named: named.into_iter().collect(),
            pattern_owners,
            terminal_ids: HashMap::new(),
            pattern_ids: HashMap::new(),
            ignored_patterns: HashMap::new(),
            names,
            rule_ids: HashMap::new(),
            queued_rules: VecDeque::new(),
            helpers: HashMap::new(),
            helper_count: 0,
        }
    }

    /// The nonterminal of a named rule; a new one is queued for expansion.
    pub(super) fn rule(&mut self, name: &'d str) -> NonterminalId {
        if let Some(&id) = self.rule_ids.get(name) {
            return id;
        }
        let id = self.builder.nonterminal(name);
        self.rule_ids.insert(name, id);
        self.queued_rules.push_back((name, id));
        id
    }

    /// The next rule whose productions are still to be defined.
    pub(super) fn next_queued_rule(&mut self) -> Option<(&'d str, NonterminalId)> {
        self.queued_rules.pop_front()
    }

    /// The IR terminal of a named terminal; `None` when no such terminal is defined.
    pub(super) fn terminal(&mut self, name: &str) -> Option<TerminalId> {
        if let Some(&id) = self.terminal_ids.get(name) {
            return Some(id);
        }
        let (&name, terminal) = self.named.get_key_value(name)?;
        let id = self.builder.terminal(name, terminal.pattern.clone(), terminal.priority, false);
        self.terminal_ids.insert(name, id);
        Some(id)
    }

    /// The terminal for a literal or regex written in a rule: the named terminal defined
    /// as exactly that pattern, else a shared anonymous one with priority 0.
    pub(super) fn pattern_terminal(&mut self, key: PatternKey, fragment: Fragment) -> TerminalId {
        if let Some(&id) = self.pattern_ids.get(&key) {
            return id;
        }
        let owner = self.pattern_owners.get(&key).copied();
        let id = match owner.and_then(|name| self.terminal(name)) {
            Some(id) => id,
            None => {
                let candidate = match &key {
                    PatternKey::Literal(literal) => literal_terminal_name(&literal.value),
                    PatternKey::Regex(_) => None,
                };
                let name = self.names.fresh(candidate, Generated::Anonymous);
                self.builder.terminal(&name, TerminalPattern::Regex(fragment.text), 0, false)
            }
        };
        self.pattern_ids.insert(key, id);
        id
    }

    /// Marks a named terminal as ignored; `None` when no such terminal is defined.
    pub(super) fn ignore_terminal(&mut self, name: &str) -> Option<()> {
        let id = self.terminal(name)?;
        self.builder.set_ignored(id);
        Some(())
    }

    /// Adds an anonymous ignored terminal (`%ignore /.../`); the same regex twice is
    /// added once.
    pub(super) fn ignore_pattern(&mut self, regex: String) {
        if self.ignored_patterns.contains_key(&regex) {
            return;
        }
        let name = self.names.fresh(None, Generated::Ignored);
        let id = self.builder.terminal(&name, TerminalPattern::Regex(regex.clone()), 0, true);
        self.ignored_patterns.insert(regex, id);
    }

    /// Adds the productions `lhs → alt` for each distinct alternative.
    pub(super) fn define(&mut self, lhs: NonterminalId, alternatives: Alternatives) -> Result<()> {
        let alternatives = dedup(alternatives);
        let total = self.builder.production_count() + alternatives.len();
        if total > self.max_productions {
            return Err(Error::Limit { kind: LimitKind::Productions, value: total, limit: self.max_productions });
        }
        for rhs in alternatives {
            self.builder.production(lhs, rhs);
        }
        Ok(())
    }

    /// A helper rule `__{rule}_{kind}_{n}` with the given alternatives; an identical
    /// helper made earlier is reused.
    pub(super) fn helper(
        &mut self,
        rule: &str,
        kind: &str,
        shape: HelperShape,
        alternatives: Alternatives,
    ) -> Result<Symbol> {
        let key = (shape, alternatives);
        if let Some(&id) = self.helpers.get(&key) {
            return Ok(Symbol::Nonterminal(id));
        }
        let name = format!("__{rule}_{kind}_{}", self.helper_count);
        self.helper_count += 1;
        let id = self.builder.nonterminal(&name);
        let mut productions = key.1.clone();
        if shape == HelperShape::Repeated {
            for alt in &key.1 {
                let mut rhs = vec![Symbol::Nonterminal(id)];
                rhs.extend_from_slice(alt);
                productions.push(rhs);
            }
        }
        self.define(id, productions)?;
        self.helpers.insert(key, id);
        Ok(Symbol::Nonterminal(id))
    }

    /// Validates and trims the grammar (see [`GrammarBuilder::build`]).
    pub(super) fn finish(self, start: NonterminalId) -> Result<Grammar> {
        self.builder.build(start)
    }
}

/// Terminal names in use, and the counters of generated names.
struct TerminalNames {
    taken: HashSet<String>,
    anonymous: usize,
    ignored: usize,
}

/// The kinds of generated terminal name.
#[derive(Clone, Copy, Debug)]
enum Generated {
    /// `__ANON_n`: a literal or regex written in a rule.
    Anonymous,
    /// `__IGNORE_n`: an `%ignore` pattern.
    Ignored,
}

impl TerminalNames {
    /// `candidate` if it is still free, else the next free generated name of `kind`.
    fn fresh(&mut self, candidate: Option<String>, kind: Generated) -> String {
        let name = match candidate.filter(|c| !self.taken.contains(c)) {
            Some(name) => name,
            None => loop {
                let (prefix, counter) = match kind {
                    Generated::Anonymous => ("__ANON_", &mut self.anonymous),
                    Generated::Ignored => ("__IGNORE_", &mut self.ignored),
                };
                let name = format!("{prefix}{counter}");
                *counter += 1;
                if !self.taken.contains(&name) {
                    break name;
                }
            },
        };
        self.taken.insert(name.clone());
        name
    }
}

/// Removes repeated alternatives, keeping the first of each.
pub(super) fn dedup(alternatives: Alternatives) -> Alternatives {
    let mut seen = HashSet::new();
    alternatives.into_iter().filter(|alt| seen.insert(alt.clone())).collect()
}

/// Lark's name for an anonymous terminal of literal `value`: a punctuation name
/// (`"("` → `LPAR`), the upper-cased word for identifier-like literals (`"if"` → `IF`),
/// else none.
fn literal_terminal_name(value: &str) -> Option<String> {
    if let Some(name) = punctuation_name(value) {
        return Some(name.to_string());
    }
    let mut chars = value.chars();
    let first = chars.next()?;
    let identifier =
        (first.is_ascii_alphabetic() || first == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    identifier.then(|| value.to_ascii_uppercase())
}

fn punctuation_name(value: &str) -> Option<&'static str> {
    let name = match value {
        "." => "DOT",
        "," => "COMMA",
        ":" => "COLON",
        ";" => "SEMICOLON",
        "+" => "PLUS",
        "-" => "MINUS",
        "*" => "STAR",
        "/" => "SLASH",
        "\\" => "BACKSLASH",
        "|" => "VBAR",
        "?" => "QMARK",
        "!" => "BANG",
        "@" => "AT",
        "#" => "HASH",
        "$" => "DOLLAR",
        "%" => "PERCENT",
        "^" => "CIRCUMFLEX",
        "&" => "AMPERSAND",
        "_" => "UNDERSCORE",
        "<" => "LESSTHAN",
        ">" => "MORETHAN",
        "=" => "EQUAL",
        "\"" => "DBLQUOTE",
        "'" => "QUOTE",
        "`" => "BACKQUOTE",
        "~" => "TILDE",
        "(" => "LPAR",
        ")" => "RPAR",
        "{" => "LBRACE",
        "}" => "RBRACE",
        "[" => "LSQB",
        "]" => "RSQB",
        "\n" => "NEWLINE",
        "\r\n" => "CRLF",
        "\t" => "TAB",
        " " => "SPACE",
        _ => return None,
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_names_follow_lark() {
        assert_eq!(literal_terminal_name(";").as_deref(), Some("SEMICOLON"));
        assert_eq!(literal_terminal_name("class").as_deref(), Some("CLASS"));
        assert_eq!(literal_terminal_name("_x1").as_deref(), Some("_X1"));
        assert_eq!(literal_terminal_name("=="), None);
        assert_eq!(literal_terminal_name("'chan"), None);
        assert_eq!(literal_terminal_name("1a"), None);
    }

    #[test]
    fn fresh_names_skip_taken_ones() {
        let taken = ["IF", "__ANON_1"].iter().map(|s| s.to_string()).collect();
        let mut names = TerminalNames { taken, anonymous: 0, ignored: 0 };
        assert_eq!(names.fresh(Some("IF".into()), Generated::Anonymous), "__ANON_0");
        assert_eq!(names.fresh(Some("ELSE".into()), Generated::Anonymous), "ELSE");
        assert_eq!(names.fresh(Some("ELSE".into()), Generated::Anonymous), "__ANON_2");
        assert_eq!(names.fresh(None, Generated::Ignored), "__IGNORE_0");
    }

    #[test]
    fn production_budget_is_enforced() {
        let mut emitter = Emitter::new(GrammarLimits { max_productions: 2 }, Vec::new());
        let a = emitter.rule("a");
        let t = Symbol::Nonterminal(a);
        emitter.define(a, vec![vec![], vec![t], vec![]]).unwrap();
        assert!(matches!(emitter.define(a, vec![vec![t, t]]), Err(Error::Limit { .. })));
    }
}
