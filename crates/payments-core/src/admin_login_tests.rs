//! Expected digests and signatures come from eth-account (scripts/make-admin-login-vector.py).

use super::*;

const SIGNER: &str = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23";
const DIGEST_8453: &str = "0x6dd92ddd89ca16df3712ac689c148ad584099838354821d9beff6719630017d8";
const DIGEST_31337: &str = "0xbf8288d1bbca9fb3430655e9fb07aa414b09a63842a3b3a11b261b53ce5c19b5";
const SIGNATURE_8453: &str = "0x4fa227237c0e49207c071ccab4eb97ce92d6315102168f02db25e6b44c314aa0\
                              4acb56f1a03fc015bde03e2b4e705ed090c1b53d818f2d8c135116d3adaf5d2d1c";
const ISSUED_AT: u64 = 1_767_599_992;

fn login() -> AdminLogin {
    AdminLogin {
        wallet: Wallet::parse(SIGNER).unwrap(),
        nonce: "n-7f3a9c".into(),
        issued_at_secs: ISSUED_AT,
    }
}

#[test]
fn the_signing_hash_matches_an_independent_implementation() {
    assert_eq!(login().signing_hash(8453).to_string(), DIGEST_8453);
    assert_eq!(login().signing_hash(31337).to_string(), DIGEST_31337);
}

#[test]
fn a_login_signed_by_the_wallet_verifies() {
    assert_eq!(
        login().verify(SIGNATURE_8453, 8453, ISSUED_AT + 30),
        Ok(login().wallet)
    );
}

#[test]
fn a_login_claiming_another_wallet_is_refused() {
    let mut claimed = login();
    claimed.wallet = Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap();
    assert!(matches!(
        claimed.verify(SIGNATURE_8453, 8453, ISSUED_AT),
        Err(LoginError::SignerMismatch { .. })
    ));
}

#[test]
fn a_signature_for_another_chain_or_nonce_does_not_verify() {
    assert!(login().verify(SIGNATURE_8453, 31337, ISSUED_AT).is_err());
    let mut other_nonce = login();
    other_nonce.nonce = "n-other".into();
    assert!(other_nonce.verify(SIGNATURE_8453, 8453, ISSUED_AT).is_err());
}

#[test]
fn a_login_issued_more_than_five_minutes_away_is_refused() {
    assert_eq!(
        login().verify(SIGNATURE_8453, 8453, ISSUED_AT + 301),
        Err(LoginError::OutsideClockSkew)
    );
    assert_eq!(
        login().verify(SIGNATURE_8453, 8453, ISSUED_AT - 301),
        Err(LoginError::OutsideClockSkew)
    );
    assert!(login().verify(SIGNATURE_8453, 8453, ISSUED_AT - 300).is_ok());
}

#[test]
fn malformed_signatures_get_typed_errors() {
    assert!(matches!(
        login().verify("0x1234", 8453, ISSUED_AT),
        Err(LoginError::Signature(_))
    ));
    assert!(matches!(
        login().verify("not hex", 8453, ISSUED_AT),
        Err(LoginError::Signature(_))
    ));
}
