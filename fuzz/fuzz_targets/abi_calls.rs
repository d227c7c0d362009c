//! libFuzzer target `abi_calls`: the harness is `sinew_fuzz::abi::run` (see its docs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::abi::run(data));
