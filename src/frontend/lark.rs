//! The compilation driver: Lark text → items → checked definitions → compiled terminals
//! → expanded rules → [`Grammar`].

use super::emit::{Emitter, NamedTerminal};
use super::parser;
use super::rules::expand_rules;
use super::syntax::{Definition, Expr, ExprKind, ImportedName, Item, Name};
use super::terminals::{Namespace, TerminalBody, TerminalCompiler, TerminalEntry};
use super::LarkOptions;
use crate::error::{Error, LimitKind, Position, Result};
use crate::ir::{Grammar, TerminalPattern};
use hashbrown::HashMap;

/// Lark's `common` library, for `%import common.NAME`.
const COMMON: &str = include_str!("common.lark");

/// Deepest nesting of parentheses and brackets in an expression.
const MAX_NESTING: usize = 100;

/// Compiles Lark grammar text into the IR.
pub(super) fn compile(text: &str, options: &LarkOptions) -> Result<Grammar> {
    if text.len() > options.max_grammar_bytes {
        return Err(Error::Limit { kind: LimitKind::GrammarBytes, value: text.len(), limit: options.max_grammar_bytes });
    }
    let items = parser::parse(text, MAX_NESTING)?;
    let definitions = Definitions::collect(text, &items)?;
    let common_items = if definitions.imports_anything { parser::parse(COMMON, MAX_NESTING)? } else { Vec::new() };
    definitions.check_rule_references(text)?;
    let mut compiler = TerminalCompiler::new(text, COMMON, definitions.terminal_entries(&common_items));
    let named = compile_named_terminals(&definitions.terminals, &mut compiler)?;
    let start = definitions.start_rule(text, &options.start)?;

    let mut emitter = Emitter::new(options.limits.clone(), named);
    let start = emitter.rule(start);
    let rule_bodies = definitions.rules.iter().map(|rule| (rule.name.text.as_str(), &rule.body)).collect();
    expand_rules(text, &rule_bodies, &mut emitter)?;
    apply_ignores(text, &definitions.ignores, &mut compiler, &mut emitter)?;
    emitter.finish(start)
}

/// The definitions of a grammar, indexed by name, duplicates rejected.
struct Definitions<'d> {
    rules: Vec<&'d Definition>,
    rule_index: HashMap<&'d str, usize>,
    terminals: Vec<TerminalEntry<'d>>,
    terminal_index: HashMap<&'d str, usize>,
    ignores: Vec<&'d Expr>,
    imports_anything: bool,
}

impl<'d> Definitions<'d> {
    fn collect(text: &str, items: &'d [Item]) -> Result<Self> {
        let mut definitions = Definitions {
            rules: Vec::new(),
            rule_index: HashMap::new(),
            terminals: Vec::new(),
            terminal_index: HashMap::new(),
            ignores: Vec::new(),
            imports_anything: false,
        };
        for item in items {
            definitions.add(text, item)?;
        }
        Ok(definitions)
    }

    fn add(&mut self, text: &str, item: &'d Item) -> Result<()> {
        match item {
            Item::Rule(rule) => {
                if let Some(first) = self.rule_index.get(rule.name.text.as_str()).and_then(|&i| self.rules.get(i)) {
                    return Err(redefinition(text, "rule", &rule.name, first.name.offset));
                }
                self.rule_index.insert(&rule.name.text, self.rules.len());
                self.rules.push(rule);
            }
            Item::Terminal(t) => self.add_terminal(text, &t.name, t.priority, TerminalBody::Expr(&t.body))?,
            Item::Import(names) => {
                self.imports_anything = true;
                for imported in names {
                    self.add_import(text, imported)?;
                }
            }
            Item::Declare(names) => {
                for name in names {
                    self.add_terminal(text, name, 0, TerminalBody::Declared)?;
                }
            }
            Item::Ignore(expr) => self.ignores.push(expr),
        }
        Ok(())
    }

    fn add_terminal(&mut self, text: &str, name: &'d Name, priority: i32, body: TerminalBody<'d>) -> Result<()> {
        if let Some(&first) = self.terminal_index.get(name.text.as_str()) {
            let first_offset = self.terminals.get(first).map_or(0, |t| t.offset);
            return Err(redefinition(text, "terminal", name, first_offset));
        }
        self.terminal_index.insert(&name.text, self.terminals.len());
        let entry =
            TerminalEntry { namespace: Namespace::Grammar, name: &name.text, offset: name.offset, priority, body };
        self.terminals.push(entry);
        Ok(())
    }

    /// Importing the same name the same way twice is harmless, as in Lark.
    fn add_import(&mut self, text: &str, imported: &'d ImportedName) -> Result<()> {
        let remote = imported.remote.text.as_str();
        let existing = self.terminal_index.get(imported.local.text.as_str()).and_then(|&i| self.terminals.get(i));
        if existing.is_some_and(|t| matches!(t.body, TerminalBody::Import { name, .. } if name == remote)) {
            return Ok(());
        }
        let body = TerminalBody::Import { name: remote, offset: imported.remote.offset };
        self.add_terminal(text, &imported.local, 0, body)
    }

    /// Every name used in a rule is defined (checked for all rules, used or not, as Lark
    /// does); the first undefined one is reported.
    fn check_rule_references(&self, text: &str) -> Result<()> {
        let mut undefined = None;
        for rule in &self.rules {
            rule.body.for_each_reference(&mut |expr| {
                let missing = match &expr.kind {
                    ExprKind::Rule(name) if !self.rule_index.contains_key(name.as_str()) => Some(("rule", name)),
                    ExprKind::Terminal(name) if !self.terminal_index.contains_key(name.as_str()) => {
                        Some(("terminal", name))
                    }
                    _ => None,
                };
                if let (None, Some((kind, name))) = (&undefined, missing) {
                    undefined = Some((expr.offset, kind, name));
                }
            });
        }
        match undefined {
            Some((offset, kind, name)) => Err(Error::grammar(text, offset, format!("{kind} `{name}` is not defined"))),
            None => Ok(()),
        }
    }

    /// The grammar's terminals (at the same indices as in `self.terminals`) followed by
    /// those of the `common` library.
    fn terminal_entries(&self, common_items: &'d [Item]) -> Vec<TerminalEntry<'d>> {
        let common = common_items.iter().filter_map(|item| match item {
            Item::Terminal(t) => Some(TerminalEntry {
                namespace: Namespace::Common,
                name: &t.name.text,
                offset: t.name.offset,
                priority: t.priority,
                body: TerminalBody::Expr(&t.body),
            }),
            _ => None,
        });
        self.terminals.iter().copied().chain(common).collect()
    }

    /// The start rule's name, which must be defined.
    fn start_rule(&self, text: &str, start: &str) -> Result<&'d str> {
        if self.rules.is_empty() {
            return Err(Error::grammar(text, 0, "the grammar defines no rules"));
        }
        match self.rule_index.get_key_value(start) {
            Some((&name, _)) => Ok(name),
            None => Err(Error::grammar(text, 0, format!("the start rule `{start}` is not defined"))),
        }
    }
}

fn redefinition(text: &str, kind: &str, name: &Name, first_offset: usize) -> Error {
    let first = Position::of_offset(text, first_offset);
    Error::grammar(text, name.offset, format!("{kind} `{}` is defined more than once (first at {first})", name.text))
}

/// Compiles every terminal of the grammar (used or not, so that every definition is
/// checked), in definition order. `terminals` are the compiler's first entries.
fn compile_named_terminals<'d>(
    terminals: &[TerminalEntry<'d>],
    compiler: &mut TerminalCompiler<'d>,
) -> Result<Vec<(&'d str, NamedTerminal)>> {
    let mut named = Vec::new();
    for (index, entry) in terminals.iter().enumerate() {
        let terminal = match compiler.compile_entry(index)? {
            Some(compiled) => NamedTerminal {
                pattern: TerminalPattern::Regex(compiled.fragment.text),
                priority: entry.priority,
                key: compiled.key,
            },
            None => NamedTerminal { pattern: TerminalPattern::Declared, priority: entry.priority, key: None },
        };
        named.push((entry.name, terminal));
    }
    Ok(named)
}

/// `%ignore NAME` marks that terminal; any other pattern becomes an anonymous ignored
/// terminal.
fn apply_ignores(
    text: &str,
    ignores: &[&Expr],
    compiler: &mut TerminalCompiler<'_>,
    emitter: &mut Emitter<'_>,
) -> Result<()> {
    for expr in ignores {
        match &expr.kind {
            ExprKind::Terminal(name) => emitter
                .ignore_terminal(name)
                .ok_or_else(|| Error::grammar(text, expr.offset, format!("terminal `{name}` is not defined")))?,
            _ => emitter.ignore_pattern(compiler.compile_expr(expr)?.fragment.text),
        }
    }
    Ok(())
}
