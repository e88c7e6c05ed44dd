use super::*;
use crate::ir::testing::bnf_with;
use crate::matcher::Recognizer;

fn setup(tokens: &[&[u8]]) -> (Arc<CompiledGrammar>, TokenSpanner) {
    let g = bnf_with(
        "s: item | item s
         item: ID | NUM | ( s )",
        &[("ID", "[a-z]+", false), ("NUM", "[0-9]+", false), ("WS", " +", true), ("KW", "if", false)],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens.iter().map(|t| t.to_vec()).collect(), None));
    let spanner = TokenSpanner::new(Arc::clone(&compiled), vocab);
    (compiled, spanner)
}

#[test]
fn classes_partition_the_live_tokens() {
    let tokens: &[&[u8]] = &[b"a", b"ab", b"a b", b"a 1", b"x 2", b"(", b"((", b"!", b" ", b"  ", b"1a", b"\xff"];
    let (compiled, spanner) = setup(tokens);
    let row = spanner.row(compiled.lexer().start());
    let mut seen: Vec<u32> = (0..row.classes().len()).flat_map(|c| row.tokens(c).iter().copied()).collect();
    seen.sort();
    // "!" and "\xff" kill the lexer from the start state; every other token is in one class.
    assert_eq!(seen, vec![0, 1, 2, 3, 4, 5, 6, 8, 9, 10]);
    let class_of = |t: u32| (0..row.classes().len()).position(|c| row.tokens(c).contains(&t)).unwrap();
    assert_eq!(class_of(0), class_of(1), "a and ab: pending ID, nothing closed");
    assert_eq!(class_of(3), class_of(4), "a 1 and x 2: close ID, skip space, pending NUM");
    assert_ne!(class_of(2), class_of(3));
    assert_eq!(class_of(8), class_of(9), "one or two spaces: pending ignored lexeme");
    assert_eq!(spanner.rows_built(), 1);
}

#[test]
fn classes_match_the_recognizer() {
    // Replaying a class's lexemes and end state must agree with feeding its tokens.
    let tokens: &[&[u8]] = &[b"ab", b"a b", b"a 1", b"(a", b"a)", b"1 ", b"if", b"ifx", b"if 1", b") ("];
    let (compiled, spanner) = setup(tokens);
    for prefix in [&b""[..], b"a", b"(1 ", b"if"] {
        let mut r = Recognizer::new(Arc::clone(&compiled));
        r.feed(prefix).unwrap();
        let row = spanner.row(r.lex_state());
        for (c, class) in row.classes().iter().enumerate() {
            for &t in row.tokens(c) {
                let cp = r.checkpoint();
                let mut probe = r.clone();
                let fed_ok = probe.feed(tokens[t as usize]).is_ok();
                r.restore(&cp);
                if fed_ok {
                    assert_eq!(probe.lex_state(), class.end, "{prefix:?} + {:?}", tokens[t as usize]);
                }
            }
        }
    }
}

#[test]
fn rows_are_shared_across_threads() {
    let (compiled, spanner) = setup(&[b"a", b"1", b" "]);
    let spanner = Arc::new(spanner);
    let q = compiled.lexer().start();
    let rows: Vec<Arc<SpannerRow>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4).map(|_| s.spawn(|| spanner.row(q))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(rows.windows(2).all(|w| Arc::ptr_eq(&w[0], &w[1])));
}

/// Tokens over `alphabet`: every string of one to three of its pieces, plus `extra`.
fn tokens_over(alphabet: &[&[u8]], extra: &[&[u8]]) -> Vec<Vec<u8>> {
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    for x in alphabet {
        tokens.push(x.to_vec());
        for y in alphabet {
            tokens.push([*x, *y].concat());
            for z in alphabet {
                tokens.push([*x, *y, *z].concat());
            }
        }
    }
    tokens.extend(extra.iter().map(|t| t.to_vec()));
    tokens
}

/// After each prefix, a token is in a class of the row exactly when feeding it keeps the
/// lexer alive, and then it ends in a state accepting and able to complete what the
/// class's end state does (a walk takes states sharing a row for one another, see
/// `Stepper`, so the two may differ even in the row built for the prefix's own state).
fn assert_rows_equal_feeding(compiled: &Arc<CompiledGrammar>, tokens: &[Vec<u8>], prefixes: &[&[u8]]) -> usize {
    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens.to_vec(), None));
    let spanner = TokenSpanner::new(Arc::clone(compiled), vocab);
    let lexer = compiled.lexer();
    let mut shared = 0;
    for prefix in prefixes {
        let mut r = Recognizer::new(Arc::clone(compiled));
        r.feed(prefix).unwrap();
        let own_row = spanner.row_state(r.lex_state()) == r.lex_state();
        shared += usize::from(!own_row);
        let row = spanner.row(r.lex_state());
        for (id, token) in tokens.iter().enumerate() {
            let mut probe = r.clone();
            let alive = probe.feed(token).is_ok();
            let class = (0..row.classes().len()).find(|&c| row.tokens(c).binary_search(&(id as u32)).is_ok());
            assert_eq!(alive, class.is_some(), "{prefix:?} + {token:?}");
            if let Some(class) = class {
                let (end, real) = (row.classes()[class].end, probe.lex_state());
                assert_eq!(lexer.accepts(end), lexer.accepts(real), "{prefix:?} + {token:?}");
                assert_eq!(lexer.completable(end), lexer.completable(real), "{prefix:?} + {token:?}");
            }
        }
        for c in 0..row.classes().len() {
            assert!(row.tokens(c).windows(2).all(|w| w[0] < w[1]), "ids ascending");
        }
        assert_classes_ordered(&row);
    }
    shared
}

#[test]
fn rows_equal_feeding_each_token() {
    // A string literal whose body takes most tokens whole (the walk's subtree shortcut),
    // escapes and multibyte UTF-8 (which leave the body state), and rows holding most of
    // the vocabulary (ids ordered through a bit set) or little of it (sorted).
    let g = bnf_with(
        "s: item | item s
         item: STR | NUM",
        &[("STR", r#""([^"\\]|\\.)*""#, false), ("NUM", "[0-9]+", false), ("WS", " +", true)],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 7] = [b"a", b"b", b"\"", b"\\", "é".as_bytes(), b" ", b"1"];
    let tokens = tokens_over(&alphabet, &[b"abababababab", "ééé".as_bytes(), &[0xC3], &[0xA9, b'a']]);
    let prefixes: [&[u8]; 7] = [b"", b"\"", b"\"ab", b"\"a\\", b"12", b"\"a\" ", b"\"\xC3"];
    assert_rows_equal_feeding(&compiled, &tokens, &prefixes);
}

#[test]
fn states_sharing_a_row_behave_alike_for_every_token() {
    // Strings of at most 9 characters beside unbounded ones, and a keyword: the states
    // of a short string far from its bound share rows (tokens are at most 6 bytes), the
    // states near it do not.
    let g = bnf_with(
        "s: item | item s
         item: SHORT | KW | NUM",
        &[("SHORT", r#""([a-z ]|é){0,9}""#, false), ("KW", r#""abc""#, false), ("NUM", "[0-9]+", false), ("WS", " +", true)],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 6] = [b"a", b"b", b"\"", "é".as_bytes(), b" ", b"1"];
    let tokens = tokens_over(&alphabet, &[b"ababab", &[0xC3], &[0xA9, b'a']]);
    let mut prefixes: Vec<Vec<u8>> = (0..=9).map(|n| [b"\"".to_vec(), b"a".repeat(n)].concat()).collect();
    prefixes.extend([&b"\"ab"[..], b"\"abc", b"\"abcx", b"\"\xC3", b"\"a\xC3", "\"ééé".as_bytes()].map(<[u8]>::to_vec));
    let prefixes: Vec<&[u8]> = prefixes.iter().map(Vec::as_slice).collect();
    let shared = assert_rows_equal_feeding(&compiled, &tokens, &prefixes);
    assert!(shared >= 2, "some prefixes share a row ({shared})");
}

/// Classes must come by lexeme sequence, then end state (the classifier's lexeme trie
/// shares the prefixes of neighbours only).
fn assert_classes_ordered(row: &SpannerRow) {
    let key = |c: &TokenClass| (c.lexemes.to_vec(), c.end);
    assert!(row.classes().windows(2).all(|w| key(&w[0]) < key(&w[1])), "classes ordered: {:?}", row.classes());
}

#[test]
fn classes_come_in_lexeme_sequence_order() {
    // Tokens closing zero to three lexemes, with lexemes whose order differs from the
    // order the walk meets them in, and equal sequences ending in different states.
    let tokens: &[&[u8]] = &[
        b"1 a", b"a 1", b"a", b"1", b"(", b"((", b"( (", b"a(", b"(a", b"1(a", b"a)1", b")", b") (", b"a b", b"ab 1", b"1 1 a",
    ];
    let (compiled, spanner) = setup(tokens);
    for prefix in [&b""[..], b"a", b"1", b"(a "] {
        let mut r = Recognizer::new(Arc::clone(&compiled));
        r.feed(prefix).unwrap();
        let row = spanner.row(r.lex_state());
        assert!(row.classes().len() > 4, "{prefix:?}: several classes");
        assert_classes_ordered(&row);
    }
}

/// Keys spelled out beside any other string, and numbers.
fn keys_beside_other_strings() -> Arc<CompiledGrammar> {
    let g = bnf_with(
        "s: item | item s
         item: KEY | OTHER | NUM",
        &[("KEY", r#""(abc|abd|bcd)""#, false), ("OTHER", r#""([^"\\\\]|\\\\.)*""#, false), ("NUM", "[0-9]+", false), ("WS", " +", true)],
    );
    Arc::new(CompiledGrammar::new(&g).unwrap())
}

const KEY_ALPHABET: [&[u8]; 8] = [b"a", b"b", b"c", b"d", b"\"", b"\\", b" ", b"1"];

#[test]
fn rows_merging_kept_subtree_walks_equal_rows_walked_whole() {
    // Every byte leaving a key leads to the same "other string" state, so the rows along
    // the keys repeat first-level walks.
    let compiled = keys_beside_other_strings();
    let tokens = tokens_over(&KEY_ALPHABET, &["é".as_bytes(), b"abcabc"]);
    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens, None));
    let kept = TokenSpanner::new(Arc::clone(&compiled), Arc::clone(&vocab));
    let walked = TokenSpanner::with_config(Arc::clone(&compiled), vocab, &SpannerConfig { subtree_walk_bytes: 0 });
    let prefixes: [&[u8]; 14] =
        [b"\"", b"\"a", b"\"ab", b"\"b", b"\"bc", b"\"x", b"\"a\\", b"\"abc", b"\"abx", b"", b"\"abc\"", b"\"x\"", b"12", b"1"];
    for prefix in prefixes {
        let mut r = Recognizer::new(Arc::clone(&compiled));
        r.feed(prefix).unwrap();
        let (a, b) = (kept.row(r.lex_state()), walked.row(r.lex_state()));
        let key = |row: &SpannerRow| -> Vec<_> {
            row.classes().iter().enumerate().map(|(i, c)| (c.lexemes.to_vec(), c.end, row.tokens(i).to_vec())).collect()
        };
        assert_eq!(key(&a), key(&b), "{prefix:?}");
    }
    assert!(kept.subtrees.bytes() > 0, "some walks were kept and merged");
    assert_eq!(walked.subtrees.bytes(), 0);
}

#[test]
fn dense_classes_are_held_as_bitmaps_and_listed_on_demand() {
    // Inside the other strings' body most tokens are plain text, one class: its row holds
    // it as a bitmap, lists only the other classes, and lists it when asked.
    let compiled = keys_beside_other_strings();
    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens_over(&KEY_ALPHABET, &["é".as_bytes()]), None));
    let spanner = TokenSpanner::new(Arc::clone(&compiled), vocab);
    let mut r = Recognizer::new(Arc::clone(&compiled));
    r.feed(b"\"x").unwrap();
    let row = spanner.row(r.lex_state());
    let dense: Vec<usize> = (0..row.classes().len()).filter(|&i| row.classes()[i].bitmap().is_some()).collect();
    assert!(!dense.is_empty(), "the plain-text class is dense");
    let dense_count: usize = dense.iter().map(|&i| row.classes()[i].token_count()).sum();
    assert_eq!(row.all_tokens().len() + dense_count, row.token_count(), "only the other classes are listed");
    let (listed, ranges) = row.listing();
    for (i, class) in row.classes().iter().enumerate() {
        let ids = row.tokens(i);
        assert_eq!(ids.len(), class.token_count());
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "ascending");
        assert_eq!(&listed[ranges[i].start as usize..ranges[i].end as usize], ids, "the artifact's listing");
        if let Some(bits) = class.bitmap() {
            let set: Vec<u32> = (0..bits.len() as u32 * 32).filter(|&t| bits[t as usize / 32] & (1 << (t % 32)) != 0).collect();
            assert_eq!(ids, set.as_slice(), "listed from the bitmap");
        }
    }
}

/// Per token: its lexemes and what its end state accepts and can complete.
type Fate = (Vec<Lexeme>, Vec<TerminalId>, Vec<TerminalId>);

fn fates(lexer: &Lexer, row: &SpannerRow) -> HashMap<u32, Fate> {
    let mut fates = HashMap::new();
    for (i, class) in row.classes().iter().enumerate() {
        let fate = (class.lexemes.to_vec(), lexer.accepts(class.end).to_vec(), lexer.completable(class.end).iter().collect());
        fates.extend(row.tokens(i).iter().map(|&t| (t, fate.clone())));
    }
    fates
}

/// Plans each prefix's state in order; for each derived one, checks token by token that
/// the reference's row (for the tokens it settles) and the part (for the others) give
/// every token the fate the state's own row gives it. The derived plans met.
fn assert_derived_plans_exact(compiled: &Arc<CompiledGrammar>, tokens: &[Vec<u8>], prefixes: &[&[u8]]) -> Vec<Derivation> {
    let lexer = compiled.lexer();
    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens.to_vec(), None));
    let planned = TokenSpanner::new(Arc::clone(compiled), Arc::clone(&vocab));
    let whole = TokenSpanner::new(Arc::clone(compiled), vocab);
    let mut derived = Vec::new();
    for prefix in prefixes {
        let mut r = Recognizer::new(Arc::clone(compiled));
        r.feed(prefix).unwrap();
        let q = r.lex_state();
        // Read after closing, the reference's tokens close `q`'s lexeme first.
        let (d, closed_first) = match planned.plan(q).clone() {
            Plan::Whole => continue,
            Plan::Derived(d) => (d, None),
            Plan::AfterClosing(d) => (d, Some(Lexeme::closed_in(lexer, q).expect("a lexeme to close"))),
        };
        let reference_links = planned.plan(d.reference).derivation().map_or(0, Derivation::links);
        assert_eq!(d.links(), reference_links + 1, "{prefix:?}: links counted");
        assert!(d.links() <= derive::MAX_LINKS, "{prefix:?}: links bounded");
        let reference = planned.row(d.reference);
        let reference = match closed_first {
            Some(lexeme) => Arc::new(reference.after(lexeme)),
            None => reference,
        };
        let (from_reference, from_part) = (fates(lexer, &reference), fates(lexer, &planned.part(q)));
        let cleared: Vec<u32> = d.cleared(planned.vocab().trie()).flatten().copied().collect();
        let expected = fates(lexer, &whole.row(q));
        for (id, token) in tokens.iter().enumerate() {
            let id = id as u32;
            let fate = if d.settles(token) {
                assert!(!from_part.contains_key(&id), "{prefix:?} + {token:?} is not in the part");
                from_reference.get(&id)
            } else {
                assert!(!from_reference.contains_key(&id) || cleared.contains(&id), "{prefix:?} + {token:?} is cleared");
                from_part.get(&id)
            };
            assert_eq!(fate, expected.get(&id), "{prefix:?} + {token:?}");
        }
        derived.push(d);
    }
    derived
}

#[test]
fn derived_plans_stand_for_the_rows_they_replace() {
    // The states along the keys step as the "other string" state does on every first
    // byte but the next letters of a key.
    let compiled = keys_beside_other_strings();
    let tokens = tokens_over(&KEY_ALPHABET, &["é".as_bytes(), b"abcabc", b"x"]);
    let prefixes: [&[u8]; 12] =
        [b"\"", b"\"a", b"\"ab", b"\"b", b"\"bc", b"\"x", b"\"a\\", b"\"abc", b"\"abx", b"", b"\"abc\"", b"12"];
    let derived = assert_derived_plans_exact(&compiled, &tokens, &prefixes);
    assert!(derived.len() >= 4, "the states along the keys are derived ({})", derived.len());
}

#[test]
fn accepting_states_are_read_after_closing_their_lexeme() {
    // Inside a number a digit continues it; a space or a quote closes it and restarts
    // the lexer in the start state, where the token's other bytes fare as from there.
    let compiled = keys_beside_other_strings();
    let tokens = tokens_over(&KEY_ALPHABET, &[b"12 \"ab"]);
    let spanner = TokenSpanner::new(Arc::clone(&compiled), Arc::new(Vocabulary::from_token_bytes(tokens.clone(), None)));
    let lexer = compiled.lexer();
    let Plan::AfterClosing(d) = spanner.plan(lexer.next(lexer.start(), b'1')) else { panic!("a number is read after closing") };
    assert_eq!(d.reference, lexer.start());
    assert!(d.steps_apart(b'1') && !d.steps_apart(b' ') && !d.steps_apart(b'"'));
    assert!(d.settles(b" \"a") && !d.settles(b"12"));
    assert_eq!(spanner.rows_built(), 0, "planned from the lexer alone");
    let derived = assert_derived_plans_exact(&compiled, &tokens, &[b"1", b"12", b"12 1"]);
    assert_eq!(derived.len(), 3);
}

#[test]
fn states_near_a_length_bound_are_derived_from_the_far_ones() {
    // A string of at most 12 letters: tokens are at most 6 bytes, so the states up to
    // 6 letters in share one row (a hub), and each state nearer the bound is that row for
    // its short tokens.
    let g = bnf_with(
        "s: item | item s
         item: SHORT | NUM",
        &[("SHORT", r#""[a-c]{0,12}""#, false), ("NUM", "[0-9]+", false), ("WS", " +", true)],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 5] = [b"a", b"b", b"c", b"\"", b"1"];
    let tokens = tokens_over(&alphabet, &[b"abcabc"]);
    let prefixes: Vec<Vec<u8>> = (0..=12).map(|n| [b"\"".to_vec(), b"a".repeat(n)].concat()).collect();
    let prefixes: Vec<&[u8]> = prefixes.iter().map(Vec::as_slice).collect();
    let derived = assert_derived_plans_exact(&compiled, &tokens, &prefixes);
    let by_length = derived.iter().filter(|d| !d.settles(b"abcabc") && d.settles(b"a")).count();
    assert!(by_length >= 2, "states near the bound are derived by token length ({derived:?})");
}

#[test]
fn a_run_of_one_letter_is_derived_by_length_rather_than_by_first_bytes() {
    // Twelve `a`s in a row anywhere in a string: a state per run length, each stepping
    // apart from the string's first state on `a` alone. By first bytes, every token
    // starting with `a` would be each state's part (a fifth of the vocabulary); by
    // length, only the tokens long enough to reach the bound are.
    let g = bnf_with(
        "s: item | item s
         item: RUN | NUM",
        &[("RUN", r#""[a-d]*a{12}[a-d]*""#, false), ("NUM", "[0-9]+", false), ("WS", " +", true)],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 5] = [b"a", b"b", b"c", b"d", b"\""];
    let long: &[u8] = b"aaaaaaaaaa";
    let tokens = tokens_over(&alphabet, &[long]);
    let prefixes: Vec<Vec<u8>> = (0..=11).map(|n| [b"\"".to_vec(), b"a".repeat(n)].concat()).collect();
    let prefixes: Vec<&[u8]> = prefixes.iter().map(Vec::as_slice).collect();
    let derived = assert_derived_plans_exact(&compiled, &tokens, &prefixes);
    let by_length = derived.iter().filter(|d| d.settles(b"ab") && !d.settles(long)).count();
    assert!(by_length >= 2, "the run's states are derived by token length ({derived:?})");
}

/// The fewest bytes of the tokens a row holds, by first byte ([`build_row`]).
type Shortest = fn(u8) -> Option<usize>;

/// Whether each prefix's state takes plain tokens by count ([`PlainChain`]) as
/// `by_count` says; whether its row, its part for every first byte but `b'a'`, and its
/// part of the tokens of at least 3 bytes, so built equal the ones walked token by
/// token; how many of those states count characters (rather than keep to themselves).
fn assert_plain_chains(compiled: &Arc<CompiledGrammar>, vocab: &Vocabulary, cases: &[(&[u8], bool)]) -> usize {
    let lexer = compiled.lexer();
    let plain = vocab.trie().plain_tokens();
    let steps = PlainSteps::new(lexer.state_count());
    let spanner = TokenSpanner::new(Arc::clone(compiled), Arc::new(vocab.clone()));
    let key = |row: &SpannerRow| -> Vec<_> {
        row.classes().iter().enumerate().map(|(i, c)| (c.lexemes.to_vec(), c.end, row.tokens(i).to_vec())).collect()
    };
    let mut counting = 0;
    for &(prefix, by_count) in cases {
        let mut r = Recognizer::new(Arc::clone(compiled));
        r.feed(prefix).unwrap();
        let q = spanner.row_state(r.lex_state());
        let chain = PlainChain::of(&steps, spanner.stepper(), q, plain.max_chars());
        assert_eq!(chain.is_some(), by_count, "{prefix:?}");
        counting += usize::from(chain.is_some_and(|chain| !chain.keeps_to_start()));
        let parts: [(&str, Shortest); 3] =
            [("whole", |_| Some(1)), ("by first byte", |byte| (byte != b'a').then_some(1)), ("by length", |_| Some(3))];
        for (part, shortest) in parts {
            let row = |plain| build_row(spanner.stepper(), vocab, q, &SubtreeWalks::new(0), shortest, plain);
            assert_eq!(key(&row(None)), key(&row(Some(&steps))), "{prefix:?}, {part}");
        }
    }
    counting
}

#[test]
fn rows_taking_plain_tokens_by_count_equal_rows_walked_through() {
    // A JSON string's body keeps to itself on plain text; beside it, a string of at most
    // 3 characters counts them (then, past its bound, keeps to the body); a quoted body
    // without `x` steps characters apart; the start state is never taken by count.
    let g = bnf_with(
        "s: item | item s
         item: STR | SHORT | NOX | NUM",
        &[
            ("STR", r#""([^"\\\x00-\x1f]|\\.)*""#, false),
            ("SHORT", r#""[^"\\\x00-\x1f]{0,3}"!"#, false),
            ("NOX", "'[^'x]*'", false),
            ("NUM", "[0-9]+", false),
            ("WS", " +", true),
        ],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 10] = [b"a", b"x", b"\"", b"\\", "é".as_bytes(), b"\t", b"'", b"!", b" ", b"1"];
    let extra: [&[u8]; 7] = [&[0xC3], &[0xA9, b'a'], &[0x7F], &[0xED, 0xA0, 0x80], "𝄞".as_bytes(), b"abcd", b"abcdef"];
    let tokens = tokens_over(&alphabet, &extra);
    let vocab = Vocabulary::from_token_bytes(tokens.clone(), None);
    let cases: [(&[u8], bool); 8] =
        [(b"\"", true), (b"\"ab", true), (b"\"abcd", true), (b"'", false), (b"'a", false), (b"", false), (b"1", false), (b"\"a\\", true)];
    let counting = assert_plain_chains(&compiled, &vocab, &cases);
    assert!(counting >= 2, "states counting characters are taken by count ({counting})");
    assert_rows_equal_feeding(&compiled, &tokens, &[b"\"", b"\"ab", b"\"a\\", b"\"\xC3", b"'a", b"\"abc"]);

    // A string of at most 2 characters alone: a third kills the lexer.
    let g = bnf_with("s: item | item s\n item: TINY | NUM", &[("TINY", r#""[^"\\\x00-\x1f]{0,2}""#, false), ("NUM", "[0-9]+", false)]);
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let counting = assert_plain_chains(&compiled, &vocab, &[(b"\"", true), (b"\"a", true), (b"\"ab", true)]);
    assert_eq!(counting, 3);

    // Key names beside other strings: along a name, the first bytes that leave it lead
    // to the other strings' body, whose plain tokens are taken by count.
    let compiled = keys_beside_other_strings();
    let cases: [(&[u8], bool); 5] = [(b"\"", false), (b"\"a", false), (b"\"ab", false), (b"\"x", true), (b"", false)];
    assert_plain_chains(&compiled, &vocab, &cases);
    // With tokens that go on along the names: after `"a`, the first byte `b` goes on,
    // and the plain tokens under `bc`, `bd`, `bx`, `bé`… are taken by count one
    // character deeper; those under `é` (two bytes) after its second byte.
    let extra = ["é", "éa", "éab", "bé", "béa", "b\u{e9}\"", "abcabc", "bcaa"].map(str::as_bytes);
    let key_vocab = Vocabulary::from_token_bytes(tokens_over(&KEY_ALPHABET, &extra), None);
    assert_plain_chains(&compiled, &key_vocab, &[(b"\"", false), (b"\"a", false), (b"\"b", false), (b"", false)]);
}

#[test]
fn derivations_chain_through_derived_references() {
    // Key names beside lowercase strings beside any other strings: along a name, every
    // letter but the next leads to the lowercase body, which steps as a name's prefix
    // does on every first byte but the name's next letter; the lowercase body in turn is
    // the other strings' body but for its letters.
    let g = bnf_with(
        "s: item | item s
         item: KEY | LOW | OTHER | NUM",
        &[("KEY", r#""(abc|abd)""#, false), ("LOW", r#""[a-z]*""#, false), ("OTHER", r#""[^"]*""#, false), ("NUM", "[0-9]+", false)],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 10] = [b"a", b"b", b"c", b"x", b"1", b"2", b" ", b"-", b"_", b"\""];
    let tokens = tokens_over(&alphabet, &[]);
    let prefixes: [&[u8]; 9] = [b"\"", b"\"x", b"\"x1", b"\"a", b"\"ab", b"\"abc", b"\"b", b"\"1", b""];
    let derived = assert_derived_plans_exact(&compiled, &tokens, &prefixes);
    assert!(derived.iter().any(|d| d.links() >= 2), "some derivation goes through another ({derived:?})");
}

/// Any sequence of numbers, brackets and commas (rows are the lexer's business, and
/// feeding checks the parser too), with whitespace and `#…;` comments ignored.
fn items_with_ignored_lexemes() -> Arc<CompiledGrammar> {
    let g = bnf_with(
        "s: item | item s
         item: NUM | [ | ] | ,",
        &[("NUM", "[0-9]+", false), ("WS", " +", true), ("COMMENT", "#[a-z]*;", true)],
    );
    Arc::new(CompiledGrammar::new(&g).unwrap())
}

/// The bytes tokens of [`items_with_ignored_lexemes`] are made of.
const ITEM_BYTES: [&[u8]; 8] = [b"[", b"]", b",", b" ", b"1", b"#", b"a", b";"];

#[test]
fn rows_of_states_closing_on_every_byte_equal_rows_walked() {
    // After "[", "," or a comment (ignored) every byte closes the lexeme and restarts the
    // lexer; those rows are the start state's with the lexeme first. After "1" a digit
    // continues the number, so its row is walked.
    let compiled = items_with_ignored_lexemes();
    let tokens = tokens_over(&ITEM_BYTES, &[b"x", b"#ab;[", b"1,2"]);
    let prefixes: [&[u8]; 7] = [b"", b"[", b"[1,", b"[#a;", b"[[1] ,", b"[1", b"[ "];
    assert_rows_equal_feeding(&compiled, &tokens, &prefixes);

    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens, None));
    let spanner = TokenSpanner::new(Arc::clone(&compiled), Arc::clone(&vocab));
    let lexer = compiled.lexer();
    let mut closing = Vec::new();
    for prefix in prefixes {
        let mut r = Recognizer::new(Arc::clone(&compiled));
        r.feed(prefix).unwrap();
        let q = spanner.row_state(r.lex_state());
        let closed = spanner.closes_on_every_byte(r.lex_state()).then(|| Lexeme::closed_in(lexer, r.lex_state()));
        closing.push((prefix, closed.as_ref().map(Option::is_some)));
        let walked = build_row(spanner.stepper(), &vocab, q, &spanner.subtrees, |_| Some(1), Some(&spanner.plain_steps));
        let key = |row: &SpannerRow| -> Vec<_> {
            row.classes().iter().enumerate().map(|(i, c)| (c.lexemes.to_vec(), c.end, row.tokens(i).to_vec())).collect()
        };
        assert_eq!(key(&spanner.row(q)), key(&walked), "{prefix:?}");
    }
    // Closing with a lexeme ("[", ","), with an ignored one (a comment), or not at all.
    let expected: [(&[u8], Option<bool>); 7] =
        [(b"", None), (b"[", Some(true)), (b"[1,", Some(true)), (b"[#a;", Some(false)), (b"[[1] ,", Some(true)), (b"[1", None), (b"[ ", None)];
    assert_eq!(closing, expected);
}

#[test]
fn states_between_ignored_lexemes_share_the_start_row() {
    // Inside or after whitespace, and after a comment, every byte steps as from the start
    // state (closing only an ignored lexeme): the start state's row serves them. Inside
    // a comment, or after "1", bytes step otherwise.
    let compiled = items_with_ignored_lexemes();
    let tokens = tokens_over(&ITEM_BYTES, &[b"x", b"#ab;[", b"1,2", b"  1"]);
    let prefixes: [&[u8]; 6] = [b"[ ", b"[  ", b"[#a;", b"[1 ", b"[#a", b"[1"];
    assert_rows_equal_feeding(&compiled, &tokens, &prefixes);

    let spanner = TokenSpanner::new(Arc::clone(&compiled), Arc::new(Vocabulary::from_token_bytes(tokens, None)));
    let start_row = spanner.row_state(compiled.lexer().start());
    let shares_start_row = |prefix: &[u8]| {
        let mut r = Recognizer::new(Arc::clone(&compiled));
        r.feed(prefix).unwrap();
        spanner.row_state(r.lex_state()) == start_row
    };
    let shared: Vec<bool> = prefixes.iter().map(|p| shares_start_row(p)).collect();
    assert_eq!(shared, [true, true, true, true, false, false]);
}

#[test]
fn gathered_lists_keep_their_order_across_chunks() {
    let ids: Vec<u32> = (0..3 * Spans::CHUNK as u32 + 5).collect();
    let mut spans = Spans::default();
    for (i, id) in ids.iter().enumerate() {
        spans.push((std::slice::from_ref(id), i as u32 % 7));
    }
    assert_eq!(spans.chunks.len(), 4);
    let back: Vec<(u32, u32)> = spans.iter().map(|(list, class)| (list[0], class)).collect();
    let expected: Vec<(u32, u32)> = ids.iter().enumerate().map(|(i, &id)| (id, i as u32 % 7)).collect();
    assert_eq!(back, expected);
}

/// Each prefix's row: its tokens' fates equal feeding them, and equal the row walked
/// without taking plain tokens by count; the row state of each prefix.
fn assert_rows_equal_walked(compiled: &Arc<CompiledGrammar>, tokens: &[Vec<u8>], prefixes: &[&[u8]]) -> Vec<LexState> {
    assert_rows_equal_feeding(compiled, tokens, prefixes);
    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens.to_vec(), None));
    let spanner = TokenSpanner::new(Arc::clone(compiled), Arc::clone(&vocab));
    let lexer = compiled.lexer();
    let mut states = Vec::new();
    for prefix in prefixes {
        let mut r = Recognizer::new(Arc::clone(compiled));
        r.feed(prefix).unwrap();
        let q = spanner.row_state(r.lex_state());
        let walked = build_row(spanner.stepper(), &vocab, q, &SubtreeWalks::new(0), |_| Some(1), None);
        assert_eq!(fates(lexer, &spanner.row(q)), fates(lexer, &walked), "{prefix:?}");
        states.push(q);
    }
    states
}

#[test]
fn strings_with_an_unanchored_pattern_take_plain_tokens_by_count_or_but_for_a_few_bytes() {
    // A string holding `wi` somewhere. Before the match, plain text keeps the lexer where
    // it is but for `w`; past it, the DFA still tracks partial matches (`w`, `wi` again),
    // which no token tells apart from the rest: plain text keeps it there.
    let body = r#"([^"\\\x00-\x1f]|\\.)*"#;
    let g = bnf_with("s: STR | STR s", &[("STR", &format!("\"{body}wi{body}\""), false)]);
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 7] = [b"a", b"w", b"i", b" ", "é".as_bytes(), b"\"", b"\\"];
    let tokens = tokens_over(&alphabet, &[&[0xC3], b"aaaaw", b"wi\"", "éaé".as_bytes()]);
    let prefixes: [&[u8]; 6] = [b"\"", b"\"a", b"\"w", b"\"awi", b"\"awiw", b"\"awiaw"];
    let states = assert_rows_equal_walked(&compiled, &tokens, &prefixes);

    let vocab = Vocabulary::from_token_bytes(tokens, None);
    let spanner = TokenSpanner::new(Arc::clone(&compiled), Arc::new(vocab.clone()));
    let steps = PlainSteps::new(compiled.lexer().state_count());
    let max_chars = vocab.trie().plain_tokens().max_chars();
    let chain = |q| PlainChain::of(&steps, spanner.stepper(), q, max_chars);
    let path = |q| PlainPath::of(&steps, spanner.stepper(), q, max_chars, |_| true).unwrap();
    // Before the match: no chain, but for `w` plain text keeps to the state.
    assert!(chain(states[1]).is_none());
    let before = path(states[1]);
    assert_eq!((before.first().bytes().collect::<Vec<u8>>(), before.later()), (vec![b'w'], before.first()));
    assert!((0..=max_chars).all(|chars| before.end(chars) == Some(states[1])));
    // Past it: plain text keeps to the state, `w` and all.
    for &q in &states[3..] {
        assert!(chain(q).is_some_and(|chain| chain.keeps_to_start()), "{q:?}");
    }
}

#[test]
fn strings_of_ascii_leave_the_characters_beyond_it_to_their_walk() {
    // Plain ASCII keeps the body where it is; a character beyond ASCII kills the lexer.
    let g = bnf_with("s: STR | STR s", &[("STR", r#""[ !#-\[\]-~]*""#, false)]);
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 6] = [b"a", b" ", b"b", b"c", "é".as_bytes(), b"\""];
    let tokens = tokens_over(&alphabet, &[&[0xE2], &[0xE2, 0x82], "€".as_bytes(), "a€".as_bytes(), b"ab\"", "aé\"".as_bytes()]);
    let prefixes: [&[u8]; 3] = [b"\"", b"\"a", b"\"a b"];
    let states = assert_rows_equal_walked(&compiled, &tokens, &prefixes);

    let vocab = Arc::new(Vocabulary::from_token_bytes(tokens, None));
    let spanner = TokenSpanner::new(Arc::clone(&compiled), Arc::clone(&vocab));
    let steps = PlainSteps::new(compiled.lexer().state_count());
    let path = PlainPath::of(&steps, spanner.stepper(), states[1], vocab.trie().plain_tokens().max_chars(), |_| true).unwrap();
    assert_eq!(path.first().bytes().collect::<Vec<u8>>(), vec![0xC2], "every character beyond ASCII");
    assert_eq!(path.later(), path.first());
}

#[test]
fn strings_counting_characters_but_for_a_few_take_plain_tokens_along_their_path() {
    // A key name, a string of at most five characters, and an address with one `@`:
    // after `"`, `n` may go on along the name, `@` only after a character, a space kills
    // all; every other character counts one more, up to the bound, and on along the
    // address past it.
    let g = bnf_with(
        "s: item | item s
         item: KEY | SHORT | MAIL",
        &[("KEY", r#""name""#, false), ("SHORT", r#""[^"\\@ ]{0,5}""#, false), ("MAIL", r#""[^"\\@ ]+@[^"\\@ ]+""#, false)],
    );
    let compiled = Arc::new(CompiledGrammar::new(&g).unwrap());
    let alphabet: [&[u8]; 11] = [b"a", b"b", b"c", b"d", b"e", b"f", b"n", b"@", "é".as_bytes(), b"\"", b"\\"];
    let tokens = tokens_over(&alphabet, &[b"aaaaaaa", b"aaaa@a", b"name\"", b"na me", "ééééééé".as_bytes(), b"a\"", b"n@a\""]);
    let prefixes: [&[u8]; 8] = [b"\"", b"\"a", b"\"ab", b"\"n", b"\"na", b"\"aaaa", b"\"aaaaaa", b"\"a@"];
    let states = assert_rows_equal_walked(&compiled, &tokens, &prefixes);

    let vocab = Vocabulary::from_token_bytes(tokens, None);
    let spanner = TokenSpanner::new(Arc::clone(&compiled), Arc::new(vocab.clone()));
    let steps = PlainSteps::new(compiled.lexer().state_count());
    let plain = vocab.trie().plain_tokens();
    let path = PlainPath::of(&steps, spanner.stepper(), states[0], plain.max_chars(), |_| true).unwrap();
    let bytes = |set: PlainExceptions| set.bytes().collect::<Vec<u8>>();
    assert!(PlainChain::of(&steps, spanner.stepper(), states[0], plain.max_chars()).is_none());
    assert_eq!((bytes(path.first()), bytes(path.later())), (b" @n".to_vec(), b" @".to_vec()));
    // Each count up to the bound ends apart; past it, along the address.
    let ends: Vec<Option<LexState>> = (1..=plain.max_chars()).map(|chars| path.end(chars)).collect();
    assert_eq!(ends.len(), 7);
    assert!(ends.iter().all(Option::is_some));
    assert_eq!(ends[..6].iter().collect::<hashbrown::HashSet<_>>().len(), 6, "{ends:?}");
    assert_eq!(ends[5..].iter().collect::<hashbrown::HashSet<_>>().len(), 1, "{ends:?}");
    // The row takes this path: enough plain tokens hold no later exception (and start
    // with no first one).
    let mut kept = plain.bitmap().to_vec();
    remove_holding(plain, &mut kept, path.later());
    assert!(enough_kept(plain, &kept));
}

proptest::proptest! {
    /// Merging the exception lists lazily, passing over the nodes of walked subtrees a run
    /// at a time, yields what sorting all of them and skipping those inside a walked
    /// subtree does.
    #[test]
    fn starts_merge_as_a_sort_skipping_walked_subtrees(
        nodes in proptest::collection::btree_map(0u32..400, (0usize..4, 0u16..9), 0..120),
        sizes in proptest::collection::vec(1usize..40, 400),
    ) {
        // Each node in one list: 0 holds the first exceptions (no characters before them).
        let mut lists: Vec<(Vec<u32>, Vec<u16>)> = vec![(Vec::new(), Vec::new()); 4];
        for (&node, &(list, chars)) in &nodes {
            lists[list].0.push(node);
            lists[list].1.push(if list == 0 { 0 } else { chars });
        }
        let subtree_end = |node: usize| node + sizes[node];
        let mut expected = Vec::new();
        let mut sorted: Vec<(usize, usize)> = lists.iter().flat_map(|(n, c)| n.iter().zip(c).map(|(&n, &c)| (n as usize, usize::from(c)))).collect();
        sorted.sort_unstable();
        let mut walked_to = 0;
        for (node, chars) in sorted {
            if node >= walked_to {
                expected.push((node, chars));
                walked_to = subtree_end(node);
            }
        }
        let later = lists[1..].iter().map(|(n, c)| (n.as_slice(), c.as_slice()));
        let mut starts = Starts::new(&lists[0].0, later);
        let (mut merged, mut walked_to) = (Vec::new(), 0);
        while let Some((node, chars)) = starts.next_from(walked_to) {
            merged.push((node, chars));
            walked_to = subtree_end(node);
        }
        proptest::prop_assert_eq!(merged, expected);
    }
}
