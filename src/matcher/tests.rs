use super::*;
use crate::ir::testing::bnf_with;
use crate::ir::Grammar;
use crate::spanner::TokenSpanner;

/// Every string of length 1..=max_len over `alphabet`, plus EOS as the last token.
fn exhaustive_vocab(alphabet: &[u8], max_len: usize) -> Arc<Vocabulary> {
    vocab_with(alphabet, max_len, &[])
}

/// [`exhaustive_vocab`] with the tokens `extra` after the strings (before EOS).
fn vocab_with(alphabet: &[u8], max_len: usize, extra: &[&[u8]]) -> Arc<Vocabulary> {
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    let mut layer: Vec<Vec<u8>> = vec![Vec::new()];
    for _ in 0..max_len {
        layer = layer.iter().flat_map(|p| alphabet.iter().map(move |&b| [p.as_slice(), &[b]].concat())).collect();
        tokens.extend(layer.iter().cloned());
    }
    tokens.extend(extra.iter().map(|t| t.to_vec()));
    let eos = tokens.len() as u32;
    tokens.push(Vec::new());
    Arc::new(Vocabulary::from_token_bytes(tokens, Some(eos)))
}

fn compiled(g: &Grammar) -> Arc<CompiledGrammar> {
    Arc::new(CompiledGrammar::new(g).unwrap())
}

/// Commit `text` byte-token by byte-token, checking fast == oracle at every step.
fn check_against_oracle(g: &Grammar, alphabet: &[u8], max_len: usize, text: &[u8]) {
    check_compiled_against_oracle(compiled(g), alphabet, max_len, text);
}

fn check_compiled_against_oracle(compiled: Arc<CompiledGrammar>, alphabet: &[u8], max_len: usize, text: &[u8]) {
    check_against_oracle_with(compiled, exhaustive_vocab(alphabet, max_len), alphabet, text);
}

/// [`check_compiled_against_oracle`] over `vocab`, whose first ids are `alphabet`'s bytes.
fn check_against_oracle_with(compiled: Arc<CompiledGrammar>, vocab: Arc<Vocabulary>, alphabet: &[u8], text: &[u8]) {
    let spanner = TokenSpanner::new(Arc::clone(&compiled), Arc::clone(&vocab));
    let mut m = Matcher::new(compiled, vocab.clone());
    for (i, &b) in text.iter().enumerate() {
        let (mut by_classes, mut reference) = (vec![0u32; m.mask_words()], vec![0u32; m.mask_words()]);
        m.compute_mask_by_classes(&spanner, &mut by_classes).unwrap();
        m.compute_mask(&mut reference).unwrap();
        assert_eq!(by_classes, reference, "step {i}: per-class mask differs");
        match oracle::verify(&mut m).unwrap() {
            Ok(()) => {}
            Err((only_fast, only_ref)) => panic!(
                "step {i} ({:?}): fast-only {:?}, reference-only {:?}",
                String::from_utf8_lossy(&text[..i]),
                only_fast.iter().map(|&t| vocab.token_name(t)).collect::<Vec<_>>(),
                only_ref.iter().map(|&t| vocab.token_name(t)).collect::<Vec<_>>()
            ),
        }
        let token = alphabet.iter().position(|&a| a == b).expect("text byte in alphabet") as u32;
        m.commit(token).unwrap_or_else(|e| panic!("{:?}: {e}", String::from_utf8_lossy(&text[..=i])));
    }
    assert!(oracle::verify(&mut m).unwrap().is_ok());
    assert!(m.is_accepting().unwrap(), "{:?} is a sentence", String::from_utf8_lossy(text));
}

/// The distinct bytes of `text`, ascending: a vocabulary alphabet that can spell it.
fn alphabet_of(text: &str) -> Vec<u8> {
    let mut alphabet: Vec<u8> = text.bytes().collect();
    alphabet.sort_unstable();
    alphabet.dedup();
    alphabet
}

/// Strings counted rather than unrolled (bounds beyond a count horizon of 2, tokens of
/// up to 2 bytes): the per-class masks, read off rows shared across far counts, equal
/// the oracle's at every step, across both bounds, through escapes and UTF-8.
#[test]
fn counted_strings_equal_oracle_across_their_bounds() {
    let schema = r#"{"type": "object", "additionalProperties": false,
        "properties": {"a": {"type": "string", "maxLength": 7}, "b": {"type": "string", "minLength": 5}}}"#;
    let g = Grammar::from_json_schema(schema).unwrap();
    let lexer = LexerConfig { count_horizon: 2, count_strings_beyond: 2, ..LexerConfig::default() };
    let compiled = Arc::new(CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..CompileConfig::default() }).unwrap());
    assert!(compiled.lexer().count_horizon().is_some(), "both strings are counted");
    let text = r#"{"a":"x\né\"xxx","b":"yy\\yyy"}"#;
    check_compiled_against_oracle(Arc::clone(&compiled), &alphabet_of(text), 2, text.as_bytes());
    let mut r = Recognizer::new(compiled);
    r.feed(br#"{"a":"xxxxxxx"#).unwrap();
    assert!(r.feed(b"x").is_err(), "an eighth character");
    r.feed(br#"","b":"yyyy"#).unwrap();
    assert!(r.feed(b"\"").is_err(), "four characters are too few");
    r.feed(b"y\"}").unwrap();
    assert!(r.is_complete().unwrap());
}

/// Counted beyond 5 characters with a horizon of 2 (tokens of up to 2 bytes): `a` (at
/// most 4 characters) is unrolled, `b` (at least 8) counted with only counts 5..=7 near
/// its bound, and the masks equal the oracle's at every step across both.
#[test]
fn strings_counted_beyond_a_threshold_past_the_horizon_equal_oracle() {
    let schema = r#"{"type": "object", "additionalProperties": false,
        "properties": {"a": {"type": "string", "maxLength": 4}, "b": {"type": "string", "minLength": 8}}}"#;
    let g = Grammar::from_json_schema(schema).unwrap();
    let lexer = LexerConfig { count_horizon: 2, count_strings_beyond: 5, ..LexerConfig::default() };
    let compiled = Arc::new(CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..CompileConfig::default() }).unwrap());
    assert_eq!(compiled.lexer().count_horizon(), Some(2), "b is counted");
    let text = r#"{"a":"x\né","b":"yy\\yyyy\"yy"}"#;
    check_compiled_against_oracle(Arc::clone(&compiled), &alphabet_of(text), 2, text.as_bytes());
    let mut r = Recognizer::new(compiled);
    r.feed(br#"{"a":"xxxx"#).unwrap();
    assert!(r.feed(b"x").is_err(), "a fifth character");
    r.feed(br#"","b":"yyyyyyy"#).unwrap();
    assert!(r.feed(b"\"").is_err(), "seven characters are too few");
    r.feed(b"y\"}").unwrap();
    assert!(r.is_complete().unwrap());
}

/// A length beside a `pattern` and a `format` is counted too (their completions are
/// upward closed), and the masks equal the oracle's at every step; the bounds and the
/// patterns both hold.
#[test]
fn lengths_counted_beside_patterns_equal_oracle() {
    let schema = r#"{"type": "object", "additionalProperties": false,
        "properties": {"a": {"type": "string", "pattern": "^[a-z]+(-[a-z]+)*$", "minLength": 3, "maxLength": 9},
                       "b": {"type": "string", "format": "hostname", "maxLength": 8}}}"#;
    let g = Grammar::from_json_schema(schema).unwrap();
    let lexer = LexerConfig { count_horizon: 2, count_strings_beyond: 2, ..LexerConfig::default() };
    let compiled = Arc::new(CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..CompileConfig::default() }).unwrap());
    assert_eq!(compiled.lexer().count_horizon(), Some(2), "the lengths are counted");
    let text = r#"{"a":"ab-cd-efg","b":"a-b.cd.e"}"#;
    check_compiled_against_oracle(Arc::clone(&compiled), &alphabet_of(text), 2, text.as_bytes());
    let mut r = Recognizer::new(compiled);
    r.feed(br#"{"a":"ab"#).unwrap();
    assert!(r.feed(b"\"").is_err(), "two characters are too few");
    r.feed(b"-cd-ef").unwrap();
    assert!(r.feed(b"-").is_err(), "a ninth character that needs a tenth");
    r.feed(b"g").unwrap();
    assert!(r.feed(b"h").is_err(), "a tenth character");
    r.feed(br#"","b":"a.b"}"#).unwrap();
    assert!(r.is_complete().unwrap());
}

/// A length beside a pattern counted with a horizon fitted to the vocabulary: no token
/// adds more than 2 characters to the string (words of at most 2 letters), though the
/// longest has 6 bytes. Within the plain threshold (16), a lexer serving 6-byte tokens
/// unrolls it; the fitted one counts it (from 9 on), its masks equal the oracle's at
/// every step up to the bound, and a spanner over another vocabulary refuses it.
#[test]
fn lengths_counted_with_a_fitted_horizon_equal_oracle() {
    let schema = r#"{"type": "object", "additionalProperties": false,
        "properties": {"h": {"type": "string", "pattern": "^[a-z]{1,2}(\\.[a-z]{1,2})*\\.?$", "maxLength": 12}}}"#;
    let g = Grammar::from_json_schema(schema).unwrap();
    let text = r#"{"h":"ab.c.de.f.gh"}"#;
    let alphabet = alphabet_of(text);
    let vocab = vocab_with(&alphabet, 2, &[b"aaaaaa", b"\"aaaaa", b"------"]);
    let config = |lexer: LexerConfig| CompileConfig { lexer: LexerConfig { count_strings_beyond: 16, ..lexer }, ..CompileConfig::default() };
    let fitted = CompiledGrammar::with_config(&g, &config(LexerConfig::default().serving_vocabulary(&vocab))).unwrap();
    let longest = CompiledGrammar::with_config(&g, &config(LexerConfig::default().serving(6))).unwrap();
    assert_eq!(fitted.lexer().fitted_horizon().map(|f| f.horizon), Some(2));
    assert_eq!((longest.lexer().count_horizon(), longest.lexer().fitted_horizon()), (None, None));
    let fitted = Arc::new(fitted);
    check_against_oracle_with(Arc::clone(&fitted), vocab, &alphabet, text.as_bytes());
    let mut r = Recognizer::new(Arc::clone(&fitted));
    r.feed(br#"{"h":"ab.cd.ef.gh."#).unwrap();
    assert!(r.feed(b"a").is_err(), "a thirteenth character");
    let other = TokenSpanner::new(fitted, exhaustive_vocab(&alphabet, 2));
    assert!(matches!(other.check_count_horizon(), Err(crate::Error::Limit { kind: crate::LimitKind::CountHorizon, .. })));
}

/// A lexing context serves a counted string while its count is far from every bound,
/// and takes no way out of that far run: at the first count near a bound its position
/// dies, and masks read the full lexer's state, exactly, to the end of the string.
#[test]
fn a_context_leaves_a_counted_string_near_its_bounds_to_the_full_lexer() {
    // With a horizon of 2, counts 7..=9 are near `maxLength` 9 (a crossing at 10).
    let schema = r#"{"type": "object", "additionalProperties": false,
        "properties": {"a": {"type": "string", "maxLength": 9}, "b": {"type": "string"}}}"#;
    let g = Grammar::from_json_schema(schema).unwrap();
    let lexer = LexerConfig { count_horizon: 2, count_strings_beyond: 2, context_product_states: 0, ..LexerConfig::default() };
    let compiled = Arc::new(CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..CompileConfig::default() }).unwrap());
    assert!(compiled.lexer().count_horizon().is_some() && compiled.lexer().context_count() > 0);
    let mut r = Recognizer::new(Arc::clone(&compiled));
    r.feed(br#"{"a":""#).unwrap();
    // The full lexer runs `b`'s string beside it (no state of its has the counted one
    // alone, as the context's do).
    for count in 1..=9 {
        r.feed(b"x").unwrap();
        let in_context = r.mask_state() != r.lex_state();
        assert_eq!(in_context, count < 7, "{count} characters in");
    }
    assert!(r.feed(b"x").is_err(), "a tenth character");
    let text = br#"{"a":"xxxxxxxxx","b":"ab"}"#;
    check_compiled_against_oracle(compiled, b"{}\":,abx", 2, text);
}

fn arithmetic() -> Grammar {
    bnf_with(
        "e: e + e | e * e | ( e ) | NUM",
        &[("NUM", "[0-9]+", false), ("WS", " +", true)],
    )
}

#[test]
fn fast_equals_oracle_on_ambiguous_arithmetic() {
    check_against_oracle(&arithmetic(), b"0123+*() ", 2, b"(1 + 23)*0 +2");
}

#[test]
fn fast_equals_oracle_with_keyword_identifier_overlap() {
    let g = bnf_with(
        "s: stmt | stmt s
         stmt: if ID ; | ID = ID ;",
        &[("ID", "[a-z]+", false), ("WS", " ", true)],
    );
    check_against_oracle(&g, b"ifx=; ", 3, b"if x; if = x; x = if;");
}

#[test]
fn eos_only_when_complete() {
    let g = arithmetic();
    let vocab = exhaustive_vocab(b"1+ ", 1);
    let eos = vocab.eos_tokens()[0];
    let mut m = Matcher::new(compiled(&g), vocab);
    let mut mask = vec![0u32; m.mask_words()];
    m.compute_mask(&mut mask).unwrap();
    assert_eq!(mask[0] >> eos & 1, 0, "empty text is not a sentence");
    m.commit(0).unwrap(); // "1"
    m.commit(2).unwrap(); // " " (pending ignored lexeme)
    m.compute_mask(&mut mask).unwrap();
    assert_eq!(mask[0] >> eos & 1, 1, "text ending inside an ignored terminal is complete");
    m.commit(1).unwrap(); // "+"
    m.compute_mask(&mut mask).unwrap();
    assert_eq!(mask[0] >> eos & 1, 0);
    assert!(matches!(m.commit(eos), Err(Error::Rejected { .. })));
    m.commit(0).unwrap();
    m.commit(eos).unwrap();
    assert!(m.is_terminated());
    m.compute_mask(&mut mask).unwrap();
    assert!(mask.iter().all(|&w| w == 0));
    assert!(m.commit(0).is_err());
    m.rollback(1).unwrap();
    assert!(!m.is_terminated());
    assert!(m.is_accepting().unwrap());
}

#[test]
fn rollback_restores_masks() {
    let g = arithmetic();
    let vocab = exhaustive_vocab(b"12+*() ", 2);
    let mut m = Matcher::new(compiled(&g), vocab);
    let mut before = vec![0u32; m.mask_words()];
    let mut after = before.clone();
    m.commit(4).unwrap(); // "("
    m.compute_mask(&mut before).unwrap();
    for &t in &[0u32, 2, 0, 3, 1] {
        m.commit(t).unwrap();
    }
    m.rollback(5).unwrap();
    m.compute_mask(&mut after).unwrap();
    assert_eq!(before, after);
    assert!(matches!(m.rollback(2), Err(Error::Rollback { requested: 2, available: 1 })));
}

#[test]
fn bad_calls_are_errors() {
    let g = arithmetic();
    let vocab = exhaustive_vocab(b"1+", 1);
    let n = vocab.len() as u32;
    let mut m = Matcher::new(compiled(&g), vocab);
    assert!(matches!(m.commit(n), Err(Error::TokenOutOfRange { .. })));
    assert!(matches!(m.commit(1), Err(Error::Rejected { offset: 0, .. })));
    assert!(matches!(m.compute_mask(&mut [0u32; 7]), Err(Error::MaskSize { .. })));
    assert!(matches!(m.commit_bytes(&[0xff, 0xfe]), Err(Error::Rejected { .. })));
    assert_eq!(m.committed_steps(), 0);
}

#[test]
fn forced_bytes_and_ff_tokens() {
    let g = bnf_with("s: begin x | begin y", &[]);
    let vocab = Arc::new(Vocabulary::from_token_bytes(
        vec![b"be".to_vec(), b"begin".to_vec(), b"x".to_vec(), b"gin".to_vec(), vec![]],
        Some(4),
    ));
    let mut m = Matcher::new(compiled(&g), vocab);
    assert_eq!(m.forced_bytes().unwrap(), b"begin");
    assert_eq!(m.ff_tokens().unwrap(), vec![1]);
    m.commit(0).unwrap();
    assert_eq!(m.forced_bytes().unwrap(), b"gin");
    m.commit(3).unwrap();
    assert_eq!(m.forced_bytes().unwrap(), b"");
}

#[test]
fn recognizer_reports_first_bad_offset() {
    let g = arithmetic();
    let mut r = Recognizer::new(compiled(&g));
    match r.feed(b"1 + (2 * ) + 3") {
        Err(Error::Rejected { offset, .. }) => assert_eq!(offset, 9),
        other => panic!("{other:?}"),
    }
    assert_eq!(r.offset(), 0, "a failed feed leaves the recognizer unchanged");
}

/// The reference mask's recognizer keeps viability answers and parser steps across the
/// tokens it tries; every answer must be the one a fresh recognizer, fed the same
/// prefix, gives.
#[test]
fn memoized_recognizer_answers_as_fresh_ones() {
    let g = Grammar::from_lark(
        r#"
        start: value
        value: "[" [value ("," value)*] "]" | NUMBER | WORD | WORD WORD
        NUMBER: /[0-9]+/
        WORD: /[a-z]+/
        %ignore " "
        "#,
    )
    .unwrap();
    let compiled = compiled(&g);
    let alphabet = b"[],1a z";
    let mut suffixes: Vec<Vec<u8>> = vec![Vec::new()];
    for len in 1..=3 {
        let longer: Vec<Vec<u8>> = suffixes
            .iter()
            .filter(|s| s.len() == len - 1)
            .flat_map(|s| alphabet.iter().map(move |&b| [s.as_slice(), &[b]].concat()))
            .collect();
        suffixes.extend(longer);
    }
    let at = |prefix: &str| {
        let mut r = Recognizer::new(Arc::clone(&compiled));
        r.feed(prefix.as_bytes()).unwrap();
        r
    };
    for prefix in ["", "[", "[1", "[1,", "[ab", "[ab c", "[[1] ,", "[a b"] {
        let mut reused = at(prefix);
        reused.memoize(8);
        for suffix in &suffixes {
            let fresh = at(prefix).stays_viable_after(suffix).unwrap();
            assert_eq!(reused.stays_viable_after(suffix).unwrap(), fresh, "{prefix:?} + {:?}", String::from_utf8_lossy(suffix));
        }
    }
}

/// A grammar with enough productions for its LR tables to be built beside its lexer: a
/// list of `n` different keywords, each its own rule, and of `more` items.
fn many_keywords(n: usize, more: &[&str], more_rules: &str) -> Grammar {
    let rules: String = (0..n).map(|i| format!("k{i}: \"w{i}\"\n")).collect();
    let items: Vec<String> = (0..n).map(|i| format!("k{i}")).chain(more.iter().map(|m| m.to_string())).collect();
    Grammar::from_lark(&format!("start: item+\nitem: {}\n{rules}{more_rules}", items.join(" | "))).unwrap()
}

#[test]
fn tables_built_beside_the_lexer_are_the_tables_built_alone() {
    let g = many_keywords(600, &[], "");
    assert!(builds_tables_beside(&g));
    let compiled = compiled(&g);
    let alone = LrTables::new(&g, &LrConfig::default()).unwrap();
    assert!(*compiled.tables() == alone, "the tables differ from those built alone");
    check_compiled_against_oracle(compiled, b"w0123456789", 2, b"w12w599w0");
}

#[test]
fn tables_built_beside_the_lexer_report_their_error_first() {
    let g = many_keywords(600, &[], "");
    let config = CompileConfig {
        lr: LrConfig { max_states: 3, ..LrConfig::default() },
        lexer: LexerConfig { max_states: 3, ..LexerConfig::default() },
        ..CompileConfig::default()
    };
    let err = CompiledGrammar::with_config(&g, &config).unwrap_err();
    assert!(matches!(err, Error::Limit { kind: LimitKind::LrStates, .. }), "{err}");
    let lexer_only = CompileConfig { lexer: config.lexer.clone(), ..CompileConfig::default() };
    let err = CompiledGrammar::with_config(&g, &lexer_only).unwrap_err();
    assert!(matches!(err, Error::Limit { kind: LimitKind::LexerStates, .. }), "{err}");
}

/// The grammar of a MaskBench schema from `../shared` (`None`, saying so, when it is not
/// there).
fn maskbench_grammar(name: &str) -> Option<Grammar> {
    use crate::frontend::json_schema::{compile_json_schema, JsonSchemaOptions};
    let path = format!("{}/../shared/maskbench/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("SKIPPED: ../shared not found ({path})");
        return None;
    };
    let file: serde_json::Value = serde_json::from_str(&text).unwrap();
    let schema = serde_json::to_string(&file["schema"]).unwrap();
    Some(compile_json_schema(&schema, &JsonSchemaOptions::default()).unwrap().grammar)
}

/// `Github_ultra---o39532`: the context of a key position taking only names keeps every
/// literal of the schema (169, 2,669 states); the context of `customFields`, whose 150
/// names come beside any other key, must still find room. Without it every key-name
/// prefix there is a product state of the full lexer (it counts characters for the
/// 24-character `id`), each with a whole row of the vocabulary (0.3–1.5 ms a mask).
#[test]
fn a_large_literal_context_leaves_room_for_keys_beside_any_other() {
    let Some(grammar) = maskbench_grammar("Github_ultra---o39532") else { return };
    let mut recognizer = Recognizer::new(Arc::new(CompiledGrammar::new(&grammar).unwrap()));
    let before_keys = r#"{"id": "507f1f77bcf86cd799439011", "createdAt": 1643723400, "updatedAt": 1643723400, "properties": {}, "#;
    let named = r#""description": "A product", "name": "Product Name", "tags": ["tag1"], "identifiers": {"gtin": "0123456789012", "sku": "ABC123"}, "#;
    recognizer.feed(format!(r#"{before_keys}{named}"customFields": {{"nutrientB"#).as_bytes()).unwrap();
    assert_ne!(recognizer.mask_state(), recognizer.lex_state(), "the key name is read in the full lexer");
}

#[test]
fn lexing_contexts_read_the_tables_built_beside_the_lexer() {
    // Two strings that both open with a quote, each after its own keyword: a context each.
    let g = many_keywords(600, &["\"a\" A", "\"b\" B"], "A: /\"[a-c]{1,4}\"/\nB: /\"[a-z]*\"/\n");
    assert!(builds_tables_beside(&g));
    let lexer = LexerConfig { context_product_states: 0, ..LexerConfig::default() };
    let compiled = Arc::new(CompiledGrammar::with_config(&g, &CompileConfig { lexer, ..CompileConfig::default() }).unwrap());
    assert!(compiled.lexer().context_count() > 0);
    check_compiled_against_oracle(compiled, b"ab\"czw1", 2, b"a\"abc\"b\"zz\"w1a\"c\"");
}

/// `Snowplow---sp_339`: about 30 properties take a counted string (bounds of 500 to
/// 6,000 characters, beyond the count horizon) or `null`. Counting near every bound in
/// a context unrolled it past its room, so those values were read in the full lexer's
/// product states, a whole row of the vocabulary per character (1.3–1.9 ms a mask).
#[test]
fn a_counted_value_is_read_in_its_context() {
    let Some(grammar) = maskbench_grammar("Snowplow---sp_339_Normalized") else { return };
    let mut recognizer = Recognizer::new(Arc::new(CompiledGrammar::new(&grammar).unwrap()));
    recognizer.feed(br#"{"failure": "x", "payload": {"etl_tags": "my"#).unwrap();
    assert_ne!(recognizer.mask_state(), recognizer.lex_state(), "the value is read in the full lexer");
}

/// `Github_medium---o9913` has room for 1,695 context states, and the context serving
/// the most LR states (968: its keys, and the values of its free-form `meta`) needs
/// 1,036. Held to half the room, it was dropped, and those positions read the full
/// lexer's product states (the file's masks 3.5× slower).
#[test]
fn a_context_serving_most_states_may_take_more_than_half_the_room() {
    let Some(grammar) = maskbench_grammar("Github_medium---o9913") else { return };
    let compiled = Arc::new(CompiledGrammar::new(&grammar).unwrap());
    let meta = r#"{"version": "1.0.0", "notes": "x", "enabled": true, "triggers": [{"key": "timer", "type": "timer", "config": {"seconds": 60}, "meta": {"category": "#;
    for prefix in [r#"{""#.to_string(), format!(r#"{meta}"trig"#), format!(r#"{meta}"trigger", "na"#)] {
        let mut recognizer = Recognizer::new(compiled.clone());
        recognizer.feed(prefix.as_bytes()).unwrap();
        assert_ne!(recognizer.mask_state(), recognizer.lex_state(), "{prefix} is read in the full lexer");
    }
}
