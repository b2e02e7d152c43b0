use super::*;

fn wallet(byte: &str) -> Wallet {
    Wallet::parse(&format!("0x{}", byte.repeat(20))).unwrap()
}

fn claim(cents: i64) -> ClaimedRefund {
    ClaimedRefund {
        token: wallet("11"),
        buyer: wallet("22"),
        amount: Cents::new(cents),
    }
}

fn transfer(token: &str, to: &str, units: u128) -> SeenTransfer {
    SeenTransfer {
        token: wallet(token),
        to: wallet(to),
        amount: Some(TokenAmount::from_base_units(units)),
    }
}

fn mined(transfers: Vec<SeenTransfer>) -> MinedRefund {
    MinedRefund {
        succeeded: true,
        transfers,
    }
}

#[test]
fn a_transfer_of_at_least_the_refund_to_the_buyer_proves_it() {
    let exact = mined(vec![transfer("11", "22", 1_250_000)]);
    let more = mined(vec![transfer("11", "22", 1_250_001)]);

    assert_eq!(
        verify_refund(&claim(125), Some(&exact)),
        Ok(TokenAmount::from_base_units(1_250_000))
    );
    assert_eq!(
        verify_refund(&claim(125), Some(&more)),
        Ok(TokenAmount::from_base_units(1_250_001))
    );
}

#[test]
fn transfers_to_the_buyer_in_one_transaction_add_up_and_others_do_not_count() {
    let parts = mined(vec![
        transfer("11", "22", 1_000_000),
        transfer("33", "22", 9_000_000),
        transfer("11", "44", 9_000_000),
        transfer("11", "22", 250_000),
    ]);

    assert_eq!(
        verify_refund(&claim(125), Some(&parts)),
        Ok(TokenAmount::from_base_units(1_250_000))
    );
}

#[test]
fn one_base_unit_short_is_too_small() {
    let short = mined(vec![transfer("11", "22", 1_249_999)]);

    assert_eq!(
        verify_refund(&claim(125), Some(&short)),
        Err(RefundProofError::TooSmall {
            sent: TokenAmount::from_base_units(1_249_999),
            required: TokenAmount::from_base_units(1_250_000),
        })
    );
}

#[test]
fn unknown_reverted_other_token_and_other_recipient_are_each_named() {
    let reverted = MinedRefund {
        succeeded: false,
        transfers: Vec::new(),
    };
    let other_token = mined(vec![transfer("33", "22", 5_000_000)]);
    let other_recipient = mined(vec![transfer("11", "44", 5_000_000)]);

    assert_eq!(verify_refund(&claim(1), None), Err(RefundProofError::NotFound));
    assert_eq!(
        verify_refund(&claim(1), Some(&reverted)),
        Err(RefundProofError::Reverted)
    );
    assert_eq!(
        verify_refund(&claim(1), Some(&other_token)),
        Err(RefundProofError::WrongToken { token: wallet("11") })
    );
    assert_eq!(
        verify_refund(&claim(1), Some(&other_recipient)),
        Err(RefundProofError::WrongRecipient { buyer: wallet("22") })
    );
}

#[test]
fn a_value_too_large_for_128_bits_counts_for_nothing() {
    let unreadable = mined(vec![SeenTransfer {
        amount: None,
        ..transfer("11", "22", 0)
    }]);

    assert_eq!(
        verify_refund(&claim(1), Some(&unreadable)),
        Err(RefundProofError::TooSmall {
            sent: TokenAmount::from_base_units(0),
            required: TokenAmount::from_base_units(10_000),
        })
    );
}

#[test]
fn a_block_is_confirmed_once_the_head_is_that_many_blocks_past_it() {
    assert!(is_confirmed(5, 5, 0));
    assert!(!is_confirmed(5, 6, 2));
    assert!(is_confirmed(5, 7, 2));
    assert!(!is_confirmed(5, 1, 2));
}
