//! A regular expression as a one-terminal grammar: [`Grammar::from_regex`].

use crate::error::{Error, Result};
use crate::ir::{Grammar, GrammarBuilder, Symbol, TerminalPattern};

/// Any non-empty text: the lexer refuses terminals that match the empty string, so a
/// regex that does is split into ε and its non-empty matches.
const NON_EMPTY: &str = "(?s:.)+";

pub(super) fn compile(pattern: &str) -> Result<Grammar> {
    let hir = regex_syntax::ParserBuilder::new()
        .utf8(true)
        .build()
        .parse(pattern)
        .map_err(|e| Error::grammar(pattern, regex_error_offset(&e), format!("invalid regex: {}", regex_error_kind(&e))))?;
    if hir.properties().look_set().iter().next().is_some() {
        return Err(Error::grammar(pattern, 0, "anchors, word boundaries and look-around are not supported"));
    }
    let mut b = GrammarBuilder::new();
    let start = b.nonterminal("start");
    let matches_empty = hir.properties().minimum_len() == Some(0);
    let terminal = if matches_empty {
        TerminalPattern::of_regexes(vec![pattern.to_string(), NON_EMPTY.to_string()], Vec::new())
    } else {
        TerminalPattern::Regex(pattern.to_string())
    };
    if hir.properties().maximum_len() != Some(0) {
        let t = b.terminal("REGEX", terminal, 0, false);
        b.production(start, vec![Symbol::Terminal(t)]);
    }
    if matches_empty {
        b.production(start, Vec::new());
    }
    b.build(start)
}

fn regex_error_kind(e: &regex_syntax::Error) -> String {
    match e {
        regex_syntax::Error::Parse(e) => e.kind().to_string(),
        regex_syntax::Error::Translate(e) => e.kind().to_string(),
        other => other.to_string(),
    }
}

fn regex_error_offset(e: &regex_syntax::Error) -> usize {
    match e {
        regex_syntax::Error::Parse(e) => e.span().start.offset,
        regex_syntax::Error::Translate(e) => e.span().start.offset,
        _ => 0,
    }
}
