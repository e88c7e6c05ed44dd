//! Arbitrary text as a Lark grammar: front-end, lexer and LR construction must return
//! `Ok` or a typed error, never panic or hang.
#![no_main]
use libfuzzer_sys::fuzz_target;
use stackmask::matcher::CompileConfig;
use stackmask::{CompiledGrammar, Grammar};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(grammar) = Grammar::from_lark(text) else { return };
    let mut config = CompileConfig::default();
    config.lexer.max_states = 2_000;
    config.lr.max_states = 2_000;
    let _ = CompiledGrammar::with_config(&grammar, &config);
});
