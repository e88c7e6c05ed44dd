//! EBNF to BNF: each rule body becomes a list of alternatives (strings of symbols).
//!
//! As in Lark, `x?` and `[x]` (and the empty case of `x*`) are expanded inline by
//! duplicating the enclosing alternative, which keeps grammars written for Lark's LALR
//! parser free of extra conflicts; `x+` and `x*` use a left-recursive helper
//! (`__rule_plus_0: x | __rule_plus_0 x`). Where inline expansion would multiply an
//! alternative more than [`MAX_INLINE_ALTERNATIVES`] times, the offending part becomes a
//! helper rule instead, so the size stays linear. `x~n..m` is `n` copies (by doubling
//! helpers when `n` is large) followed by a chain of helpers for up to `m - n` more.

use super::emit::{dedup, Alternatives, Emitter, HelperShape};
use super::syntax::{Expr, ExprKind, Repeat};
use super::terminals::PatternKey;
use crate::error::{Error, Result};
use crate::ir::Symbol;
use hashbrown::HashMap;

/// Most alternatives one sequence may expand into before parts become helper rules.
const MAX_INLINE_ALTERNATIVES: usize = 64;
/// `x~n` with `n` up to this is written as `n` copies in a row.
const MAX_INLINE_COPIES: u32 = 32;
/// `x~n..m` with `m - n` up to this lists the optional copies as alternatives.
const MAX_INLINE_OPTIONAL_COPIES: u32 = 4;

/// Defines the productions of every rule queued in `emitter` (the start rule, then every
/// rule it reaches). `rules` maps each rule name to its body; `text` is the grammar, for
/// error positions.
pub(super) fn expand_rules<'d>(
    text: &str,
    rules: &HashMap<&'d str, &'d Expr>,
    emitter: &mut Emitter<'d>,
) -> Result<()> {
    while let Some((name, id)) = emitter.next_queued_rule() {
        let Some(body) = rules.get(name) else {
            return Err(Error::grammar(text, 0, format!("rule `{name}` is not defined")));
        };
        let alternatives = Expander { emitter, rules, text, rule: name }.alternatives(body)?;
        emitter.define(id, alternatives)?;
    }
    Ok(())
}

struct Expander<'e, 'd> {
    emitter: &'e mut Emitter<'d>,
    rules: &'e HashMap<&'d str, &'d Expr>,
    text: &'e str,
    rule: &'d str,
}

impl<'d> Expander<'_, 'd> {
    // `alternatives`, `choice`, `sequence` and `repeat` recurse over the expression tree,
    // whose depth the parser bounds; they keep small frames.

    fn alternatives(&mut self, expr: &Expr) -> Result<Alternatives> {
        match &expr.kind {
            ExprKind::Choice(items) => self.choice(items),
            ExprKind::Sequence(items) => self.sequence(items),
            ExprKind::Repeat(inner, repeat) => self.repeat(inner, *repeat),
            _ => Ok(vec![vec![self.leaf(expr)?]]),
        }
    }

    fn choice(&mut self, items: &[Expr]) -> Result<Alternatives> {
        let mut all = Vec::new();
        for item in items {
            all.extend(self.alternatives(item)?);
        }
        Ok(dedup(all))
    }

    fn repeat(&mut self, inner: &Expr, repeat: Repeat) -> Result<Alternatives> {
        let alternatives = self.alternatives(inner)?;
        self.repeated(alternatives, repeat)
    }

    /// The symbol for a reference, literal, regex or range.
    fn leaf(&mut self, expr: &Expr) -> Result<Symbol> {
        match &expr.kind {
            ExprKind::Rule(name) => match self.rules.get_key_value(name.as_str()) {
                Some((&name, _)) => Ok(Symbol::Nonterminal(self.emitter.rule(name))),
                None => Err(self.undefined("rule", name, expr.offset)),
            },
            ExprKind::Terminal(name) => match self.emitter.terminal(name) {
                Some(id) => Ok(Symbol::Terminal(id)),
                None => Err(self.undefined("terminal", name, expr.offset)),
            },
            kind => match PatternKey::of(kind) {
                Some((key, fragment)) => Ok(Symbol::Terminal(self.emitter.pattern_terminal(key, fragment))),
                None => Err(Error::grammar(self.text, expr.offset, "internal error: not a leaf")),
            },
        }
    }

    fn undefined(&self, kind: &str, name: &str, offset: usize) -> Error {
        Error::grammar(self.text, offset, format!("{kind} `{name}` is not defined"))
    }

    /// Every combination of the items' alternatives, in order.
    fn sequence(&mut self, items: &[Expr]) -> Result<Alternatives> {
        let mut result: Alternatives = vec![Vec::new()];
        for item in items {
            let mut alternatives = self.alternatives(item)?;
            if alternatives.len() > 1 && result.len() * alternatives.len() > MAX_INLINE_ALTERNATIVES {
                alternatives = vec![vec![self.group(alternatives)?]];
            }
            result = product(&result, &alternatives);
        }
        Ok(dedup(result))
    }

    /// A helper rule standing for the alternatives.
    fn group(&mut self, alternatives: Alternatives) -> Result<Symbol> {
        let kind = if alternatives.iter().any(Vec::is_empty) { "opt" } else { "group" };
        self.emitter.helper(self.rule, kind, HelperShape::Plain, alternatives)
    }

    /// The alternatives of `x`, repeated.
    fn repeated(&mut self, mut alternatives: Alternatives, repeat: Repeat) -> Result<Alternatives> {
        match repeat {
            Repeat::Optional => {
                alternatives.push(Vec::new());
                Ok(dedup(alternatives))
            }
            Repeat::ZeroOrMore => {
                let mut result = self.one_or_more(alternatives, "star")?;
                result.push(Vec::new());
                Ok(dedup(result))
            }
            Repeat::OneOrMore => self.one_or_more(alternatives, "plus"),
            Repeat::Between(min, max) => self.counted(alternatives, min, max),
        }
    }

    /// `x+` as a left-recursive helper. An empty alternative inside is dropped (then
    /// `x+` is really `x'*`), since `H: H` would make the grammar cyclic.
    fn one_or_more(&mut self, alternatives: Alternatives, kind: &str) -> Result<Alternatives> {
        let nullable = alternatives.iter().any(Vec::is_empty);
        let non_empty: Alternatives = alternatives.into_iter().filter(|alt| !alt.is_empty()).collect();
        if non_empty.is_empty() {
            return Ok(vec![Vec::new()]);
        }
        let helper = self.emitter.helper(self.rule, kind, HelperShape::Repeated, non_empty)?;
        let mut result = vec![vec![helper]];
        if nullable {
            result.push(Vec::new());
        }
        Ok(result)
    }

    /// `x~min..max`.
    fn counted(&mut self, alternatives: Alternatives, min: u32, max: u32) -> Result<Alternatives> {
        let unit = match alternatives.as_slice() {
            [only] if only.is_empty() => return Ok(vec![Vec::new()]),
            [only] if only.len() == 1 => only[0],
            _ => self.group(alternatives)?,
        };
        let exact = self.exact_copies(unit, min)?;
        let optional = self.optional_copies(unit, max.saturating_sub(min))?;
        Ok(product(&[exact], &optional))
    }

    /// Exactly `n` occurrences of `unit`, as one string of symbols.
    fn exact_copies(&mut self, unit: Symbol, n: u32) -> Result<Vec<Symbol>> {
        if n <= MAX_INLINE_COPIES {
            return Ok(vec![unit; n as usize]);
        }
        let half = self.exact_copies(unit, n / 2)?;
        let half = self.emitter.helper(self.rule, "repeat", HelperShape::Plain, vec![half])?;
        let mut copies = vec![half, half];
        if n % 2 == 1 {
            copies.push(unit);
        }
        Ok(copies)
    }

    /// Zero to `k` occurrences of `unit`: listed when `k` is small, else a chain of
    /// helpers `H_j: ε | unit H_{j-1}`.
    fn optional_copies(&mut self, unit: Symbol, k: u32) -> Result<Alternatives> {
        if k <= MAX_INLINE_OPTIONAL_COPIES {
            return Ok((0..=k).map(|j| vec![unit; j as usize]).collect());
        }
        let mut at_most: Option<Symbol> = None;
        for _ in 0..k {
            let longer: Vec<Symbol> = std::iter::once(unit).chain(at_most).collect();
            at_most = Some(self.emitter.helper(self.rule, "repeat", HelperShape::Plain, vec![Vec::new(), longer])?);
        }
        Ok(vec![at_most.into_iter().collect()])
    }
}

/// Every `a ++ b` for `a` in `left` and `b` in `right`.
fn product(left: &[Vec<Symbol>], right: &[Vec<Symbol>]) -> Alternatives {
    left.iter().flat_map(|a| right.iter().map(move |b| a.iter().chain(b).copied().collect())).collect()
}
