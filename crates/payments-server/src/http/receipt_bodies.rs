//! Rendered `GET /api/receipts/{id}` bodies, reused while the receipt they show is unchanged.
//!
//! A receipt's view is a function of its [`ViewStamp`] (the stored receipt's version, its card-onramp
//! session, the address buyers pay, its payment's block and depth) and of the server's configuration (base
//! URL, chain), nothing else; a view showing failed settlement attempts (they change without the receipt)
//! has no stamp and is never kept. Every change of a stored receipt is a transition, which moves its
//! `version` (the one `UPDATE receipts` of either backend), except the payment page recording a card-onramp
//! session, which the stamp compares by its session id; receipts are never deleted. So a body rendered at
//! stamp s is the body of any later request whose stamp, read from the store on that request, is s: exact
//! on every backend and with several instances. The stamp is a narrow read (docs/benchmarks.md), so a
//! request answered from here neither reads the whole receipt nor renders it.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use bytes::Bytes;
use payments_core::Wallet;

use crate::domain::receipt::ReceiptId;
use crate::services::receipts::ViewStamp;

/// Past this many bytes of bodies the cache starts over: 16 MiB holds about ten thousand ordinary
/// receipts, more than the receipts open on payment pages at once on one instance.
const MAX_BYTES: usize = 16 << 20;

struct Rendered {
    stamp: ViewStamp,
    body: Bytes,
}

#[derive(Default)]
struct Bodies {
    by_receipt: HashMap<(Wallet, ReceiptId), Rendered>,
    bytes: usize,
}

/// Bodies by merchant and receipt id.
#[derive(Default)]
pub(crate) struct ReceiptBodies {
    rendered: Mutex<Bodies>,
}

impl std::fmt::Debug for ReceiptBodies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceiptBodies").finish_non_exhaustive()
    }
}

impl ReceiptBodies {
    /// Whether a body of this receipt was rendered before (then its stamp is worth reading first).
    pub(crate) fn holds(&self, wallet: Wallet, id: &ReceiptId) -> bool {
        self.rendered().by_receipt.contains_key(&(wallet, id.clone()))
    }

    /// The body rendered earlier for exactly this state of the receipt, if any.
    pub(crate) fn get(&self, wallet: Wallet, id: &ReceiptId, stamp: &ViewStamp) -> Option<Bytes> {
        let rendered = self.rendered();
        let found = rendered.by_receipt.get(&(wallet, id.clone()))?;
        (found.stamp == *stamp).then(|| found.body.clone())
    }

    /// Keeps `body`, rendered from the receipt at `stamp`.
    pub(crate) fn keep(&self, wallet: Wallet, id: &ReceiptId, stamp: ViewStamp, body: &Bytes) {
        let mut rendered = self.rendered();
        if rendered.bytes + body.len() > MAX_BYTES {
            *rendered = Bodies::default();
        }
        let kept = Rendered {
            stamp,
            body: body.clone(),
        };
        rendered.bytes += body.len();
        if let Some(replaced) = rendered.by_receipt.insert((wallet, id.clone()), kept) {
            rendered.bytes -= replaced.body.len();
        }
    }

    fn rendered(&self) -> MutexGuard<'_, Bodies> {
        // One insert or lookup per lock: a panic elsewhere cannot leave the map half-changed.
        self.rendered.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::receipts::PayableReceipt;
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

    fn stamp(payable: &PayableReceipt) -> ViewStamp {
        payable
            .view_stamp()
            .expect("a receipt without settlement attempts has a stamp")
    }

    fn r1() -> ReceiptId {
        payable(0, '1').receipt.id
    }

    #[test]
    fn a_body_is_reused_only_for_the_same_version_and_recipient() {
        let bodies = ReceiptBodies::default();
        let body = Bytes::from_static(b"{\"v\":0}");
        assert!(!bodies.holds(wallet('a'), &r1()));

        bodies.keep(wallet('a'), &r1(), stamp(&payable(0, '1')), &body);

        assert!(bodies.holds(wallet('a'), &r1()));
        assert_eq!(
            bodies.get(wallet('a'), &r1(), &stamp(&payable(0, '1'))),
            Some(body)
        );
        assert_eq!(bodies.get(wallet('a'), &r1(), &stamp(&payable(1, '1'))), None);
        assert_eq!(bodies.get(wallet('a'), &r1(), &stamp(&payable(0, '2'))), None);
        assert_eq!(bodies.get(wallet('c'), &r1(), &stamp(&payable(0, '1'))), None);
    }

    #[test]
    fn a_body_is_not_reused_once_the_payment_is_deeper_or_final() {
        let bodies = ReceiptBodies::default();
        let mut paid = payable(2, '1');
        paid.payment_block = Some(payments_core::PaymentBlock::at(10, "0xab".to_owned(), 12, 0));
        bodies.keep(wallet('a'), &r1(), stamp(&paid), &Bytes::from_static(b"{}"));
        assert!(bodies.get(wallet('a'), &r1(), &stamp(&paid)).is_some());

        let mut deeper = payable(2, '1');
        deeper.payment_block = Some(payments_core::PaymentBlock::at(10, "0xab".to_owned(), 13, 0));
        assert_eq!(bodies.get(wallet('a'), &r1(), &stamp(&deeper)), None);
    }

    #[test]
    fn a_receipt_showing_settlement_attempts_has_no_stamp_to_keep_a_body_under() {
        let mut settling = payable(3, '1');
        settling.settlement = Some(SettlementState {
            attempts: 1,
            last_error: Some("reverted".to_owned()),
            next_attempt_at: 5,
        });
        assert_eq!(settling.view_stamp(), None);
    }

    #[test]
    fn past_its_byte_budget_the_cache_starts_over_and_counts_replaced_bodies_once() {
        let bodies = ReceiptBodies::default();
        let big = Bytes::from(vec![b' '; MAX_BYTES / 2]);
        bodies.keep(wallet('a'), &r1(), stamp(&payable(0, '1')), &big);
        bodies.keep(wallet('a'), &r1(), stamp(&payable(1, '1')), &big);
        assert!(bodies.get(wallet('a'), &r1(), &stamp(&payable(1, '1'))).is_some());
        assert_eq!(bodies.rendered().bytes, MAX_BYTES / 2);

        bodies.keep(wallet('b'), &r1(), stamp(&payable(0, '1')), &big);
        bodies.keep(wallet('c'), &r1(), stamp(&payable(0, '1')), &big);

        assert!(!bodies.holds(wallet('a'), &r1()));
        assert!(bodies.holds(wallet('c'), &r1()));
        assert_eq!(bodies.rendered().bytes, MAX_BYTES / 2);
    }
}
