use super::*;
use crate::matcher::{oracle, Matcher};
use crate::{Error, Grammar};

fn classifier(lark: &str, tokens: &[&str], config: ClassifierConfig) -> Arc<StackClassifier> {
    let g = Grammar::from_lark(lark).unwrap();
    let mut bytes: Vec<Vec<u8>> = tokens.iter().map(|t| t.as_bytes().to_vec()).collect();
    bytes.push(Vec::new());
    let eos = bytes.len() as u32 - 1;
    let vocab = Arc::new(Vocabulary::from_token_bytes(bytes, Some(eos)));
    Arc::new(StackClassifier::with_config(Arc::new(CompiledGrammar::new(&g).unwrap()), vocab, config))
}

/// Commit `text` token by token (greedy longest token), checking the classifier's mask
/// against the reference before every token and at the end.
fn check_text(c: &Arc<StackClassifier>, text: &str) {
    let mut m = Matcher::with_classifier(Arc::clone(c));
    let vocab = Arc::clone(c.vocab());
    let mut rest = text.as_bytes();
    loop {
        let mut fast = vec![0u32; m.mask_words()];
        m.compute_mask(&mut fast).unwrap();
        assert_eq!(fast, oracle::reference_mask(&m).unwrap(), "after {:?}", &text[..text.len() - rest.len()]);
        if rest.is_empty() {
            break;
        }
        let token = (0..vocab.len() as u32)
            .filter_map(|t| vocab.token_bytes(t).filter(|b| !b.is_empty() && rest.starts_with(b)).map(|b| (b.len(), t)))
            .max()
            .expect("a token for the text")
            .1;
        m.commit(token).unwrap();
        rest = &rest[vocab.token_bytes(token).unwrap().len()..];
    }
}

const JSONISH: &str = r#"
    start: value
    value: obj | arr | NUM | STR
    obj: "{" (pair ("," pair)*)? "}"
    pair: STR ":" value
    arr: "[" (value ("," value)*)? "]"
    NUM: /-?[0-9]+/
    STR: /"[a-z]*"/
    %ignore " "
"#;
const JSONISH_TOKENS: &[&str] =
    &["{", "}", "[", "]", ",", ":", "\"", "a", "\"a\"", "\":", "1", "12", " ", "}]", "]}", "},", "1,", " \"", "[[", "\"a", "a\""];

#[test]
fn equals_the_reference_on_nested_values() {
    let c = classifier(JSONISH, JSONISH_TOKENS, ClassifierConfig::default());
    check_text(&c, r#"{"a": [1, [12, "a"], {"aa": {}}], "a":1}"#);
    check_text(&c, "[[[[1]]], [], [[[]]]]");
    assert_eq!(c.stats().overflowed_edges, 0);
}

#[test]
fn states_read_after_closing_their_lexeme_equal_the_reference() {
    // Inside a number, "1" and "12" continue it; every other token closes it first and
    // is read from the start state's automaton over the parse that takes the number.
    let c = classifier(JSONISH, JSONISH_TOKENS, ClassifierConfig::default());
    check_text(&c, r#"[1, 12, {"a": 121}, [1,1], 1]"#);
    check_text(&c, "12");
    let lexer = c.compiled().lexer();
    let in_number = lexer.next(lexer.start(), b'1');
    assert!(matches!(c.spanner().plan(in_number), Plan::AfterClosing(_)), "{:?}", c.spanner().plan(in_number));
    assert_eq!(c.stats().derived_lexer_states, 1, "its part has an automaton, and it none of its own");
    assert_eq!(c.stats().overflowed_edges, 0);
}

/// Expressions without precedence, over a vocabulary with tokens that span operators.
fn ambiguous_expressions() -> Arc<StackClassifier> {
    classifier(
        r#"start: e
           e: e "+" e | e "*" e | "(" e ")" | N
           N: /[0-9]+/"#,
        &["1", "2", "+", "*", "(", ")", "1+", "+1", "))", "*(", "1)", ")+"],
        ClassifierConfig::default(),
    )
}

#[test]
fn ambiguous_grammar_equals_the_reference() {
    let c = ambiguous_expressions();
    check_text(&c, "1+2*(1+2)*((2))+1");
}

#[test]
fn full_eager_build_then_masks_build_nothing() {
    let c = classifier(JSONISH, JSONISH_TOKENS, ClassifierConfig { eager_depth: usize::MAX, ..Default::default() });
    c.build_eager().unwrap();
    let built = c.stats();
    assert!(built.states > 2 && built.edges > 0);
    check_text(&c, r#"[{"a": [1, 12]}, "aa", [[]]]"#);
    assert_eq!(c.stats().edges, built.edges, "every edge a mask needed was built eagerly");

    let shallow = classifier(JSONISH, JSONISH_TOKENS, ClassifierConfig { eager_depth: 1, ..Default::default() });
    shallow.build_eager().unwrap();
    assert!(shallow.stats().edges < built.edges, "depth 1 builds only the edges read from a head");
    check_text(&shallow, r#"[{"a": [1, 12]}, "aa", [[]]]"#);
}

#[test]
fn unbounded_known_stack_falls_back_to_the_exact_path() {
    // Hidden left recursion: `b` is empty, so `a: b a "x"` pushes without popping.
    let c = classifier(
        r#"start: a
           a: b a "x" | "y"
           b: "z"?"#,
        &["x", "y", "z", "yx", "xx", "zy"],
        ClassifierConfig { max_known_stack: 8, ..Default::default() },
    );
    check_text(&c, "zzyxxx");
    assert!(c.stats().overflowed_edges > 0, "the bound was hit and the per-class path used");
}

#[test]
fn a_tiny_cache_is_cleared_and_masks_stay_exact() {
    let c = classifier(JSONISH, JSONISH_TOKENS, ClassifierConfig { cache_capacity: 1, ..Default::default() });
    check_text(&c, r#"{"a": [1, {"a": []}]}"#);
}

fn reload(c: &StackClassifier) -> Arc<StackClassifier> {
    let bytes = c.to_artifact().unwrap();
    Arc::new(StackClassifier::from_artifact(&bytes, Arc::clone(c.vocab()), &ArtifactConfig::default()).unwrap())
}

#[test]
fn a_loaded_artifact_holds_what_was_built_and_masks_exactly() {
    let full = ClassifierConfig { eager_depth: usize::MAX, ..Default::default() };
    let c = classifier(JSONISH, JSONISH_TOKENS, full.clone());
    c.build_eager().unwrap();
    let loaded = reload(&c);
    assert_eq!(loaded.stats(), c.stats());
    assert_eq!(loaded.spanner().rows_built(), c.spanner().rows_built());
    let stats = c.stats();
    let builds = c.builds();
    assert_eq!(builds.automata as usize, stats.lexer_states + stats.derived_lexer_states, "every automaton built counted once");
    assert_eq!(builds.edges as usize, stats.edges, "every edge built counted once");
    assert_eq!(loaded.builds(), Builds::default(), "what an artifact restores is not counted");
    check_text(&loaded, r#"[{"a": [1, 12]}, "aa", [[]]]"#);
    assert_eq!(loaded.stats().edges, c.stats().edges, "the loaded edges were enough, as the built ones were");
    assert_eq!(loaded.builds(), Builds::default(), "nothing was built to mask the text");

    // A partly built (lazy) classifier round-trips too, and builds the rest on first use.
    // Derived states' parts are not written: a loaded classifier derives them again.
    let ambiguous = ambiguous_expressions();
    check_text(&ambiguous, "1+(2");
    assert!(ambiguous.stats().derived_lexer_states > 0, "a number is read after closing it");
    let loaded = reload(&ambiguous);
    assert_eq!(loaded.stats(), stats_without_parts(&ambiguous));
    check_text(&loaded, "1+2*(1+2)*((2))+1");
    assert!(loaded.stats().edges > ambiguous.stats().edges);
    assert!(loaded.builds().edges > 0, "the edges added since loading are counted");
    assert_eq!(reload(&loaded).to_artifact().unwrap(), loaded.to_artifact().unwrap(), "writing is deterministic");
}

/// `c`'s stats but for its derived states' parts: what an artifact holds.
fn stats_without_parts(c: &StackClassifier) -> ClassifierStats {
    let mut stats = ClassifierStats { lexer_states: c.stats().lexer_states, ..Default::default() };
    c.automata.iter().filter_map(OnceLock::get).for_each(|automaton| stats.count(automaton));
    stats
}

fn artifact_error(result: Result<StackClassifier>) -> (String, String) {
    match result {
        Err(Error::Artifact { at, reason }) => (at, reason),
        Err(e) => panic!("expected an artifact error, got {e}"),
        Ok(_) => panic!("expected an artifact error, got a classifier"),
    }
}

#[test]
fn damaged_or_foreign_artifacts_are_refused_with_the_reason() {
    let c = classifier(JSONISH, JSONISH_TOKENS, ClassifierConfig::default());
    c.build_eager().unwrap();
    let bytes = c.to_artifact().unwrap();
    let vocab = Arc::clone(c.vocab());
    let load = |bytes: &[u8]| StackClassifier::from_artifact(bytes, Arc::clone(&vocab), &ArtifactConfig::default());

    for len in [0, 7, 19, 20, bytes.len() / 2, bytes.len() - 1] {
        let (at, reason) = artifact_error(load(&bytes[..len]));
        assert!(at == "header" || reason.contains("corrupt or truncated"), "{len} bytes: {at}: {reason}");
    }
    for i in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0x10;
        artifact_error(load(&flipped));
    }
    let mut version = bytes.clone();
    version[8] += 1;
    assert!(artifact_error(load(&version)).1.contains("format version 7"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(artifact_error(load(&longer)).1.contains("corrupt or truncated"));

    let other = classifier(JSONISH, &JSONISH_TOKENS[1..], ClassifierConfig::default());
    let foreign = StackClassifier::from_artifact(&bytes, Arc::clone(other.vocab()), &ArtifactConfig::default());
    assert_eq!(artifact_error(foreign).0, "vocabulary");
}

#[test]
fn an_artifact_file_is_read_in_place_and_masks_exactly() {
    let full = ClassifierConfig { eager_depth: usize::MAX, ..Default::default() };
    let c = classifier(JSONISH, JSONISH_TOKENS, full);
    c.build_eager().unwrap();
    let path = std::env::temp_dir().join(format!("stackmask-test-{}-mapped.smc", std::process::id()));
    std::fs::write(&path, c.to_artifact().unwrap()).unwrap();
    let opened = StackClassifier::open_artifact(&path, Arc::clone(c.vocab()), &ArtifactConfig::default());
    std::fs::remove_file(&path).unwrap(); // the mapping keeps the pages
    let opened = Arc::new(opened.unwrap());
    assert_eq!(opened.stats(), c.stats());
    assert!(opened.spanner().row(opened.compiled().lexer().start()).all_tokens().is_shared(), "token ids are read from the file");
    check_text(&opened, r#"[{"a": [1, 12]}, "aa", [[]]]"#);
    assert_eq!(opened.to_artifact().unwrap(), c.to_artifact().unwrap(), "a mapped classifier writes the same artifact");

    match StackClassifier::open_artifact(&path, Arc::clone(c.vocab()), &ArtifactConfig::default()) {
        Err(Error::Io { path: p, .. }) => assert_eq!(p, path.display().to_string()),
        other => panic!("expected an I/O error for a missing file, got {other:?}"),
    }
}

#[test]
fn derived_states_equal_the_reference() {
    // Keys beside any other string: the states along a key name take the "other string"
    // state's automaton, corrected by the automaton of their few own first bytes.
    let c = classifier(
        r#"start: "{" (pair ("," pair)*)? "}"
           pair: (KEY | STR) ":" (NUM | STR)
           KEY.2: /"(name|nest|id)"/
           STR: /"[a-z]*"/
           NUM: /[0-9]+/
           %ignore " ""#,
        &["{", "}", "\"", "n", "na", "ne", "me", "m", "e", "s", "st", "t\"", "id", "x", "xy", "\":", "\",", ":", ",", " ", "1", "a", "me\":"],
        ClassifierConfig::default(),
    );
    // At `"nes` as a value, `t"` would close a KEY there (its priority wins), so it is
    // not viable, though it is in the "other string" state.
    check_text(&c, r#"{"name": "nam", "nest":1, "nx": "x", "id": "nesx", "nestxy": 1}"#);
    assert!(c.stats().derived_lexer_states >= 3, "{:?}", c.stats());
}

#[test]
fn states_near_a_length_bound_equal_the_reference() {
    // Strings of at most 14 letters, tokens of up to 5 bytes: the states nearer the bound
    // than 5 letters take an earlier state's automaton for their short tokens.
    let c = classifier(
        r#"start: "[" (STR ("," STR)*)? "]"
           STR: /"[a-z]{0,14}"/"#,
        &["[", "]", ",", "\"", "a", "ab", "abc", "abcd", "abcde", "a\"", "ab\"", "bc\",", "\"]", "e\"]"],
        ClassifierConfig::default(),
    );
    check_text(&c, r#"["abcdeabcdeabcd","abcdeabcdeabc","abcdeab","abcdeabcdeab"]"#);
    assert!(c.stats().derived_lexer_states >= 2, "{:?}", c.stats());
}

#[test]
fn chained_derivations_equal_the_reference() {
    // Key names beside lowercase strings beside any other strings: the states along the
    // names derive from the lowercase body, itself derived from the other strings' body.
    let pieces = ["a", "b", "c", "d", "x", "1", "2", "3", " ", "-", "_", ".", "\""];
    let c = classifier(
        r#"start: "{" (pair ("," pair)*)? "}"
           pair: (KEY | LOW | OTHER) ":" (NUM | LOW | OTHER)
           KEY.2: /"(abc|abd)"/
           LOW.1: /"[a-z]*"/
           OTHER: /"[^"]*"/
           NUM: /[0-9]+/
           %ignore " ""#,
        &pieces.iter().flat_map(|x| pieces.iter().map(move |y| format!("{x}{y}"))).chain(["{", "}", ":", ","].map(String::from)).chain(pieces.map(String::from)).collect::<Vec<_>>().iter().map(String::as_str).collect::<Vec<_>>(),
        ClassifierConfig::default(),
    );
    check_text(&c, r#"{"abc": "abx", "abx": "a1b", "ab1": 12, "abd": "x-_", "x": "xa"}"#);
    let links: Vec<usize> = (0..c.compiled().lexer().state_count())
        .filter_map(|q| c.spanner().plan(LexState::from_index(q)).derivation().map(Derivation::links))
        .collect();
    assert!(links.iter().any(|&l| l >= 2), "some derivation goes through another ({links:?})");
}

#[test]
fn walks_drop_the_levels_a_state_only_skips() {
    // `record` reduces eight symbols at once: reading down from its last field, the
    // reduction's configurations skip the seven states below before their goto, and
    // with nested records the walk crosses whole records that way.
    let lark = r#"
        start: record
        record: "(" field "," field "," field "," field ")"
        field: NAME | record
        NAME: /[a-z]+/
    "#;
    let tokens = ["(", ")", ",", "a", "b", "ab", "a,", "a)", "))", "(a"];
    let c = classifier(lark, &tokens, ClassifierConfig::default());
    check_text(&c, "(a,(a,b,(ab,a,b,a),a),b,(a,a,a,(a,b,a,b)))");
    let skipping = c.automata.iter().filter_map(|a| a.get()).any(|a| {
        let dfa = a.dfa.read().unwrap();
        dfa.skips.iter().flatten().any(|skip| skip.levels >= 2 && dfa.skips[skip.target as usize].is_none())
    });
    assert!(skipping, "no automaton state skips stack levels");
    // A loaded classifier links the same skips and masks the same.
    check_text(&reload(&c), "(a,(a,b,(ab,a,b,a),a),b,(a,a,a,(a,b,a,b)))");
}
