//! libFuzzer target `cook_mesh`: the harness is `sinew_fuzz::cook::run_mesh` (see its docs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| sinew_fuzz::cook::run_mesh(data));
