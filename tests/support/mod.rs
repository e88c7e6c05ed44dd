//! Test support for the property tests: an independent Earley recognizer, the viability
//! definition evaluated with it, a sentence generator, and the grammars to run on; and
//! helpers for the tests on real-code corpora (`corpora`).

pub mod corpora;
pub mod earley;
pub mod generate;
pub mod grammars;
pub mod lexing;
pub mod reference;

pub use earley::Earley;
pub use generate::{pick, rng_from_seed, Sentence};
pub use grammars::{cubic_epsilon_fixture, lark_fixture, lark_fixtures, random_grammar, Fixture};
pub use lexing::split;
pub use reference::ReferenceRecognizer;
