//! The exactly-once charge ledger over SQLite: claims are written `pending` under a lease before any
//! transaction is sent; settlements are applied only by the lease owner, with the billing event, the
//! subscription's new schedule, its webhooks and the customer's xp credit, in the same writer transaction.

use payments_core::{Cents, Wallet};
use rusqlite::{Connection, OptionalExtension, params};

use crate::rows::{BillingEventRow, ChargeRow, ClaimStep, claim_step, units_column};
use crate::sqlite::recurring::{SUBSCRIPTION_COLUMNS, subscription_columns, subscription_from_row};
use crate::sqlite::subscription_hooks;
use crate::subscription_credit;
use payments_domain::recurring::{
    BillingEvent, ChargeClaim, ChargeClaimKind, ChargeOutcome, ChargeSettlement, ClaimRequest,
    CustomerSubscription, CustomerSubscriptionId, SettleOutcome,
};

/// Chargeable subscriptions due at `?1` whose current charge is not leased to a live run.
const DUE: &str = concat!(
    "SELECT ",
    subscription_columns!(),
    ", s.id FROM customer_subscriptions s JOIN subscription_plans p ON p.id = s.plan_id
    WHERE s.status IN ('trialing', 'active', 'past_due') AND s.next_charge_at <= ?1
        AND NOT EXISTS (SELECT 1 FROM subscription_charges c
            WHERE c.subscription_id = s.id AND c.state = 'pending' AND c.lease_until > ?1)
        AND NOT EXISTS (SELECT 1 FROM subscription_changes x
            WHERE x.subscription_id = s.id AND x.state = 'pending')
    ORDER BY s.next_charge_at LIMIT ?2"
);
const CHARGE_ROW: &str = "SELECT state, attempts, lease_until FROM subscription_charges
    WHERE subscription_id = ?1 AND period_index = ?2";
const INSERT_PENDING: &str =
    "INSERT INTO subscription_charges (subscription_id, period_index, state, attempts,
    lease_owner, lease_until, created_at, updated_at) VALUES (?1, ?2, 'pending', ?3, ?4, ?5, ?6, ?6)";
const RELEASE_TO: &str = "UPDATE subscription_charges SET state = 'pending', attempts = ?3, lease_owner = ?4,
    lease_until = ?5, updated_at = ?6 WHERE subscription_id = ?1 AND period_index = ?2";
const SETTLE_CHARGE: &str = "UPDATE subscription_charges SET state = ?4, tx_hash = ?5, failure = ?6,
    lease_owner = NULL, lease_until = NULL, updated_at = ?7
    WHERE subscription_id = (SELECT id FROM customer_subscriptions WHERE public_id = ?1)
        AND period_index = ?2 AND state = 'pending' AND lease_owner = ?3
    RETURNING subscription_id";
/// A subscription canceled while its charge was in flight stays canceled.
const ADVANCE: &str = "UPDATE customer_subscriptions SET
    status = CASE WHEN status = 'canceled' THEN 'canceled' ELSE ?2 END,
    canceled_at = CASE WHEN status <> 'canceled' AND ?2 = 'canceled' THEN ?7 ELSE canceled_at END,
    next_period_index = ?3, next_charge_at = ?4, attempts = ?5, failed_periods = ?6, updated_at = ?7,
    credit_units = MAX(credit_units - ?8, 0)
    WHERE id = ?1";
const INSERT_EVENT: &str = "INSERT INTO billing_events (subscription_id, period_index, status, gross_cents,
    fee_cents, net_cents, tx_hash, failure, created_at, fee_units, net_units)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)";
const EVENTS: &str = "SELECT e.period_index, e.status, e.gross_cents, e.fee_units, e.net_units, e.tx_hash,
    e.failure, e.created_at FROM billing_events e JOIN customer_subscriptions s ON s.id = e.subscription_id
    WHERE s.public_id = ?1 ORDER BY e.id";

pub(super) fn claim_due(conn: &Connection, request: &ClaimRequest) -> rusqlite::Result<Vec<ChargeClaim>> {
    let due: Vec<(i64, CustomerSubscription)> = conn
        .prepare_cached(DUE)?
        .query_map(params![request.now_ms, request.limit], |row| {
            Ok((row.get(SUBSCRIPTION_COLUMNS)?, subscription_from_row(row)?))
        })?
        .collect::<Result<_, _>>()?;
    let mut claims = Vec::with_capacity(due.len());
    for (row_id, subscription) in due {
        let (period_index, attempts_before) = subscription.period_to_charge(request.now_ms);
        let period = i64::try_from(period_index).unwrap_or(i64::MAX);
        let existing = conn
            .prepare_cached(CHARGE_ROW)?
            .query_row(params![row_id, period], |row| {
                Ok(ChargeRow {
                    state: row.get(0)?,
                    attempts: row.get(1)?,
                    lease_until: row.get(2)?,
                })
            })
            .optional()?;
        let (kind, attempt) = match claim_step(existing, attempts_before, request.now_ms) {
            ClaimStep::Insert(attempt) => {
                conn.prepare_cached(INSERT_PENDING)?.execute(params![
                    row_id,
                    period,
                    attempt,
                    request.owner,
                    request.lease_until,
                    request.now_ms
                ])?;
                (ChargeClaimKind::Fresh, attempt)
            }
            ClaimStep::Release(kind, attempt) => {
                release_to(conn, row_id, period, attempt, request)?;
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
    Ok(claims)
}

fn release_to(
    conn: &Connection,
    row_id: i64,
    period: i64,
    attempt: u32,
    request: &ClaimRequest,
) -> rusqlite::Result<()> {
    conn.prepare_cached(RELEASE_TO)?.execute(params![
        row_id,
        period,
        attempt,
        request.owner,
        request.lease_until,
        request.now_ms
    ])?;
    Ok(())
}

pub(super) fn settle_charges(
    conn: &Connection,
    settlements: &[ChargeSettlement],
) -> rusqlite::Result<Vec<SettleOutcome>> {
    let mut credits = Vec::new();
    let outcomes = settlements
        .iter()
        .map(|settlement| settle(conn, settlement, &mut credits))
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let now_ms = settlements.first().map_or(0, |settlement| settlement.now_ms);
    subscription_hooks::credit(conn, credits, now_ms)?;
    Ok(outcomes)
}

fn settle(
    conn: &Connection,
    settlement: &ChargeSettlement,
    credits: &mut Vec<(Wallet, Cents)>,
) -> rusqlite::Result<SettleOutcome> {
    let event = BillingEvent::of(settlement);
    let state = match settlement.outcome {
        ChargeOutcome::Charged { .. } => "charged",
        ChargeOutcome::Failed { .. } => "failed",
    };
    let period = i64::try_from(settlement.period_index).unwrap_or(i64::MAX);
    let row_id: Option<i64> = conn
        .prepare_cached(SETTLE_CHARGE)?
        .query_row(
            params![
                settlement.subscription_id.as_str(),
                period,
                settlement.owner,
                state,
                event.transaction_hash,
                event.failure,
                settlement.now_ms
            ],
            |row| row.get(0),
        )
        .optional()?;
    let Some(row_id) = row_id else {
        return Ok(SettleOutcome::LeaseLost);
    };
    // Read before the schedule moves: the webhooks name the status it had.
    let hook = subscription_hooks::hook_at(conn, row_id)?;
    let schedule = settlement.schedule;
    conn.prepare_cached(ADVANCE)?.execute(params![
        row_id,
        schedule.status.as_str(),
        i64::try_from(schedule.next_period_index).unwrap_or(i64::MAX),
        schedule.next_charge_at,
        schedule.attempts,
        schedule.failed_periods,
        settlement.now_ms,
        units_column(settlement.credit_used)
    ])?;
    conn.prepare_cached(INSERT_EVENT)?.execute(params![
        row_id,
        period,
        event.status.as_str(),
        event.gross_usd.as_i64(),
        event.fee_usd.as_i64(),
        event.net_usd.as_i64(),
        event.transaction_hash,
        event.failure,
        event.created_at,
        units_column(event.fee_base_units),
        units_column(event.net_base_units)
    ])?;
    if let Some(hook) = hook {
        subscription_hooks::enqueue(conn, hook.settled(settlement), settlement.now_ms)?;
        credits.extend(subscription_credit(&hook, settlement));
    }
    Ok(SettleOutcome::Settled)
}

pub(super) fn billing_events(
    conn: &Connection,
    id: &CustomerSubscriptionId,
) -> rusqlite::Result<Vec<BillingEvent>> {
    conn.prepare_cached(EVENTS)?
        .query_map([id.as_str()], |row| {
            Ok(BillingEventRow {
                period_index: row.get(0)?,
                status: row.get(1)?,
                gross_cents: row.get(2)?,
                fee_units: row.get(3)?,
                net_units: row.get(4)?,
                tx_hash: row.get(5)?,
                failure: row.get(6)?,
                created_at: row.get(7)?,
            }
            .into_record(id))
        })?
        .collect()
}
