//! The automaton of [`Language::DecimalMultiples`](crate::ir::Language::DecimalMultiples):
//! plain decimal numbers whose value is a multiple of `numerator / 10^decimals`, built
//! as a Thompson NFA for the lexer's subset construction (no regex of reasonable size
//! spells the multiples of 7).
//!
//! A number `v` spelled with `j` decimals is `s / 10^j`, `s` its digits read as one
//! integer. It is a multiple of `p / 10^k` when `v * 10^k = s * 10^(k - j)` is an integer
//! multiple of `p`: `j <= k` (or the further decimals are zeros) and `p` divides
//! `s * 10^(k - j)`. So a state is the residue of `s` modulo `p` and how many decimals
//! were read (none yet, or `0..=k` after the point); a decimal beyond the `k`-th must be
//! `0`. A `-` is read before the first digit. The regex beside it in the terminal spells
//! the number; this automaton only judges its value.

use regex_automata::nfa::thompson::{BuildError, Builder, Transition, NFA};
use regex_automata::util::primitives::StateID;
use std::collections::HashMap;

/// Where the automaton is in a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Place {
    /// Before the first digit: a `-` may come.
    Start,
    /// In the integer part, with the residue of its digits.
    Integer(u32),
    /// After the point, with the residue of every digit read and the decimals read (at
    /// most `decimals`; further ones are zeros that change nothing).
    Fraction(u32, u32),
}

/// The NFA of the multiples of `numerator / 10^decimals` (`numerator > 0`).
// `BuildError` is regex-automata's, returned once per distinct multiple: boxing it buys nothing.
#[allow(clippy::result_large_err)]
pub(super) fn nfa(numerator: u32, decimals: u32, size_limit: usize) -> Result<NFA, BuildError> {
    let p = u64::from(numerator);
    let accepts = |residue: u32, read: u32| (u64::from(residue) * pow10_mod(decimals - read, p)) % p == 0;
    let digit = |residue: u32, d: u8| ((u64::from(residue) * 10 + u64::from(d)) % p) as u32;
    // The places reachable from the start, and where each byte leads.
    let mut places = vec![Place::Start];
    let mut ids: HashMap<Place, usize> = HashMap::from([(Place::Start, 0)]);
    let mut moves: Vec<Vec<(u8, usize)>> = Vec::new();
    let mut i = 0;
    while i < places.len() {
        let mut out: Vec<(u8, Place)> = Vec::new();
        match places[i] {
            Place::Start => {
                out.push((b'-', Place::Integer(0)));
                out.extend((0..10).map(|d| (b'0' + d, Place::Integer(digit(0, d)))));
            }
            Place::Integer(r) => {
                out.push((b'.', Place::Fraction(r, 0)));
                out.extend((0..10).map(|d| (b'0' + d, Place::Integer(digit(r, d)))));
            }
            Place::Fraction(r, read) if read < decimals => {
                out.extend((0..10).map(|d| (b'0' + d, Place::Fraction(digit(r, d), read + 1))));
            }
            Place::Fraction(r, read) => out.push((b'0', Place::Fraction(r, read))),
        }
        let mut targets = Vec::with_capacity(out.len());
        for (byte, place) in out {
            let id = *ids.entry(place).or_insert_with(|| {
                places.push(place);
                places.len() - 1
            });
            targets.push((byte, id));
        }
        // Bytes ascend ('-' < '.' < '0'..'9'), as sparse states require.
        targets.sort_unstable();
        moves.push(targets);
        i += 1;
    }
    let mut builder = Builder::new();
    builder.set_size_limit(Some(size_limit))?;
    builder.start_pattern()?;
    // Each place is entered through a union (patched once every state exists: a sparse
    // state's targets cannot be patched later): its byte moves, and the match state
    // where the value is a multiple.
    let entries = places.iter().map(|_| builder.add_union(Vec::new())).collect::<Result<Vec<StateID>, BuildError>>()?;
    let matched = builder.add_match()?;
    for (i, targets) in moves.iter().enumerate() {
        let transitions = targets.iter().map(|&(byte, to)| Transition { start: byte, end: byte, next: entries[to] }).collect();
        let sparse = builder.add_sparse(transitions)?;
        builder.patch(entries[i], sparse)?;
        let accepting = match places[i] {
            Place::Start => false,
            Place::Integer(r) => accepts(r, 0),
            Place::Fraction(r, read) => accepts(r, read),
        };
        if accepting {
            builder.patch(entries[i], matched)?;
        }
    }
    builder.finish_pattern(entries[0])?;
    builder.build(entries[0], entries[0])
}

/// `10^e mod p`.
fn pow10_mod(e: u32, p: u64) -> u64 {
    (0..e).fold(1 % p, |acc, _| acc * 10 % p)
}

#[cfg(test)]
mod tests {
    use crate::ir::{GrammarBuilder, Language, Symbol, TerminalPattern};
    use crate::lexer::{Lexer, LexerConfig};

    /// The lexer of plain numbers that are multiples of `numerator / 10^decimals`.
    fn lexer(numerator: u32, decimals: u32) -> Lexer {
        let mut b = GrammarBuilder::new();
        let start = b.nonterminal("start");
        let all = vec![Language::regex(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?"), Language::DecimalMultiples { numerator, decimals }];
        let t = b.terminal("N", TerminalPattern::Compound { all, except: Vec::new() }, 0, false);
        b.production(start, vec![Symbol::Terminal(t)]);
        Lexer::new(&b.build(start).unwrap(), &LexerConfig::default()).unwrap()
    }

    fn accepts(lexer: &Lexer, text: &str) -> bool {
        let q = text.bytes().fold(lexer.start(), |q, b| lexer.next(q, b));
        !q.is_dead() && !lexer.accepts(q).is_empty()
    }

    /// Every plain spelling of a grid of values, judged by exact arithmetic.
    #[test]
    fn multiples_agree_with_arithmetic() {
        let exact = |text: &str| -> (u128, u32) {
            let unsigned = text.trim_start_matches('-');
            let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
            (format!("{int}{frac}").parse().unwrap(), frac.len() as u32)
        };
        for (p, k) in [(7u32, 0u32), (3, 0), (12, 0), (11, 1), (15, 1), (21, 2), (1, 0), (13, 3), (125, 1)] {
            let lexer = lexer(p, k);
            for int in ["0", "7", "12", "14", "21", "33", "36", "49", "77", "100", "143", "1001", "123456"] {
                for frac in ["", ".0", ".00", ".5", ".1", ".21", ".42", ".7", ".063", ".0000", ".3"] {
                    for sign in ["", "-"] {
                        let text = format!("{sign}{int}{frac}");
                        let (vn, vk) = exact(&text);
                        let multiple = (vn * 10u128.pow(k)) % (u128::from(p) * 10u128.pow(vk)) == 0;
                        assert_eq!(accepts(&lexer, &text), multiple, "{text} for {p}e-{k}");
                    }
                }
            }
        }
    }
}
