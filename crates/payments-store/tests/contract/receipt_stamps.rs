//! A receipt's stamp (`fetch_stamp`): the narrow read that tells the server whether a view it rendered
//! still shows the stored receipt. It must equal the stamp of the full read on every backend and move with
//! every change the view shows: a transition, a card-onramp session, the merchant's split.

use payments_core::{Authority, OnrampProviderKind, ReceiptStatus, Wallet};

use crate::Repositories;
use crate::fixtures::{self, receipt_id, wallet};
use crate::onramp_sessions::pay;
use payments_domain::receipt::OnrampSession;
use payments_store::ReceiptStamp;
use payments_store::testing::split;

const T0: i64 = 1_700_000_000_000;

/// The stamp of the full read, and the narrow one; asserted equal.
async fn stamps_agree(repos: &Repositories, merchant: Wallet, id: &str) -> ReceiptStamp {
    let (receipt, split) = repos
        .receipts
        .fetch_with_split(Some(merchant), &receipt_id(id))
        .await
        .unwrap()
        .expect("the receipt exists");
    let narrow = repos
        .receipts
        .fetch_stamp(merchant, &receipt_id(id))
        .await
        .unwrap()
        .expect("the receipt has a stamp");
    assert_eq!(narrow, ReceiptStamp::of(&receipt, split.as_ref()));
    narrow
}

pub(crate) async fn a_receipts_stamp_is_the_full_reads_and_moves_with_every_change_its_view_shows(
    repos: Repositories,
) {
    let (merchant, other) = (wallet('a'), wallet('b'));
    let receipt = fixtures::new_receipt(merchant, "stamped", 1265);
    repos
        .receipts
        .create(fixtures::receipt_sale(receipt))
        .await
        .unwrap();
    let created = stamps_agree(&repos, merchant, "stamped").await;
    assert_eq!(created.split_address, None);
    for (wallet, id) in [(other, "stamped"), (merchant, "missing")] {
        let none = repos.receipts.fetch_stamp(wallet, &receipt_id(id)).await.unwrap();
        assert_eq!(none, None, "{wallet} {id}");
    }

    repos
        .shops
        .save_split(merchant, &split('1', '2'), false, T0)
        .await
        .unwrap();
    let split_saved = stamps_agree(&repos, merchant, "stamped").await;
    assert_eq!(split_saved.split_address, Some(split('1', '2').address));
    assert_eq!(split_saved.version, created.version);

    let session = OnrampSession {
        provider: OnrampProviderKind::Stripe,
        session_id: "cos_1".to_owned(),
        url: "https://crypto.link.com?session_hash=cos_1".to_owned(),
        created_at: T0,
    };
    let recorded = repos
        .receipts
        .record_onramp_session(merchant, &receipt_id("stamped"), &session)
        .await
        .unwrap();
    assert!(recorded);
    let with_session = stamps_agree(&repos, merchant, "stamped").await;
    assert_eq!(with_session.onramp_session_id.as_deref(), Some("cos_1"));

    repos
        .receipts
        .transition(fixtures::transition(merchant, "stamped", pay(1265)))
        .await
        .unwrap();
    let paid = stamps_agree(&repos, merchant, "stamped").await;
    assert_eq!(paid.status, ReceiptStatus::Paid);
    assert_eq!(paid.status_authority, Authority::Chain);
    assert!(paid.version > with_session.version);
}

/// Stamp reads made at the same time (on PostgreSQL they share one statement) each answer their own
/// receipt, another merchant's id as absent, and a receipt paid between two rounds with its new status.
pub(crate) async fn concurrent_stamp_reads_each_answer_their_own_receipt(repos: Repositories) {
    let (merchant, other) = (wallet('a'), wallet('b'));
    let receipts = 12_i64;
    for n in 0..receipts {
        let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, &format!("r-{n}"), 100 + n));
        repos.receipts.create(sale).await.unwrap();
    }
    let read_all = |repos: Repositories| async move {
        let reads: Vec<_> = (0..4 * receipts)
            .map(|n| {
                let repos = repos.clone();
                let wallet = if n % 5 == 4 { other } else { merchant };
                let id = format!("r-{}", n % receipts);
                tokio::spawn(async move {
                    let stamp = repos
                        .receipts
                        .fetch_stamp(wallet, &receipt_id(&id))
                        .await
                        .unwrap();
                    (wallet, id, stamp)
                })
            })
            .collect();
        let mut answers = Vec::new();
        for read in reads {
            answers.push(read.await.unwrap());
        }
        answers
    };

    for (wallet, id, stamp) in read_all(repos.clone()).await {
        if wallet == other {
            assert_eq!(stamp, None, "{id} of another merchant");
        } else {
            assert_eq!(stamp, Some(stamps_agree(&repos, merchant, &id).await), "{id}");
        }
    }
    repos
        .receipts
        .transition(fixtures::transition(merchant, "r-3", pay(103)))
        .await
        .unwrap();
    for (wallet, id, stamp) in read_all(repos.clone()).await {
        let Some(stamp) = stamp else {
            assert_eq!(wallet, other, "{id}");
            continue;
        };
        let paid = id == "r-3";
        assert_eq!(stamp.status == ReceiptStatus::Paid, paid, "{id}: {stamp:?}");
        assert_eq!(stamp, stamps_agree(&repos, merchant, &id).await, "{id}");
    }
}
