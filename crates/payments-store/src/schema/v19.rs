//! v19: every unit of money accounted for (issue 26, docs/money.md). `received_units`: the base units of the
//! payment token the receipt's deposit had received when its last status change was recorded, as a decimal
//! string (token amounts are `u128`); the watcher compares it with the recorded transfers to tell a new
//! underpayment or overpayment (`amountReceivedUsd`, `amountDueUsd`, `overpaidUsd` come from it). Receipts
//! paid on chain before v19 start at what they recorded as paid, in whole cents.

pub(crate) const SQL: &str = "
ALTER TABLE receipts ADD COLUMN received_units TEXT NOT NULL DEFAULT '0';
UPDATE receipts SET received_units = CAST(paid_cents * 10000 AS TEXT)
    WHERE paid_cents > 0 AND pay_to IS NOT NULL;
";
