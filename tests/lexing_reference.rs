//! The lexer DFA judged against the lexing rule run directly on the terminals' regexes.
//!
//! `tests/properties.rs` judges parsing against an independent Earley parser but splits
//! texts with the project's own lexer DFA, so a fault in building that DFA (the subset
//! construction, the table over thread lists that joins ignored text to the lexeme after
//! it, the merging of equivalent states, byte classes) would be shared by every mask path
//! and its reference alike. Here the rule of `docs/viability.md` (*Lexing*) runs on the
//! text itself: threads are start offsets, "alive" is asked of a lazy DFA of
//! `regex-automata` over all terminals, and "matches" of each terminal's own `regex`.
//!
//! Grammars are drawn from a pool of terminals aimed at the rule's corners: terminals
//! beginning like ignored text (SQL's `JOIN_EXPR`), an ignored terminal that joins blanks
//! and comments, keywords that are also names, operators that are prefixes of others.

use proptest::prelude::*;
use proptest::test_runner::TestRng;
use regex::bytes::Regex;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::{Anchored, Input, MatchKind};
use stackmask::lexer::{Lexer, LexerConfig};
use stackmask::Grammar;
use std::collections::BTreeSet;

mod support;

/// A terminal of the pool: its name, its Lark definition, the same language as a Rust
/// regex, its Lark priority, and whether it may be `%ignore`d.
struct PoolTerminal {
    name: &'static str,
    priority: i32,
    lark: &'static str,
    regex: &'static str,
    ignorable: bool,
}

const POOL: &[PoolTerminal] = &[
    PoolTerminal { name: "NAME", priority: 0, lark: r"/[a-z]+/", regex: r"[a-z]+", ignorable: false },
    PoolTerminal { name: "KW", priority: 0, lark: r#""if""#, regex: r"if", ignorable: false },
    PoolTerminal { name: "FI", priority: 2, lark: r#""fi""#, regex: r"fi", ignorable: false },
    PoolTerminal { name: "NUM", priority: 0, lark: r"/[0-9]+/", regex: r"[0-9]+", ignorable: false },
    PoolTerminal { name: "WS", priority: 0, lark: r"/ +/", regex: r" +", ignorable: true },
    PoolTerminal { name: "NL", priority: 0, lark: r"/\n/", regex: r"\n", ignorable: true },
    PoolTerminal { name: "JOIN", priority: 0, lark: r"/(a? +)?join/", regex: r"(a? +)?join", ignorable: false },
    PoolTerminal { name: "SPJ", priority: 0, lark: r"/ +j[a-z]*/", regex: r" +j[a-z]*", ignorable: false },
    PoolTerminal { name: "SPQ", priority: 0, lark: r"/ +q(rs)?/", regex: r" +q(rs)?", ignorable: false },
    PoolTerminal { name: "CMT", priority: 0, lark: r"/\/\*[^*]*\*\//", regex: r"/\*[^*]*\*/", ignorable: true },
    PoolTerminal { name: "GAP", priority: 0, lark: r"/([ ]|\/\*[^*]*\*\/)+/", regex: r"([ ]|/\*[^*]*\*/)+", ignorable: true },
    PoolTerminal { name: "SLASH", priority: 0, lark: r#""/""#, regex: r"/", ignorable: false },
    PoolTerminal { name: "EQ", priority: 0, lark: r#""=""#, regex: r"=", ignorable: false },
    PoolTerminal { name: "EQEQ", priority: 0, lark: r#""==""#, regex: r"==", ignorable: false },
    PoolTerminal { name: "DOT", priority: 0, lark: r#"".""#, regex: r"\.", ignorable: false },
    PoolTerminal { name: "AB", priority: 0, lark: r"/a+b/", regex: r"a+b", ignorable: false },
    PoolTerminal { name: "XY", priority: 0, lark: r#""x y""#, regex: r"x y", ignorable: false },
];

/// Bytes texts are drawn from: every pool terminal's bytes and a few that start nothing.
const TEXT_BYTES: &[u8] = b"  aabjjoinfix yy1/*=.\n#qrs";

/// A drawn lexical grammar: which pool terminals, and which of them are ignored.
#[derive(Clone, Debug)]
struct Drawn {
    terminals: Vec<usize>,
    ignored: Vec<bool>,
}

impl Drawn {
    /// The grammar in Lark: every visible terminal any number of times.
    fn lark(&self) -> String {
        let visible: Vec<&str> =
            self.terminals.iter().zip(&self.ignored).filter(|(_, &ignored)| !ignored).map(|(&t, _)| POOL[t].name).collect();
        let mut text = format!("start: ({})*\n", visible.join(" | "));
        for (&t, &ignored) in self.terminals.iter().zip(&self.ignored) {
            let priority = match POOL[t].priority {
                0 => String::new(),
                p => format!(".{p}"),
            };
            text += &format!("{}{priority}: {}\n", POOL[t].name, POOL[t].lark);
            if ignored {
                text += &format!("%ignore {}\n", POOL[t].name);
            }
        }
        text
    }
}

fn drawn() -> impl Strategy<Value = Drawn> {
    (prop::sample::subsequence((0..POOL.len()).collect::<Vec<_>>(), 2..=6), any::<u64>()).prop_filter_map(
        "a grammar needs a visible terminal",
        |(terminals, seed)| {
            let ignored: Vec<bool> =
                terminals.iter().enumerate().map(|(i, &t)| POOL[t].ignorable && (seed >> (i % 64)) & 1 == 1).collect();
            ignored.iter().any(|&i| !i).then_some(Drawn { terminals, ignored })
        },
    )
}

/// The rule run on the text: threads are the offsets their lexemes start at.
struct Rule {
    names: Vec<&'static str>,
    priorities: Vec<i32>,
    regexes: Vec<Regex>,
    ignored: Vec<bool>,
    any: DFA,
}

impl Rule {
    fn new(drawn: &Drawn) -> Rule {
        let pool = drawn.terminals.iter().map(|&t| &POOL[t]);
        let regexes = pool.clone().map(|t| Regex::new(&format!(r"\A(?:{})\z", t.regex)).unwrap()).collect();
        let alternation: Vec<String> = pool.clone().map(|t| format!("(?:{})", t.regex)).collect();
        let any = DFA::builder()
            .configure(DFA::config().match_kind(MatchKind::All))
            .build(&alternation.join("|"))
            .unwrap();
        Rule { names: pool.clone().map(|t| t.name).collect(), priorities: pool.map(|t| t.priority).collect(), regexes, ignored: drawn.ignored.clone(), any }
    }

    /// Whether some terminal's match is longer than `text` and begins with it: some
    /// byte after it leads to a live state. (The lazy DFA reports a match one byte late,
    /// so the state after `text` is live when the text before its last byte matched,
    /// even if nothing goes on from there: liveness is asked one byte further.)
    fn extends(&self, cache: &mut Cache, text: &[u8]) -> bool {
        let input = Input::new(text).anchored(Anchored::Yes);
        let mut state = self.any.start_state_forward(cache, &input).unwrap();
        for &b in text {
            state = self.any.next_state(cache, state, b).unwrap();
            if state.is_dead() {
                return false;
            }
        }
        let classes = *self.any.byte_classes();
        classes.representatives(0..=255).filter_map(|unit| unit.as_u8()).any(|b| !self.any.next_state(cache, state, b).unwrap().is_dead())
    }

    /// The names of the terminals matching `text` whole, of the highest priority among them.
    fn matches(&self, text: &[u8]) -> BTreeSet<&'static str> {
        let matching: Vec<usize> = (0..self.names.len()).filter(|&i| self.regexes[i].is_match(text)).collect();
        let top = matching.iter().map(|&i| self.priorities[i]).max();
        matching.into_iter().filter(|&i| Some(self.priorities[i]) == top).map(|i| self.names[i]).collect()
    }

    fn ignored_only(&self, matched: &BTreeSet<&'static str>) -> bool {
        !matched.is_empty() && matched.iter().all(|name| self.ignored[self.names.iter().position(|n| n == name).unwrap()])
    }

    /// The threads after the byte at `end - 1`: each thread, oldest first, that stays
    /// alive; the first one that then matches drops the younger ones, and starts one at
    /// `end` when what it matches is ignored only.
    fn step(&self, cache: &mut Cache, text: &[u8], threads: &[usize], end: usize) -> Vec<usize> {
        let mut next = Vec::new();
        for &start in threads {
            let matched = self.matches(&text[start..end]);
            if matched.is_empty() && !self.extends(cache, &text[start..end]) {
                continue;
            }
            next.push(start);
            if !matched.is_empty() {
                if self.ignored_only(&matched) {
                    next.push(end);
                }
                break;
            }
        }
        next
    }

    /// What the first matching thread matches, up to `end`.
    fn first_match(&self, text: &[u8], threads: &[usize], end: usize) -> BTreeSet<&'static str> {
        threads.iter().map(|&start| self.matches(&text[start..end])).find(|m| !m.is_empty()).unwrap_or_default()
    }

    /// The lexemes the parser receives: those with a visible candidate. (Where no state
    /// matching ignored text only goes on to one matching nothing, the lexer keeps its
    /// plain table, which closes ignored text as a lexeme of its own, skipped, rather
    /// than joining it to the next: the parser receives the same.)
    fn received(&self, lexemes: Vec<BTreeSet<&'static str>>) -> Vec<BTreeSet<&'static str>> {
        lexemes.into_iter().filter(|lexeme| !self.ignored_only(lexeme)).collect()
    }

    /// The lexemes of `text` (the last closed by the end of the text), as sets of names;
    /// `None` when a byte cannot be lexed or the text ends in a lexeme matching nothing.
    fn split(&self, text: &[u8]) -> Option<Vec<BTreeSet<&'static str>>> {
        let mut cache = self.any.create_cache();
        let (mut threads, mut lexemes) = (vec![0], Vec::new());
        for end in 1..=text.len() {
            let mut next = self.step(&mut cache, text, &threads, end);
            if next.is_empty() {
                let closed = self.first_match(text, &threads, end - 1);
                if closed.is_empty() {
                    return None;
                }
                lexemes.push(closed);
                next = self.step(&mut cache, text, &[end - 1], end);
                if next.is_empty() {
                    return None;
                }
            }
            threads = next;
        }
        if threads != [text.len()] {
            let pending = self.first_match(text, &threads, text.len());
            if pending.is_empty() {
                return None;
            }
            lexemes.push(pending);
        }
        Some(lexemes)
    }
}

/// The project's lexer's split of `text`, as sets of names.
fn lexer_split(grammar: &Grammar, lexer: &Lexer, text: &[u8]) -> Option<Vec<BTreeSet<&'static str>>> {
    let lexemes = support::split(lexer, text)?;
    let name = |t| POOL.iter().find(|p| p.name == grammar.terminal_name(t)).expect("a pool terminal").name;
    Some(lexemes.into_iter().map(|lexeme| lexeme.into_iter().map(name).collect()).collect())
}

fn random_text(rng: &mut TestRng) -> Vec<u8> {
    let len = rng.random_range(0..24);
    (0..len).map(|_| TEXT_BYTES[rng.random_range(0..TEXT_BYTES.len())]).collect()
}

/// A drawn grammar's lexer beside its rule.
struct Judged {
    source: String,
    grammar: Grammar,
    lexer: Lexer,
    rule: Rule,
}

impl Judged {
    fn new(drawn: &Drawn) -> Result<Judged, TestCaseError> {
        let source = drawn.lark();
        let fail = |e: stackmask::Error| TestCaseError::fail(format!("{e}\n{source}"));
        let grammar = Grammar::from_lark(&source).map_err(fail)?;
        let lexer = Lexer::new(&grammar, &LexerConfig::default()).map_err(fail)?;
        Ok(Judged { grammar, lexer, rule: Rule::new(drawn), source })
    }

    /// The lexemes the parser receives from `text`: by the lexer, and by the rule.
    fn received(&self, text: &[u8]) -> [Option<Vec<BTreeSet<&'static str>>>; 2] {
        let project = lexer_split(&self.grammar, &self.lexer, text);
        [project, self.rule.split(text)].map(|split| split.map(|lexemes| self.rule.received(lexemes)))
    }
}

fn check(drawn: &Drawn, seed: u64) -> Result<(), TestCaseError> {
    let judged = Judged::new(drawn)?;
    let mut rng = support::rng_from_seed(seed);
    for _ in 0..40 {
        let text = random_text(&mut rng);
        for end in 0..=text.len() {
            let prefix = &text[..end];
            let [project, reference] = judged.received(prefix);
            prop_assert_eq!(project, reference, "text {:?}\ngrammar:\n{}", String::from_utf8_lossy(prefix), judged.source);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every prefix of random texts splits into the same lexemes, with the same
    /// candidates, and is rejected at the same byte.
    #[test]
    fn the_lexer_splits_as_the_rule_does_on_the_regexes(drawn in drawn(), seed in any::<u64>()) {
        check(&drawn, seed)?;
    }
}

/// The corners the pool is for, written out, and the lexer on three of them.
#[test]
fn the_rule_on_known_texts() {
    let drawn = |names: &[&str], ignored: &[&str]| {
        let terminals: Vec<usize> = names.iter().map(|n| POOL.iter().position(|p| p.name == *n).unwrap()).collect();
        let ignored = names.iter().map(|n| ignored.contains(n)).collect();
        Drawn { terminals, ignored }
    };
    let set = |names: &[&'static str]| names.iter().copied().collect::<BTreeSet<_>>();
    // A terminal begun like a blank (` join`): where it dies (` jo.`), the name begun
    // after the blank closes; where it lives on, it is the lexeme.
    let sql = drawn(&["NAME", "WS", "JOIN", "DOT"], &["WS"]);
    let rule = Rule::new(&sql);
    assert_eq!(rule.split(b" jo.b"), Some(vec![set(&["NAME"]), set(&["DOT"]), set(&["NAME"])]));
    assert_eq!(rule.split(b" join"), Some(vec![set(&["JOIN"])]));
    // A visible match is not backtracked to: the name `a` goes on as `a join` and the
    // text ends, or dies, before it matches again.
    assert_eq!(rule.split(b" a jo"), None);
    assert_eq!(rule.split(b" a jo.b"), None);
    // Blanks and comments in one ignored terminal: ` /` is the operator after the blank.
    let comments = drawn(&["NAME", "GAP", "SLASH"], &["GAP"]);
    let rule = Rule::new(&comments);
    assert_eq!(rule.split(b"a / b"), Some(vec![set(&["NAME"]), set(&["SLASH"]), set(&["NAME"])]));
    assert_eq!(rule.split(b"a /**/ b"), Some(vec![set(&["NAME"]), set(&["NAME"])]));
    // A keyword that is also a name is both; one of a higher priority is itself alone.
    let keywords = drawn(&["NAME", "KW", "FI"], &[]);
    assert_eq!(Rule::new(&keywords).split(b"if"), Some(vec![set(&["KW", "NAME"])]));
    assert_eq!(Rule::new(&keywords).split(b"fi"), Some(vec![set(&["FI"])]));
    for (d, text) in [(&sql, &b" jo.b join"[..]), (&comments, b"a / b /**/ c"), (&keywords, b"ifx")] {
        let [project, reference] = Judged::new(d).unwrap().received(text);
        assert_eq!(project, reference, "{}", d.lark());
    }
}

