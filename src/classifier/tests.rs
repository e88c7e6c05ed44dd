use super::*;
use crate::matcher::{oracle, Matcher};
use crate::Grammar;

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
fn ambiguous_grammar_equals_the_reference() {
    let c = classifier(
        r#"start: e
           e: e "+" e | e "*" e | "(" e ")" | N
           N: /[0-9]+/"#,
        &["1", "2", "+", "*", "(", ")", "1+", "+1", "))", "*(", "1)", ")+"],
        ClassifierConfig::default(),
    );
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
