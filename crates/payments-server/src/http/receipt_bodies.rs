//! Rendered `GET /api/receipts/{id}` bodies, reused while the receipt they show is unchanged.
//!
//! A receipt's view is a function of the stored receipt, the address its buyers pay (the merchant's split),
//! its payment's block and depth (compared too: they change with the chain) and the server's configuration
//! (base URL, chain), nothing else, except for a paid receipt still awaiting settlement, whose failed
//! settlement attempts change without the receipt: those are always rendered afresh. Every change of a stored receipt is a transition, which moves its `version` (the one
//! `UPDATE receipts` of either backend), except the payment page recording a card-onramp session, which
//! changes no status and is compared by its session id instead; receipts are never deleted. So a body rendered for a merchant's
//! receipt at version v paying address r is the body of any later read that finds version v and address r:
//! the read itself still happens on every request (answered from the store's own cache where it has one),
//! only the rendering (a fifth of a read's instructions) is skipped. Exact on every backend and with several
//! instances, since the version compared is the one just read.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use bytes::Bytes;
use payments_core::{PaymentBlock, Wallet};

use crate::domain::receipt::ReceiptId;
use crate::services::receipts::PayableReceipt;

/// Past this many bodies (a few MB) the cache starts over.
const MAX_BODIES: usize = 2048;

struct Rendered {
    version: i64,
    /// The receipt's card-onramp session (it changes without a transition).
    onramp_session: Option<String>,
    recipient: Wallet,
    /// Its payment's block and depth (they change with the chain, without a transition).
    payment_block: Option<PaymentBlock>,
    body: Bytes,
}

/// Bodies by merchant and receipt id.
#[derive(Default)]
pub(crate) struct ReceiptBodies {
    rendered: Mutex<HashMap<(Wallet, ReceiptId), Rendered>>,
}

impl std::fmt::Debug for ReceiptBodies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceiptBodies").finish_non_exhaustive()
    }
}

impl ReceiptBodies {
    /// The body rendered earlier for exactly this state of the receipt, if any.
    pub(crate) fn get(&self, payable: &PayableReceipt) -> Option<Bytes> {
        if payable.settlement.is_some() {
            return None;
        }
        let receipt = &payable.receipt;
        let rendered = self.rendered();
        let found = rendered.get(&(receipt.wallet, receipt.id.clone()))?;
        let onramp_session = receipt.onramp.as_ref().map(|session| &session.session_id);
        (found.version == receipt.version
            && found.recipient == payable.recipient
            && found.payment_block == payable.payment_block
            && found.onramp_session.as_ref() == onramp_session)
            .then(|| found.body.clone())
    }

    /// Keeps `body`, rendered from `payable`, unless it shows settlement attempts.
    pub(crate) fn keep(&self, payable: &PayableReceipt, body: &Bytes) {
        if payable.settlement.is_some() {
            return;
        }
        let receipt = &payable.receipt;
        let mut rendered = self.rendered();
        if rendered.len() >= MAX_BODIES {
            rendered.clear();
        }
        rendered.insert(
            (receipt.wallet, receipt.id.clone()),
            Rendered {
                version: receipt.version,
                onramp_session: receipt.onramp.as_ref().map(|session| session.session_id.clone()),
                recipient: payable.recipient,
                payment_block: payable.payment_block.clone(),
                body: body.clone(),
            },
        );
    }

    fn rendered(&self) -> MutexGuard<'_, HashMap<(Wallet, ReceiptId), Rendered>> {
        // One insert or lookup per lock: a panic elsewhere cannot leave the map half-changed.
        self.rendered.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SettlementState;
    use payments_store::testing::fixtures::{new_receipt, wallet};

    fn payable(version: i64, recipient: char) -> PayableReceipt {
        let mut receipt = new_receipt(wallet('a'), "r1", 1_000).into_stored();
        receipt.version = version;
        PayableReceipt {
            receipt,
            recipient: wallet(recipient),
            settlement: None,
            payment_block: None,
        }
    }

    #[test]
    fn a_body_is_reused_only_for_the_same_version_and_recipient() {
        let bodies = ReceiptBodies::default();
        let body = Bytes::from_static(b"{\"v\":0}");
        assert_eq!(bodies.get(&payable(0, '1')), None);

        bodies.keep(&payable(0, '1'), &body);

        assert_eq!(bodies.get(&payable(0, '1')), Some(body));
        assert_eq!(bodies.get(&payable(1, '1')), None);
        assert_eq!(bodies.get(&payable(0, '2')), None);
        let mut theirs = payable(0, '1');
        theirs.receipt.wallet = wallet('c');
        assert_eq!(bodies.get(&theirs), None);
    }

    #[test]
    fn a_body_is_not_reused_once_the_payment_is_deeper_or_final() {
        let bodies = ReceiptBodies::default();
        let mut paid = payable(2, '1');
        paid.payment_block = Some(payments_core::PaymentBlock::at(10, "0xab".to_owned(), 12, 0));
        bodies.keep(&paid, &Bytes::from_static(b"{}"));
        assert!(bodies.get(&paid).is_some());

        let mut deeper = payable(2, '1');
        deeper.payment_block = Some(payments_core::PaymentBlock::at(10, "0xab".to_owned(), 13, 0));
        assert_eq!(bodies.get(&deeper), None);
    }

    #[test]
    fn a_receipt_awaiting_settlement_is_never_kept_nor_served() {
        let bodies = ReceiptBodies::default();
        let mut settling = payable(3, '1');
        settling.settlement = Some(SettlementState {
            attempts: 1,
            last_error: Some("reverted".to_owned()),
            next_attempt_at: 5,
        });
        bodies.keep(&settling, &Bytes::from_static(b"{}"));
        assert_eq!(bodies.get(&payable(3, '1')), None);

        bodies.keep(&payable(3, '1'), &Bytes::from_static(b"{}"));
        assert_eq!(bodies.get(&settling), None);
    }
}
