//! Arbitrary commit / rollback / mask sequences on a fixed ambiguous grammar and a small
//! byte vocabulary: no panic, and the fast mask always equals the reference mask.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stackmask::matcher::oracle;
use stackmask::tokenizer::Vocabulary;
use stackmask::{CompiledGrammar, Grammar, Matcher};
use std::sync::{Arc, OnceLock};

const GRAMMAR: &str = r#"
start: stmt+
stmt: "if" expr "then" stmt ("else" stmt)? | NAME "=" expr ";"
expr: expr "+" expr | expr "*" expr | "(" expr ")" | NAME | NUMBER
NAME: /[a-z]+/
NUMBER: /[0-9]+/
%ignore " "
"#;

fn setup() -> &'static (Arc<CompiledGrammar>, Arc<Vocabulary>) {
    static SETUP: OnceLock<(Arc<CompiledGrammar>, Arc<Vocabulary>)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let g = Grammar::from_lark(GRAMMAR).expect("grammar");
        let mut tokens: Vec<Vec<u8>> = (0u8..=255).map(|b| vec![b]).collect();
        for w in ["if", "then", "else", "x", "12", " = ", ";", " +", "* ", "(", ")"] {
            tokens.push(w.as_bytes().to_vec());
        }
        tokens.push(vec![0xff, b'x']); // never valid UTF-8
        tokens.push(Vec::new());
        let eos = tokens.len() as u32 - 1;
        (Arc::new(CompiledGrammar::new(&g).expect("compiles")), Arc::new(Vocabulary::from_token_bytes(tokens, Some(eos))))
    })
}

fuzz_target!(|data: &[u8]| {
    let (compiled, vocab) = setup();
    let mut m = Matcher::new(Arc::clone(compiled), Arc::clone(vocab));
    for chunk in data.chunks(2) {
        match chunk {
            [0, n] => {
                let _ = m.rollback(*n as usize % 4);
            }
            [1, _] => {
                assert_eq!(oracle::verify(&mut m).expect("mask"), Ok(()), "fast mask differs from the reference");
            }
            [op, t] => {
                let token = (*op as u32 * 256 + *t as u32) % (vocab.len() as u32 + 2);
                let _ = m.commit(token);
            }
            _ => {}
        }
    }
});
