//! Arbitrary bytes through `Recognizer::feed` on the JSON and SynCode Java grammars
//! (body: `stackmask_fuzz::recognizer_feed`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| stackmask_fuzz::recognizer_feed(data));
