//! The two writes of a claimed use case: its transaction commits the claim with the data and names what it
//! made; the caller keeps the answer afterwards ([`payments_store::IdempotencyRepository::keep_response`]).
//! A replay finds the kept answer, or, when the first call stopped in between, the resource the claim names,
//! and never writes a second time.

use payments_core::{Cents, ReceiptStatus};

use crate::Repositories;
use crate::fixtures::{self, T0, wallet};
use crate::recurring::plan;
use crate::recurring_changes::pending_downgrade;
use crate::recurring_idempotency::{create_plan, plan_claim};
use crate::transitions::paid_receipt;
use payments_store::testing::keeping;
use payments_store::{Committed, EarlierCall, IdempotencyClaim, IdempotentResponse, Resource};

pub(crate) async fn a_committed_claim_without_a_kept_response_answers_from_the_named_resource(
    repos: Repositories,
) {
    let merchant = wallet('a');
    let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 500));
    // The first call commits and stops before keeping its answer.
    let Committed::Fresh(first) = repos
        .receipts
        .create(fixtures::with_claim(sale, "key-1", "hash-1"))
        .await
        .unwrap()
    else {
        panic!("expected a fresh sale")
    };
    // The retry carries another receipt, so a second write would show.
    let retry = || {
        let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-2", 900));
        fixtures::with_claim(sale, "key-1", "hash-1")
    };

    let recovered = keeping::create(&repos, retry()).await.unwrap();
    let replayed = keeping::create(&repos, retry()).await.unwrap();

    let Committed::Recovered(recovered) = recovered else {
        panic!("expected the named receipt, got {recovered:?}")
    };
    assert_eq!(recovered.receipt.id, first.receipt.id);
    // The recovered answer was kept: the next replay answers it byte for byte.
    let kept = fixtures::created_response(&first.receipt, "hash-1");
    assert!(
        matches!(&replayed, Committed::Replayed(response) if *response == kept),
        "{replayed:?}"
    );
    let stored = repos.receipts.list(merchant, 10).await.unwrap();
    assert_eq!(stored, vec![recovered.receipt]);
}

pub(crate) async fn a_committed_transition_without_a_kept_response_answers_the_statuses_it_moved_between(
    repos: Repositories,
) {
    let merchant = wallet('a');
    paid_receipt(&repos, "order-1", 3_000).await;
    let refund = || {
        let change = fixtures::transition(merchant, "order-1", fixtures::refund(500));
        fixtures::with_transition_claim(change, "refund-1", "h")
    };
    let first = repos.receipts.transition(refund()).await.unwrap();
    assert!(matches!(first, Committed::Fresh(_)), "{first:?}");
    // The receipt moves on before the retry: the rest is refunded without a key.
    let rest = fixtures::transition(merchant, "order-1", fixtures::refund(2_500));
    repos.receipts.transition(rest).await.unwrap();

    let retried = repos.receipts.transition(refund()).await.unwrap();

    let Committed::Recovered(recovered) = retried else {
        panic!("expected the recorded change, got {retried:?}")
    };
    let moved = recovered.moved.map(|(from, to)| (from, to.status));
    assert_eq!(moved, Some((ReceiptStatus::Paid, ReceiptStatus::RefundPartial)));
    assert_eq!(recovered.before.status, ReceiptStatus::Refunded);
    let stored = repos.receipts.list(merchant, 1).await.unwrap().remove(0);
    assert_eq!((stored.refunded, stored.version), (Cents::new(3_000), 3));
}

pub(crate) async fn a_committed_change_without_a_kept_response_answers_from_its_record(repos: Repositories) {
    let (subscription, change, credit) = pending_downgrade(&repos).await;
    let claim = IdempotencyClaim {
        wallet: subscription.customer,
        scope: "subscriptions.change",
        key: "change-1".to_owned(),
        request_hash: "hash-1".to_owned(),
        now_ms: T0 + 3,
    };
    let applied = repos
        .recurring
        .apply_change(&change.id, Some("0xabc".to_owned()), T0 + 3, Some(claim.clone()))
        .await
        .unwrap()
        .unwrap();

    let earlier = repos.recurring.earlier_call(&claim).await.unwrap();
    let recovered = repos.recurring.applied_change(&change.id).await.unwrap();

    assert_eq!(
        earlier,
        Some(EarlierCall::Committed {
            request_hash: "hash-1".to_owned(),
            resource: Resource::Change(change.id.clone()),
        })
    );
    assert_eq!(recovered.as_ref(), Some(&applied));
    assert_eq!(
        (
            applied.change.previous_plan_id.as_str(),
            applied.change.credit_balance,
            applied.change.transaction_hash.as_deref(),
        ),
        (subscription.plan_id.as_str(), credit, Some("0xabc"))
    );
    let answer = IdempotentResponse {
        request_hash: "hash-1".to_owned(),
        status: 200,
        body: b"{}".to_vec(),
    };
    repos.idempotency.keep_response(&claim, &answer).await.unwrap();
    let kept = repos.recurring.earlier_call(&claim).await.unwrap();
    assert_eq!(kept, Some(EarlierCall::Kept(answer)));
}

pub(crate) async fn a_committed_plan_without_a_kept_response_answers_the_stored_plan(repos: Repositories) {
    let merchant = wallet('a');
    let first = plan(merchant, "Weekly");
    repos
        .recurring
        .create_plan(&first, plan_claim(&first, "plan-1", "hash-1"))
        .await
        .unwrap();
    let retry = plan(merchant, "Weekly");

    let recovered = create_plan(&repos, &retry, plan_claim(&retry, "plan-1", "hash-1"))
        .await
        .unwrap();

    assert!(
        matches!(&recovered, Committed::Recovered(plan) if *plan == first),
        "{recovered:?}"
    );
    assert_eq!(repos.recurring.active_plans(merchant).await.unwrap(), vec![first]);
}

pub(crate) async fn keep_after_commit_is_visible_to_a_replay(repos: Repositories) {
    let merchant = wallet('a');
    let claimed = || {
        let sale = fixtures::receipt_sale(fixtures::new_receipt(merchant, "order-1", 500));
        fixtures::with_claim(sale, "key-1", "hash-1")
    };
    let claim = fixtures::claim(merchant, "key-1", "hash-1");
    let Committed::Fresh(first) = repos.receipts.create(claimed()).await.unwrap() else {
        panic!("expected a fresh sale")
    };
    let answer = fixtures::created_response(&first.receipt, "hash-1");
    let late = IdempotentResponse {
        body: b"a later answer".to_vec(),
        ..answer.clone()
    };

    let kept = repos.idempotency.keep_response(&claim, &answer).await.unwrap();
    let kept_again = repos.idempotency.keep_response(&claim, &late).await.unwrap();
    let replayed = repos.receipts.create(claimed()).await.unwrap();

    assert!(kept, "the committed claim took the answer");
    assert!(!kept_again, "the first kept answer stays");
    assert!(
        matches!(&replayed, Committed::Replayed(response) if *response == answer),
        "{replayed:?}"
    );
    assert_eq!(repos.receipts.list(merchant, 10).await.unwrap().len(), 1);
}
