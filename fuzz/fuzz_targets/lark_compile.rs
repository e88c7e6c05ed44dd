//! Arbitrary text as a Lark grammar: compile it, then run it on the input's own bytes
//! (body: `stackmask_fuzz::lark_compile`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| stackmask_fuzz::lark_compile(data));
