//! Embeds the creation code of the platform's contracts from the committed artifacts
//! (`contracts/artifacts/*.json`, built by `contracts/build.mjs`), so addresses are derived from exactly the
//! bytecode CI checked against the Solidity sources. A malformed artifact fails the build, not a request.

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// (artifact name, constant prefix, whether the runtime code is needed too) of every contract the domain uses:
/// creation codes derive addresses and deploy factories (the ERC-6492 validator's runs in a deployless
/// `eth_call`); Split's runtime code recognises a genuine Split.
const CONTRACTS: [(&str, &str, bool); 7] = [
    ("Split", "SPLIT", true),
    ("Deposit", "DEPOSIT", false),
    ("SplitFactory", "SPLIT_FACTORY", false),
    ("DepositFactory", "DEPOSIT_FACTORY", false),
    ("TestToken", "TEST_TOKEN", false),
    ("SpendPermissionManager", "SPEND_PERMISSION_MANAGER", false),
    ("SignatureValidator6492", "SIGNATURE_VALIDATOR_6492", false),
];

fn main() -> Result<(), Box<dyn Error>> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let artifacts = manifest.join("../../contracts/artifacts");
    let mut generated = String::new();
    for (name, prefix, with_runtime) in CONTRACTS {
        let path = artifacts.join(format!("{name}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let json =
            std::fs::read_to_string(&path).map_err(|error| format!("reading {}: {error}", path.display()))?;
        let fields: &[(&str, &str)] = if with_runtime {
            &[
                ("bytecode", "CREATION_CODE"),
                ("deployedBytecode", "RUNTIME_CODE"),
            ]
        } else {
            &[("bytecode", "CREATION_CODE")]
        };
        for (field, suffix) in fields {
            let bytes = hex_field(&json, field, &path)?;
            writeln!(
                generated,
                "/// `{field}` of `contracts/artifacts/{name}.json`.\npub(crate) const {prefix}_{suffix}: &[u8] = &{bytes:?};"
            )?;
        }
    }
    let out = PathBuf::from(std::env::var("OUT_DIR")?).join("contract_code.rs");
    std::fs::write(out, generated)?;
    Ok(())
}

/// The bytes of a top-level `"field": "0x…"` string of the artifact (the format `contracts/build.mjs` writes).
fn hex_field(json: &str, field: &str, path: &Path) -> Result<Vec<u8>, Box<dyn Error>> {
    let marker = format!("\"{field}\": \"0x");
    let start = json
        .find(&marker)
        .ok_or_else(|| format!("{}: no {field}", path.display()))?
        + marker.len();
    let end = json[start..]
        .find('"')
        .ok_or_else(|| format!("{}: unterminated {field}", path.display()))?;
    Ok(hex::decode(&json[start..start + end])?)
}
