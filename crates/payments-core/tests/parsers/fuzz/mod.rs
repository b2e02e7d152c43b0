//! Fuzz-style property tests (stable Rust, proptest) of the spend permission parsers: they never panic,
//! accept exactly what the on-chain types can hold, and refuse with typed errors. A few thousand cases
//! per property by default; `scripts/fuzz.sh` sets `PROPTEST_CASES` high.

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Value};

mod permission_json;
mod signatures;
mod typed_data;

/// Cases per property when `PROPTEST_CASES` is not set.
const DEFAULT_CASES: u32 = 2_000;

/// proptest's defaults, with [`DEFAULT_CASES`] unless `PROPTEST_CASES` asks for another count.
pub(crate) fn config() -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
    }
    config
}

/// Any JSON value up to a few levels deep, with object keys drawn from `keys` half of the time so that
/// the parsers' own field names come up often.
pub(crate) fn json_value(keys: &'static [&'static str]) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        ".{0,24}".prop_map(Value::String),
        "[0-9]{1,80}".prop_map(Value::String),
        "0x[0-9a-fA-F]{0,70}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 8, move |inner| {
        let key = prop_oneof![proptest::sample::select(keys).prop_map(str::to_owned), ".{0,12}"];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((key, inner), 0..10)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
