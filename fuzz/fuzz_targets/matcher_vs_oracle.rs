//! Arbitrary commit / rollback / mask sequences on fixed grammars and a byte vocabulary:
//! no panic, and the fast mask always equals the reference mask
//! (body: `stackmask_fuzz::matcher_ops`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| stackmask_fuzz::matcher_ops(data));
