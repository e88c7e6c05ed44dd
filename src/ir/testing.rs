//! Test helper: a tiny BNF notation for building grammars without the Lark front-end.
//!
//! One rule per line, `lhs: a B "c" | ε`. Lowercase words are nonterminals; any other
//! word is a terminal matching itself literally (quotes stripped). The first rule is
//! the start rule. A terminal listed in `ignore` is added as an ignored terminal.

use super::{Grammar, GrammarBuilder, NonterminalId, Symbol, TerminalId, TerminalPattern};
use hashbrown::HashMap;

pub(crate) fn bnf(text: &str) -> Grammar {
    bnf_with(text, &[])
}

pub(crate) fn bnf_with(text: &str, extra_terminals: &[(&str, &str, bool)]) -> Grammar {
    let mut b = GrammarBuilder::new();
    let mut nts: HashMap<String, NonterminalId> = HashMap::new();
    let mut ts: HashMap<String, TerminalId> = HashMap::new();
    for &(name, re, ignored) in extra_terminals {
        ts.insert(name.to_string(), b.terminal(name, TerminalPattern::Regex(re.to_string()), 0, ignored));
    }
    let lines: Vec<(&str, &str)> =
        text.lines().filter(|l| !l.trim().is_empty()).map(|l| l.split_once(':').expect("rule")).collect();
    for (lhs, _) in &lines {
        let lhs = lhs.trim();
        if !nts.contains_key(lhs) {
            nts.insert(lhs.to_string(), b.nonterminal(lhs));
        }
    }
    for (lhs, rhs) in &lines {
        let lhs = nts[lhs.trim()];
        for alt in rhs.split('|') {
            let mut syms = Vec::new();
            for word in alt.split_whitespace().filter(|w| *w != "ε") {
                if let Some(&n) = nts.get(word) {
                    syms.push(Symbol::Nonterminal(n));
                } else {
                    let lit = word.trim_matches('"');
                    let t = *ts.entry(word.to_string()).or_insert_with(|| {
                        b.terminal(word, TerminalPattern::Regex(regex_syntax::escape(lit)), 0, false)
                    });
                    syms.push(Symbol::Terminal(t));
                }
            }
            b.production(lhs, syms);
        }
    }
    let start = nts[lines[0].0.trim()];
    b.build(start).expect("test grammar")
}
