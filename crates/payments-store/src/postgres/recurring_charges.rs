//! The exactly-once charge ledger over PostgreSQL. Claims lock the due subscriptions `FOR UPDATE SKIP
//! LOCKED`, so two batch runs (two instances) split the due set instead of taking the same rows; the unique
//! (subscription, period) row and its lease do the rest. Settlements apply only while the run still holds
//! the lease, with the billing event, the subscription's new schedule, its webhooks and the customer's xp
//! credit, in one transaction.

use crate::postgres::connection::{PgClient, Queries};
use payments_core::{Cents, Wallet};

use crate::postgres::error::PgError;
use crate::postgres::recurring::{subscription_columns, subscription_from_row};
use crate::postgres::{rows, subscription_hooks};
use crate::rows::{BillingEventRow, ChargeRow, ClaimStep, claim_step, units_column};
use crate::subscription_credit;
use payments_domain::recurring::{
    BillingEvent, ChargeClaim, ChargeClaimKind, ChargeOutcome, ChargeSettlement, ClaimRequest,
    CustomerSubscriptionId, SettleOutcome,
};

const DUE: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    " FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.status IN ('trialing', 'active', 'past_due') AND s.next_charge_at <= $1
        AND NOT EXISTS (SELECT 1 FROM subscription_charges c
            WHERE c.subscription_id = s.id AND c.state = 'pending' AND c.lease_until > $1)
        AND NOT EXISTS (SELECT 1 FROM subscription_changes x
            WHERE x.subscription_id = s.id AND x.state = 'pending')
    ORDER BY s.next_charge_at LIMIT $2
    FOR UPDATE OF s SKIP LOCKED"
);
const CHARGE_ROW: &str = "SELECT state, attempts, lease_until FROM subscription_charges
    WHERE subscription_id = $1 AND period_index = $2 FOR UPDATE";
const INSERT_PENDING: &str =
    "INSERT INTO subscription_charges (subscription_id, period_index, state, attempts,
    lease_owner, lease_until, created_at, updated_at) VALUES ($1, $2, 'pending', $3, $4, $5, $6, $6)
    ON CONFLICT (subscription_id, period_index) DO NOTHING";
const RELEASE_TO: &str = "UPDATE subscription_charges SET state = 'pending', attempts = $3, lease_owner = $4,
    lease_until = $5, updated_at = $6 WHERE subscription_id = $1 AND period_index = $2";
const SETTLE_CHARGE: &str = "UPDATE subscription_charges SET state = $4, tx_hash = $5, failure = $6,
    lease_owner = NULL, lease_until = NULL, updated_at = $7
    WHERE subscription_id = (SELECT id FROM customer_subscriptions WHERE public_id = $1)
        AND period_index = $2 AND state = 'pending' AND lease_owner = $3
    RETURNING subscription_id";
/// A subscription canceled while its charge was in flight stays canceled.
const ADVANCE: &str = "UPDATE customer_subscriptions SET
    status = CASE WHEN status = 'canceled' THEN 'canceled' ELSE $2 END,
    canceled_at = CASE WHEN status <> 'canceled' AND $2 = 'canceled' THEN $7 ELSE canceled_at END,
    next_period_index = $3, next_charge_at = $4, attempts = $5, failed_periods = $6, updated_at = $7,
    credit_units = GREATEST(credit_units - $8, 0)
    WHERE id = $1";
const INSERT_EVENT: &str = "INSERT INTO billing_events (subscription_id, period_index, status, gross_cents,
    fee_cents, net_cents, tx_hash, failure, created_at, fee_units, net_units)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";
const EVENTS: &str = "SELECT e.period_index, e.status, e.gross_cents, e.fee_units, e.net_units, e.tx_hash,
    e.failure, e.created_at FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE s.public_id = $1 ORDER BY e.id";

pub(super) async fn claim_due(
    mut client: PgClient,
    request: &ClaimRequest,
) -> Result<Vec<ChargeClaim>, PgError> {
    let tx = client.transaction().await?;
    let due = tx.prepare_cached(DUE).await?;
    let rows = tx
        .query(&due, &[&request.now_ms, &i64::from(request.limit)])
        .await?;
    let charge_row = tx.prepare_cached(CHARGE_ROW).await?;
    let mut claims = Vec::with_capacity(rows.len());
    for row in rows {
        let row_id: i64 = rows::get(&row, "row_id")?;
        let subscription = subscription_from_row(&row)?;
        let (period_index, attempts_before) = subscription.period_to_charge(request.now_ms);
        let period = i64::try_from(period_index).unwrap_or(i64::MAX);
        let existing = tx.query_opt(&charge_row, &[&row_id, &period]).await?;
        let existing = existing
            .map(|row| -> Result<ChargeRow, PgError> {
                Ok(ChargeRow {
                    state: rows::get(&row, "state")?,
                    attempts: rows::get(&row, "attempts")?,
                    lease_until: rows::get(&row, "lease_until")?,
                })
            })
            .transpose()?;
        let (kind, attempt) = match claim_step(existing, attempts_before, request.now_ms) {
            ClaimStep::Insert(attempt) => {
                let insert = tx.prepare_cached(INSERT_PENDING).await?;
                let inserted = tx
                    .execute(
                        &insert,
                        &[
                            &row_id,
                            &period,
                            &i64::from(attempt),
                            &request.owner,
                            &request.lease_until,
                            &request.now_ms,
                        ],
                    )
                    .await?;
                if inserted == 0 {
                    continue;
                }
                (ChargeClaimKind::Fresh, attempt)
            }
            ClaimStep::Release(kind, attempt) => {
                release_to(&tx, row_id, period, attempt, request).await?;
                (kind, attempt)
            }
            ClaimStep::Skip => continue,
        };
        claims.push(ChargeClaim {
            subscription,
            period_index,
            attempt,
            kind,
        });
    }
    tx.commit().await?;
    Ok(claims)
}

async fn release_to(
    client: &impl Queries,
    row_id: i64,
    period: i64,
    attempt: u32,
    request: &ClaimRequest,
) -> Result<(), PgError> {
    let statement = client.prepare_cached(RELEASE_TO).await?;
    client
        .execute(
            &statement,
            &[
                &row_id,
                &period,
                &i64::from(attempt),
                &request.owner,
                &request.lease_until,
                &request.now_ms,
            ],
        )
        .await?;
    Ok(())
}

pub(super) async fn settle_charges(
    mut client: PgClient,
    settlements: &[ChargeSettlement],
) -> Result<Vec<SettleOutcome>, PgError> {
    let tx = client.transaction().await?;
    let mut outcomes = Vec::with_capacity(settlements.len());
    let mut credits = Vec::new();
    for settlement in settlements {
        outcomes.push(settle(&tx, settlement, &mut credits).await?);
    }
    let now_ms = settlements.first().map_or(0, |settlement| settlement.now_ms);
    subscription_hooks::credit(&tx, credits, now_ms).await?;
    tx.commit().await?;
    Ok(outcomes)
}

async fn settle(
    client: &impl Queries,
    settlement: &ChargeSettlement,
    credits: &mut Vec<(Wallet, Cents)>,
) -> Result<SettleOutcome, PgError> {
    let event = BillingEvent::of(settlement);
    let state = match settlement.outcome {
        ChargeOutcome::Charged { .. } => "charged",
        ChargeOutcome::Failed { .. } => "failed",
    };
    let period = i64::try_from(settlement.period_index).unwrap_or(i64::MAX);
    let statement = client.prepare_cached(SETTLE_CHARGE).await?;
    let row = client
        .query_opt(
            &statement,
            &[
                &settlement.subscription_id.as_str(),
                &period,
                &settlement.owner,
                &state,
                &event.transaction_hash,
                &event.failure,
                &settlement.now_ms,
            ],
        )
        .await?;
    let Some(row) = row else {
        return Ok(SettleOutcome::LeaseLost);
    };
    let row_id: i64 = rows::get(&row, "subscription_id")?;
    // Locked and read before the schedule moves: the webhooks name the status it had.
    let hook = subscription_hooks::hook_at(client, row_id).await?;
    let schedule = settlement.schedule;
    let advance = client.prepare_cached(ADVANCE).await?;
    client
        .execute(
            &advance,
            &[
                &row_id,
                &schedule.status.as_str(),
                &i64::try_from(schedule.next_period_index).unwrap_or(i64::MAX),
                &schedule.next_charge_at,
                &i64::from(schedule.attempts),
                &i64::from(schedule.failed_periods),
                &settlement.now_ms,
                &units_column(settlement.credit_used),
            ],
        )
        .await?;
    let insert = client.prepare_cached(INSERT_EVENT).await?;
    client
        .execute(
            &insert,
            &[
                &row_id,
                &period,
                &event.status.as_str(),
                &event.gross_usd.as_i64(),
                &event.fee_usd.as_i64(),
                &event.net_usd.as_i64(),
                &event.transaction_hash,
                &event.failure,
                &event.created_at,
                &units_column(event.fee_base_units),
                &units_column(event.net_base_units),
            ],
        )
        .await?;
    if let Some(hook) = hook {
        subscription_hooks::enqueue(client, hook.settled(settlement), settlement.now_ms).await?;
        credits.extend(subscription_credit(&hook, settlement));
    }
    Ok(SettleOutcome::Settled)
}

pub(super) async fn billing_events(
    client: &impl Queries,
    id: &CustomerSubscriptionId,
) -> Result<Vec<BillingEvent>, PgError> {
    let statement = client.prepare_cached(EVENTS).await?;
    let rows = client.query(&statement, &[&id.as_str()]).await?;
    rows.iter()
        .map(|row| {
            Ok(BillingEventRow {
                period_index: rows::get(row, "period_index")?,
                status: rows::get(row, "status")?,
                gross_cents: rows::get(row, "gross_cents")?,
                fee_units: rows::get(row, "fee_units")?,
                net_units: rows::get(row, "net_units")?,
                tx_hash: rows::get(row, "tx_hash")?,
                failure: rows::get(row, "failure")?,
                created_at: rows::get(row, "created_at")?,
            }
            .into_record(id))
        })
        .collect()
}
