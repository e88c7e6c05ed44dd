use super::*;
use crate::ir::{GrammarBuilder, Symbol};

/// A grammar `start: T0 | T1 | ...` over the given (name, regex, priority, ignored) terminals.
fn grammar(terminals: &[(&str, &str, i32, bool)]) -> Grammar {
    let mut b = GrammarBuilder::new();
    let start = b.nonterminal("start");
    for &(name, re, prio, ignored) in terminals {
        let t = b.terminal(name, TerminalPattern::Regex(re.into()), prio, ignored);
        if !ignored {
            b.production(start, vec![Symbol::Terminal(t)]);
        }
    }
    b.build(start).unwrap()
}

fn lex(lexer: &Lexer, text: &[u8]) -> LexState {
    text.iter().fold(lexer.start(), |q, &b| lexer.next(q, b))
}

fn names(g: &Grammar, ts: &[TerminalId]) -> Vec<String> {
    ts.iter().map(|&t| g.terminal_name(t).to_string()).collect()
}

#[test]
fn keyword_and_identifier_are_both_reported() {
    let g = grammar(&[("IF", "if", 0, false), ("NAME", "[a-z]+", 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    assert_eq!(names(&g, lx.accepts(lex(&lx, b"if"))), ["IF", "NAME"]);
    assert_eq!(names(&g, lx.accepts(lex(&lx, b"ifx"))), ["NAME"]);
    assert_eq!(names(&g, lx.accepts(lex(&lx, b"i"))), ["NAME"]);
}

#[test]
fn priority_keeps_only_the_highest() {
    let g = grammar(&[("ALL", "(?i:all)", 9, false), ("NAME", "[a-zA-Z]+", 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    assert_eq!(names(&g, lx.accepts(lex(&lx, b"ALL"))), ["ALL"]);
    assert_eq!(names(&g, lx.accepts(lex(&lx, b"ALLx"))), ["NAME"]);
    // The lower-priority terminal is still completable through longer lexemes.
    let q = lex(&lx, b"al");
    assert_eq!(lx.completable(q).len(), 2);
}

#[test]
fn lazy_quantifier_ends_at_first_delimiter() {
    let g = grammar(&[("STRING", r#"".*?""#, 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let q = lex(&lx, br#""ab""#);
    assert_eq!(names(&g, lx.accepts(q)), ["STRING"]);
    assert!(lx.next(q, b'"').is_dead(), "a lazy string must not extend past its closing quote");
    assert!(lx.next(q, b'x').is_dead());
    // `.` excludes newline.
    assert!(lex(&lx, b"\"a\n").is_dead());
}

#[test]
fn greedy_quantifier_extends() {
    let g = grammar(&[("STRING", r#"".*""#, 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let q = lex(&lx, br#""ab""#);
    assert!(!lx.next(q, b'"').is_dead());
}

#[test]
fn dotall_flag_allows_newline() {
    let g = grammar(&[("S", r#"(?s:<.*?>)"#, 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    assert_eq!(lx.accepts(lex(&lx, b"<a\nb>")).len(), 1);
}

#[test]
fn unicode_classes_are_byte_automata() {
    let g = grammar(&[("W", r"\w+", 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let text = "héllo世界".as_bytes();
    assert_eq!(lx.accepts(lex(&lx, text)).len(), 1);
    // A partial UTF-8 sequence is live but not accepting.
    let partial = lex(&lx, &"é".as_bytes()[..1]);
    assert!(!partial.is_dead());
    assert!(lx.accepts(partial).is_empty());
    assert!(lex(&lx, &[0xff]).is_dead());
}

#[test]
fn start_state_is_never_reentered() {
    let g = grammar(&[("T", "(ab)*c", 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let q = lex(&lx, b"ab");
    assert!(!q.is_dead());
    assert!(!lx.is_start(q));
    assert!(lx.is_start(lx.start()));
}

#[test]
fn completable_is_prod() {
    let g = grammar(&[("A", "ab", 0, false), ("B", "abc", 0, false), ("C", "x", 0, false)]);
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let q = lex(&lx, b"a");
    assert_eq!(names(&g, &lx.completable(q).iter().collect::<Vec<_>>()), ["A", "B"]);
    assert!(lx.completable(lx.start()).len() == 3);
    assert!(lx.completable(LexState::DEAD).is_empty());
}

#[test]
fn bad_regexes_are_errors() {
    for re in ["(", "a(?=b)", "^a", r"a\b", "a*", "(?<!x)y", "[z-a]"] {
        let g = grammar(&[("T", re, 0, false), ("U", "u", 0, false)]);
        let err = Lexer::new(&g, &LexerConfig::default()).unwrap_err();
        assert!(matches!(err, Error::Terminal { .. }), "{re}: {err}");
    }
}

#[test]
fn state_limit_is_enforced() {
    let g = grammar(&[("T", "[ab]*a[ab]{12}", 0, false)]);
    let err = Lexer::new(&g, &LexerConfig { max_states: 100, ..LexerConfig::default() }).unwrap_err();
    assert!(matches!(err, Error::Limit { kind: LimitKind::LexerStates, .. }), "{err}");
}

#[test]
fn matches_regex_crate_on_samples() {
    // The DFA's accepting terminals agree with regex-automata's anchored full match.
    use regex_automata::meta::Regex;
    let pats = [("NUM", r"[0-9]+(\.[0-9]+)?"), ("ID", r"[A-Za-z_][A-Za-z0-9_]*"), ("OP", r"[-+*/]=?")];
    let g = grammar(&pats.iter().map(|&(n, r)| (n, r, 0, false)).collect::<Vec<_>>());
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let regexes: Vec<Regex> = pats.iter().map(|(_, r)| Regex::new(&format!("^(?:{r})$")).unwrap()).collect();
    for s in ["12", "12.5", "12.", "a_1", "_", "+=", "-", "9x", "", "ab+"] {
        let q = lex(&lx, s.as_bytes());
        let got: Vec<String> = names(&g, lx.accepts(q));
        let want: Vec<String> =
            pats.iter().zip(&regexes).filter(|(_, re)| re.is_match(s)).map(|((n, _), _)| n.to_string()).collect();
        assert_eq!(got, want, "{s:?}");
    }
}

#[test]
fn compound_terminal_is_the_intersection_minus_the_exceptions() {
    let mut b = GrammarBuilder::new();
    let start = b.nonterminal("start");
    let word = TerminalPattern::of_regexes(vec!["[a-z]+".into(), ".{2,3}".into()], vec!["if|fi".into()]);
    let t = b.terminal("WORD", word, 0, false);
    let n = b.terminal("NUM", TerminalPattern::Regex("[0-9]+".into()), 0, false);
    b.production(start, vec![Symbol::Terminal(t)]);
    b.production(start, vec![Symbol::Terminal(n)]);
    let g = b.build(start).unwrap();
    let lx = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let word = g.terminals.iter().position(|t| t.name == "WORD").map(|i| TerminalId(i as u32)).unwrap();
    for (text, accepted) in [("a", false), ("ab", true), ("abc", true), ("if", false), ("ifs", true), ("fi", false)] {
        assert_eq!(!lx.accepts(lex(&lx, text.as_bytes())).is_empty(), accepted, "{text}");
    }
    // Too long for the length conjunct: dead, not merely non-accepting.
    assert!(lex(&lx, b"abcd").is_dead());
    assert!(lx.completable(lex(&lx, b"i")).contains(word));
    assert!(lex(&lx, b"a1").is_dead());
}

#[test]
fn compound_terminal_that_may_be_empty_is_refused() {
    let mut b = GrammarBuilder::new();
    let start = b.nonterminal("start");
    let t = b.terminal("E", TerminalPattern::of_regexes(vec!["a*".into(), "b*".into()], vec![]), 0, false);
    b.production(start, vec![Symbol::Terminal(t)]);
    let g = b.build(start).unwrap();
    let err = Lexer::new(&g, &LexerConfig::default()).unwrap_err();
    assert!(err.to_string().contains("matches the empty string"), "{err}");
}

/// Moore's refinement run `depth` full rounds over every state: the definition
/// [`Lexer::equivalent_within`] computes incrementally.
fn equivalent_within_naively(lx: &Lexer, depth: usize) -> Vec<u32> {
    let n = lx.state_count();
    let mut ids: HashMap<(bool, Vec<TerminalId>, Vec<TerminalId>), u32> = HashMap::new();
    let mut block: Vec<u32> = (0..n)
        .map(LexState::from_index)
        .map(|q| {
            let key = (lx.is_start(q), lx.accepts(q).to_vec(), lx.completable(q).iter().collect());
            let next = ids.len() as u32;
            *ids.entry(key).or_insert(next)
        })
        .collect();
    for _ in 0..depth {
        let mut ids: HashMap<Vec<u32>, u32> = HashMap::new();
        block = (0..n)
            .map(|q| {
                let mut key = vec![block[q]];
                key.extend((0..=255u8).map(|b| block[lx.next(LexState::from_index(q), b).index()]));
                let next = ids.len() as u32;
                *ids.entry(key).or_insert(next)
            })
            .collect();
    }
    block
}

#[test]
fn equivalent_within_is_moores_refinement_cut_at_depth() {
    let grammars = [
        grammar(&[("SHORT", r#""([a-z]|é){0,7}""#, 0, false), ("KEY", r#""ab""#, 0, false), ("WS", " +", 0, true)]),
        grammar(&[("A", "a{2,9}b", 0, false), ("B", "a{1,5}", 0, false), ("C", "[ab]*c", 0, false)]),
        grammar(&[("IF", "if", 1, false), ("NAME", "[a-z]+", 0, false), ("NUM", "[0-9]{1,4}", 0, false)]),
    ];
    for g in &grammars {
        let lx = Lexer::new(g, &LexerConfig::default()).unwrap();
        for depth in [0, 1, 2, 3, 5, 8, 40] {
            let fast = lx.equivalent_within(depth, usize::MAX).unwrap();
            let naive = equivalent_within_naively(&lx, depth);
            for p in 0..lx.state_count() {
                assert_eq!(fast[p].index(), (0..lx.state_count()).find(|&q| naive[q] == naive[p]).unwrap(), "depth {depth}, state {p}");
            }
        }
    }
}

/// Texts over `alphabet` (each piece one or more bytes), `count` of them, up to `len`
/// pieces long, from a fixed seed.
fn random_texts(alphabet: &[&[u8]], count: usize, len: usize) -> Vec<Vec<u8>> {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    (0..count).map(|_| (0..next(len + 1)).flat_map(|_| alphabet[next(alphabet.len())].to_vec()).collect()).collect()
}

/// A grammar whose start takes any one of `terminals`, each a name, the regexes its
/// lexemes match all of and those they match none of.
fn compound_grammar(terminals: &[(&str, &[&str], &[&str])]) -> Grammar {
    let mut b = GrammarBuilder::new();
    let start = b.nonterminal("start");
    let owned = |regexes: &[&str]| regexes.iter().map(|r| r.to_string()).collect();
    for &(name, all, except) in terminals {
        let pattern = match (all, except) {
            ([one], []) => TerminalPattern::Regex(one.to_string()),
            _ => TerminalPattern::of_regexes(owned(all), owned(except)),
        };
        let t = b.terminal(name, pattern, 0, false);
        b.production(start, vec![Symbol::Terminal(t)]);
    }
    b.build(start).unwrap()
}

/// Steps `counted` and `unrolled` (one grammar, with and without counting) through
/// random texts over `pieces` and through strings of every length in `lengths`, and
/// checks that they agree on dead states, accepted and completable terminals at every byte.
fn assert_counting_is_unrolling(counted: &Lexer, unrolled: &Lexer, pieces: &[&[u8]], lengths: std::ops::Range<usize>) {
    assert!(counted.count_horizon().is_some() && unrolled.count_horizon().is_none());
    let mut texts = random_texts(pieces, 400, 40);
    // Strings of every length around the bounds, characters of every width.
    let characters: Vec<&[u8]> = pieces.iter().copied().filter(|&p| p != b"\\" && p != b"\"").collect();
    let string = |n: usize| {
        let body: Vec<u8> = characters.iter().cycle().take(n).flat_map(|c| c.iter().copied()).collect();
        [b"\"".as_slice(), &body, b"\""].concat()
    };
    texts.extend(lengths.map(string));
    for text in texts {
        let (mut a, mut b) = (counted.start_pos(), unrolled.start_pos());
        for (i, &byte) in text.iter().enumerate() {
            (a, b) = (counted.step(a, byte), unrolled.step(b, byte));
            let at = || format!("{:?} at {i}", String::from_utf8_lossy(&text));
            assert_eq!(a.state().is_dead(), b.state().is_dead(), "{}", at());
            assert_eq!(counted.accepts(a.state()), unrolled.accepts(b.state()), "{}", at());
            assert_eq!(counted.completable(a.state()), unrolled.completable(b.state()), "{}", at());
            if a.state().is_dead() {
                break;
            }
        }
    }
}

#[test]
fn counted_strings_behave_as_unrolled_ones() {
    // Strings of 0..=30 and 20.. characters, a pattern that bounds its own length, a
    // plain string and a key name, all starting with the same quote.
    let g = grammar(&[
        ("SHORT", &json_string_of_length(0, Some(30)), 0, false),
        ("LONG", &json_string_of_length(20, None), 0, false),
        ("NAME", r#""[a-z]{1,24}""#, 0, false),
        ("ANY", r#""(?:[^"\\]|\\.)*""#, 0, false),
        ("KEY", r#""abc""#, 0, false),
    ]);
    let counted = Lexer::new(&g, &LexerConfig { count_horizon: 3, count_strings_beyond: 3, ..LexerConfig::default() }).unwrap();
    let unrolled = Lexer::new(&g, &LexerConfig::default()).unwrap();
    let pieces: [&[u8]; 9] = [b"\"", b"a", b"b", b"c", b"z", b"\\n", b"\\", "é".as_bytes(), "€".as_bytes()];
    assert_counting_is_unrolling(&counted, &unrolled, &pieces, 15..40);
}

#[test]
fn counted_strings_with_patterns_behave_as_unrolled_ones() {
    let short = json_string_of_length(1, Some(30));
    let long = json_string_of_length(20, None);
    let grammar = compound_grammar(&[
        // Words of letters, 1..=30 characters, other than "zz z".
        ("WORDS", &[r#""[a-z]+(?: [a-z]+)*""#, &short], &[r#""zz z""#]),
        // At least 20 characters, ending in "z".
        ("ZED", &[r#""[^"]*z""#, &long], &[]),
        // Lengths 3 and 6 only.
        ("TRIPLES", &[r#""(?:[a-z]{3}){1,2}""#, &short], &[]),
        // Even lengths of exactly 21 characters: never; an even count completes by the
        // count alone, not by the pattern's lengths.
        ("PAIRS", &[r#""(?:az)+""#, &json_string_of_length(21, Some(21))], &[]),
        // Lengths over a class of plain characters, alone and beside a pattern.
        ("CODES", &[r#""[az ]{2,25}""#], &[]),
        ("SPACED", &[r#""[a-z]+(?: [a-z]+)*""#, r#""[az ]{1,22}""#], &[]),
        ("ANY", &[r#""(?:[^"\\]|\\.)*""#], &[]),
    ]);
    let counted = Lexer::new(&grammar, &LexerConfig { count_horizon: 3, count_strings_beyond: 3, ..LexerConfig::default() }).unwrap();
    let unrolled = Lexer::new(&grammar, &LexerConfig::default()).unwrap();
    let counts = |text: &[u8]| text.iter().fold(counted.start_pos(), |at, &b| counted.step(at, b));
    assert_eq!(counts(b"\"ab cd").count, 5, "WORDS is counted");
    let pieces: [&[u8]; 8] = [b"\"", b"a", b"z", b" ", b"\\n", b"\\", "é".as_bytes(), "€".as_bytes()];
    assert_counting_is_unrolling(&counted, &unrolled, &pieces, 0..40);
}

#[test]
fn strings_are_counted_beyond_their_threshold_and_the_horizon() {
    let config = |horizon, beyond| LexerConfig { count_horizon: horizon, count_strings_beyond: beyond, ..LexerConfig::default() };
    let counted = |max: u64, config: &LexerConfig| {
        let g = grammar(&[("S", &json_string_of_length(0, Some(max)), 0, false)]);
        Lexer::new(&g, config).unwrap().count_horizon()
    };
    assert_eq!(counted(4, &config(2, 5)), None);
    assert_eq!(counted(6, &config(2, 5)), Some(2));
    // The horizon counts too: a bound the longest token reaches is unrolled.
    assert_eq!(counted(6, &config(7, 5)), None);
    assert_eq!(counted(6, &LexerConfig::default().serving(2)), None, "the default threshold is 256");
    assert_eq!(counted(300, &LexerConfig::default().serving(2)), Some(2));
}

#[test]
fn strings_are_not_counted_beside_other_priorities() {
    // Counted, LONG would outrank ANY on every lexeme the table reaches from a far count,
    // and ANY would drop out of what an open string can complete.
    let g = grammar(&[("LONG", &json_string_of_length(0, Some(30)), 1, false), ("ANY", r#""[a-z]*""#, 0, false)]);
    let lexer = Lexer::new(&g, &LexerConfig { count_horizon: 3, count_strings_beyond: 3, ..LexerConfig::default() }).unwrap();
    assert_eq!(lexer.count_horizon(), None);
    let q = lex(&lexer, b"\"ab");
    assert_eq!(names(&g, &lexer.completable(q).iter().collect::<Vec<_>>()), ["LONG", "ANY"]);
}

#[test]
fn components_come_after_every_component_they_reach() {
    // 0 → 1 ⇄ 2 → 3, 3 ⇄ 4, 4 → 5, 0 → 5; 6 alone with a self-loop.
    let successors: Vec<Vec<usize>> = vec![vec![1, 5], vec![2], vec![1, 3], vec![4], vec![3, 5], vec![], vec![6]];
    let graph = Graph::from_edges(successors.len(), |q, targets| targets.extend(&successors[q]));
    let (members, ends) = strongly_connected_components(&graph);
    let components: Vec<Vec<usize>> =
        ends.iter().scan(0, |start, &end| Some(members[std::mem::replace(start, end)..end].to_vec())).collect();
    let mut sorted = components.clone();
    sorted.iter_mut().for_each(|c| c.sort());
    sorted.sort();
    assert_eq!(sorted, vec![vec![0], vec![1, 2], vec![3, 4], vec![5], vec![6]]);
    let position = |q: usize| components.iter().position(|c| c.contains(&q)).unwrap();
    for (q, targets) in successors.iter().enumerate() {
        for &t in targets {
            assert!(position(t) <= position(q), "{t}'s component comes before {q}'s");
        }
    }
}

