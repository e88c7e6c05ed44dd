//! Arbitrary text as a JSON Schema (first line) and an instance (the rest): compile it,
//! then read the instance (body: `stackmask_fuzz::json_schema_compile`).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| stackmask_fuzz::json_schema_compile(data));
