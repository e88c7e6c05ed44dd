//! Random sentences of a grammar: a terminal sequence derived from the start symbol, then
//! a random lexeme for each terminal, sampled from its regex.
//!
//! Derivations are depth-bounded: below the budget a nonterminal may use any production
//! that fits in it, preferring taller ones; once the budget (or the length cap) is spent,
//! only productions of minimal derivation height are chosen, so every derivation
//! terminates and stays small.
//!
//! Lexemes are glued with samples of an `%ignore`d terminal when the grammar has one:
//! always where two neighbours would otherwise merge under maximal munch, sometimes
//! elsewhere. A text can still lex differently from the intended lexemes (the lexer, not
//! the generator, decides); tests judge the text by its actual lexing.

use proptest::prelude::RngExt;
use proptest::test_runner::{RngAlgorithm, TestRng};
use regex_syntax::hir::{Class, Hir, HirKind, Repetition};
use stackmask::ir::{Grammar, NonterminalId, Symbol, TerminalId, TerminalPattern};
use stackmask::lexer::Lexer;

/// Probability of choosing a production taller than the shallowest one while the depth
/// budget lasts: uniform choice would mostly pick leaves (`value: STRING | NUMBER | …`).
const GROW: f64 = 0.6;
/// Extra iterations a repetition may take beyond its minimum.
const REPEAT_SPARE: u32 = 3;
/// Probability of a separator where lexemes would not merge without one.
const OPTIONAL_SEPARATOR: f64 = 0.3;
/// Probability that a class member is drawn from the class's ASCII part, when it has one.
const ASCII_BIAS: f64 = 0.9;
/// Samples tried to find a separator that merges with neither neighbour.
const SEPARATOR_TRIES: usize = 8;

/// A deterministic RNG from a proptest-chosen seed, so that failures replay. ChaCha, not
/// XorShift: XorShift's first outputs barely depend on a seed with few bits set.
pub fn rng_from_seed(seed: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// Uniform choice from a non-empty slice.
pub fn pick<'a, T>(rng: &mut TestRng, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// One lexeme of a generated text: the terminal it was sampled from and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The intended terminal (an ignored one for separators).
    pub terminal: TerminalId,
    /// The sampled bytes.
    pub bytes: Vec<u8>,
}

/// A generated text and the lexemes it was built from.
#[derive(Clone, Debug)]
pub struct Sentence {
    /// The whole text.
    pub text: Vec<u8>,
    /// The intended lexemes, separators included, in order.
    pub pieces: Vec<Piece>,
}

/// Derives and renders random sentences of one grammar.
#[derive(Clone, Debug)]
pub struct Generator {
    grammar: Grammar,
    lexer: Lexer,
    /// Per nonterminal: the height of its shallowest derivation tree.
    min_height: Vec<u32>,
    /// Per terminal: its parsed regex (`None` for `%declare`d terminals).
    patterns: Vec<Option<Hir>>,
    /// Ignored terminals, the separators.
    separators: Vec<TerminalId>,
    /// Per terminal: lexemes to draw from instead of its regex (empty: sample the regex).
    lexicons: Vec<Vec<Vec<u8>>>,
}

impl Generator {
    /// Prepare `grammar`; `lexer` (the grammar's lexer DFA) decides where lexemes would merge.
    pub fn new(grammar: &Grammar, lexer: &Lexer) -> Generator {
        let patterns = grammar.terminals.iter().map(|t| parse_pattern(&t.pattern)).collect();
        let separators = (0..grammar.terminals.len() as u32)
            .map(TerminalId)
            .filter(|t| grammar.terminals[t.index()].ignored)
            .collect();
        Generator {
            grammar: grammar.clone(),
            lexer: lexer.clone(),
            min_height: min_heights(grammar),
            patterns,
            separators,
            lexicons: vec![Vec::new(); grammar.terminals.len()],
        }
    }

    /// Draw the lexemes of the terminal named `terminal` from `lexemes` instead of its
    /// regex, for readable texts (names, strings, comments). They should lie in the
    /// terminal's language; texts are judged by their actual lexing in any case.
    /// Panics if the grammar has no such terminal.
    pub fn with_lexicon(mut self, terminal: &str, lexemes: &[&str]) -> Generator {
        let t = self.terminal(terminal);
        self.lexicons[t.index()] = lexemes.iter().map(|l| l.as_bytes().to_vec()).collect();
        self
    }

    /// Separate lexemes with the ignored terminals named in `separators` only (say,
    /// blanks but not comments). Panics if one is not an ignored terminal of the grammar.
    pub fn with_separators(mut self, separators: &[&str]) -> Generator {
        self.separators = separators.iter().map(|name| self.terminal(name)).collect();
        assert!(self.separators.iter().all(|&t| self.is_ignored(t)), "separators must be ignored terminals");
        self
    }

    fn terminal(&self, name: &str) -> TerminalId {
        let index = self.grammar.terminals.iter().position(|d| d.name == name).unwrap_or_else(|| panic!("no terminal {name}"));
        TerminalId(index as u32)
    }

    /// A random sentence: derivation depth at most about `depth`, at most about
    /// `max_terminals` terminals. `None` when the parser sees no sentence at all (every
    /// derivation uses an ignored terminal).
    pub fn sentence(&self, rng: &mut TestRng, depth: u32, max_terminals: usize) -> Option<Sentence> {
        let terminals = self.derive(rng, depth, max_terminals)?;
        Some(self.render(rng, &terminals))
    }

    /// A random terminal sequence derived from the start symbol, never through a
    /// production with an ignored terminal; `None` if there is no such derivation.
    fn derive(&self, rng: &mut TestRng, depth: u32, max_terminals: usize) -> Option<Vec<TerminalId>> {
        if self.min_height[self.grammar.start.index()] == u32::MAX {
            return None;
        }
        let mut out = Vec::new();
        self.expand(rng, self.grammar.start, depth, max_terminals, &mut out);
        Some(out)
    }

    /// Whether `lexemes` (the lexer's split of `sentence.text`) are exactly the intended
    /// pieces, each reporting its intended terminal among its candidates. Then the text is
    /// a sentence: derivations never use ignored terminals, separators may be skipped.
    pub fn lexed_as_derived(&self, sentence: &Sentence, lexemes: &[Vec<TerminalId>]) -> bool {
        lexemes.len() == sentence.pieces.len()
            && lexemes.iter().zip(&sentence.pieces).all(|(lexeme, piece)| lexeme.contains(&piece.terminal))
    }

    fn is_ignored(&self, t: TerminalId) -> bool {
        self.grammar.terminals[t.index()].ignored
    }

    /// Terminals that can appear in a sentence (used by some production, not ignored).
    pub fn sentence_terminals(&self) -> Vec<TerminalId> {
        let mut used: Vec<TerminalId> = self
            .grammar
            .productions
            .iter()
            .flat_map(|p| &p.rhs)
            .filter_map(|s| match s {
                Symbol::Terminal(t) if !self.is_ignored(*t) => Some(*t),
                _ => None,
            })
            .collect();
        used.sort();
        used.dedup();
        used
    }

    /// A text for `terminals`: one sampled lexeme each, with separators between them.
    pub fn render(&self, rng: &mut TestRng, terminals: &[TerminalId]) -> Sentence {
        let mut pieces: Vec<Piece> = Vec::new();
        for &t in terminals {
            let piece = Piece { terminal: t, bytes: self.sample(rng, t) };
            if let Some(previous) = pieces.last() {
                let needed = self.could_merge(&previous.bytes, &piece.bytes);
                if needed || rng.random_bool(OPTIONAL_SEPARATOR) {
                    if let Some(sep) = self.separator(rng, &previous.bytes, &piece.bytes) {
                        pieces.push(sep);
                    }
                }
            }
            pieces.push(piece);
        }
        let text = pieces.iter().flat_map(|p| p.bytes.iter().copied()).collect();
        Sentence { text, pieces }
    }

    /// A random lexeme of terminal `t`: from its lexicon if it has one, else from its regex.
    pub fn sample(&self, rng: &mut TestRng, t: TerminalId) -> Vec<u8> {
        let lexicon = &self.lexicons[t.index()];
        if !lexicon.is_empty() {
            return pick(rng, lexicon).clone();
        }
        let hir = self.patterns[t.index()].as_ref().expect("declared terminals never appear in sentences");
        let mut out = Vec::new();
        sample_hir(rng, hir, &mut out);
        out
    }

    fn expand(&self, rng: &mut TestRng, n: NonterminalId, depth: u32, max_terminals: usize, out: &mut Vec<TerminalId>) {
        let budget = if out.len() >= max_terminals { 0 } else { depth };
        let limit = budget.max(self.min_height[n.index()]);
        let choices: Vec<usize> = self
            .grammar
            .productions
            .iter()
            .enumerate()
            .filter(|(_, p)| p.lhs == n && self.production_height(&p.rhs) <= limit)
            .map(|(i, _)| i)
            .collect();
        let minimal = self.min_height[n.index()];
        let growing: Vec<usize> = choices
            .iter()
            .copied()
            .filter(|&i| self.production_height(&self.grammar.productions[i].rhs) > minimal)
            .collect();
        let chosen = if budget > 0 && !growing.is_empty() && rng.random_bool(GROW) {
            *pick(rng, &growing)
        } else {
            *pick(rng, &choices)
        };
        let production = &self.grammar.productions[chosen];
        for &symbol in &production.rhs {
            match symbol {
                Symbol::Terminal(t) => out.push(t),
                Symbol::Nonterminal(m) => self.expand(rng, m, budget.saturating_sub(1), max_terminals, out),
            }
        }
    }

    fn production_height(&self, rhs: &[Symbol]) -> u32 {
        production_height(&self.min_height, rhs, &self.grammar)
    }

    /// A separator between `before` and `after` that merges with neither, if the grammar
    /// has ignored terminals (after a few tries, one that may merge).
    fn separator(&self, rng: &mut TestRng, before: &[u8], after: &[u8]) -> Option<Piece> {
        if self.separators.is_empty() {
            return None;
        }
        let mut candidate = None;
        for _ in 0..SEPARATOR_TRIES {
            let terminal = *pick(rng, &self.separators);
            let piece = Piece { terminal, bytes: self.sample(rng, terminal) };
            if !self.could_merge(before, &piece.bytes) && !self.could_merge(&piece.bytes, after) {
                return Some(piece);
            }
            candidate = Some(piece);
        }
        candidate
    }

    /// Whether maximal munch would extend lexeme `a` into the first byte of `b`.
    fn could_merge(&self, a: &[u8], b: &[u8]) -> bool {
        let (Some(&first), false) = (b.first(), a.is_empty()) else { return false };
        let mut q = self.lexer.start();
        for &byte in a {
            q = self.lexer.next(q, byte);
            if q.is_dead() {
                return false;
            }
        }
        !self.lexer.next(q, first).is_dead()
    }
}

fn parse_pattern(pattern: &TerminalPattern) -> Option<Hir> {
    match pattern {
        TerminalPattern::Regex(re) => Some(
            regex_syntax::ParserBuilder::new().build().parse(re).expect("the grammar compiled, so its regexes parse"),
        ),
        // Generated sentences come from single-regex terminals; the Lark front-end makes
        // no compound ones.
        TerminalPattern::Compound { .. } | TerminalPattern::Declared => None,
    }
}

/// Height of the shallowest derivation tree of every nonterminal (a fixpoint; a terminal
/// counts 0, a production 1 + its tallest child). An ignored terminal counts `u32::MAX`:
/// it can never reach the parser. Nonterminals that derive nothing else keep `u32::MAX`.
fn min_heights(grammar: &Grammar) -> Vec<u32> {
    let mut heights = vec![u32::MAX; grammar.nonterminals.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for p in &grammar.productions {
            let h = production_height(&heights, &p.rhs, grammar);
            if h < heights[p.lhs.index()] {
                heights[p.lhs.index()] = h;
                changed = true;
            }
        }
    }
    heights
}

fn production_height(heights: &[u32], rhs: &[Symbol], grammar: &Grammar) -> u32 {
    let tallest = rhs
        .iter()
        .map(|s| match s {
            Symbol::Terminal(t) if grammar.terminals[t.index()].ignored => u32::MAX,
            Symbol::Terminal(_) => 0,
            Symbol::Nonterminal(n) => heights[n.index()],
        })
        .max()
        .unwrap_or(0);
    tallest.saturating_add(1)
}

/// Append a random string of the language of `hir` to `out`.
fn sample_hir(rng: &mut TestRng, hir: &Hir, out: &mut Vec<u8>) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.extend_from_slice(&lit.0),
        HirKind::Class(Class::Unicode(class)) => {
            let ranges: Vec<(u32, u32)> = class.ranges().iter().map(|r| (r.start() as u32, r.end() as u32)).collect();
            // A range may span the surrogate block, which holds no scalar value: redraw.
            let c = loop {
                if let Some(c) = char::from_u32(sample_class(rng, &ranges)) {
                    break c;
                }
            };
            out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
        }
        HirKind::Class(Class::Bytes(class)) => {
            let ranges: Vec<(u32, u32)> = class.ranges().iter().map(|r| (r.start() as u32, r.end() as u32)).collect();
            out.push(sample_class(rng, &ranges) as u8);
        }
        HirKind::Repetition(rep) => {
            for _ in 0..repetition_count(rng, rep) {
                sample_hir(rng, &rep.sub, out);
            }
        }
        HirKind::Capture(cap) => sample_hir(rng, &cap.sub, out),
        HirKind::Concat(parts) => parts.iter().for_each(|p| sample_hir(rng, p, out)),
        HirKind::Alternation(alts) => {
            let alt = pick(rng, alts);
            sample_hir(rng, alt, out)
        }
    }
}

fn repetition_count(rng: &mut TestRng, rep: &Repetition) -> u32 {
    let spare = rep.max.map_or(REPEAT_SPARE, |max| (max - rep.min).min(REPEAT_SPARE));
    rep.min + rng.random_range(0..=spare)
}

/// A member of the class given by inclusive `ranges`: mostly a uniform ASCII member,
/// otherwise a uniform member of a uniformly chosen range (reaching multi-byte UTF-8).
fn sample_class(rng: &mut TestRng, ranges: &[(u32, u32)]) -> u32 {
    let ascii: Vec<u32> = ranges.iter().flat_map(|&(lo, hi)| lo..=hi.min(0x7F)).collect();
    if !ascii.is_empty() && rng.random_bool(ASCII_BIAS) {
        return *pick(rng, &ascii);
    }
    let &(lo, hi) = pick(rng, ranges);
    rng.random_range(lo..=hi)
}
