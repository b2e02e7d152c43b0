//! The ledger: every money movement of a merchant as one entry that debits one account and credits another
//! by the same token amount, so every export balances by construction and each account's balance can be
//! read off it (a receipt's deposit account returns to zero once its split is paid out).
//!
//! Accounts are named `kind:identity` (`buyer:0x…`, `deposit:<receiptId>`, `recipient:0x…`,
//! `platform:0x…`, `customer:0x…`, `merchant:0x…`). "Debit" is the account the money went to, "credit" the
//! one it came from, as a bank statement of the receiving account would show it.

use std::fmt;

use crate::{Split, TokenAmount, Wallet};

/// What one ledger entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LedgerMovement {
    /// A buyer's transfer to a receipt's deposit address, up to the receipt's total.
    Payment,
    /// The part of a transfer beyond the receipt's total (too much at once, or a payment after paid).
    Overpayment,
    /// The merchant's refund transfer to the buyer.
    Refund,
    /// A split recipient's share of a settled deposit.
    SplitShare,
    /// The platform's share of a settled deposit, or a subscription charge's fee.
    PlatformFee,
    /// What a subscription charge paid the merchant (the price less the platform fee).
    SubscriptionCharge,
}

impl LedgerMovement {
    /// The name in exports.
    pub fn as_str(self) -> &'static str {
        match self {
            LedgerMovement::Payment => "payment",
            LedgerMovement::Overpayment => "overpayment",
            LedgerMovement::Refund => "refund",
            LedgerMovement::SplitShare => "split_share",
            LedgerMovement::PlatformFee => "platform_fee",
            LedgerMovement::SubscriptionCharge => "subscription_charge",
        }
    }
}

impl fmt::Display for LedgerMovement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An account money moves between.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LedgerAccount {
    /// The wallet that paid a receipt.
    Buyer(Wallet),
    /// A receipt's deposit address, named by the receipt (it holds the payment until settlement).
    Deposit(String),
    /// A split recipient other than the platform.
    Recipient(Wallet),
    /// The platform's wallet (`None`: fees of charges made while one was configured, read on a server
    /// started without `--platform-recipient`; named `platform:unconfigured`).
    Platform(Option<Wallet>),
    /// A subscription's customer.
    Customer(Wallet),
    /// The merchant's own wallet (refunds leave it, subscription charges arrive in it).
    Merchant(Wallet),
}

impl fmt::Display for LedgerAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LedgerAccount::Buyer(wallet) => write!(f, "buyer:{wallet}"),
            LedgerAccount::Deposit(receipt) => write!(f, "deposit:{receipt}"),
            LedgerAccount::Recipient(wallet) => write!(f, "recipient:{wallet}"),
            LedgerAccount::Platform(Some(wallet)) => write!(f, "platform:{wallet}"),
            LedgerAccount::Platform(None) => f.write_str("platform:unconfigured"),
            LedgerAccount::Customer(wallet) => write!(f, "customer:{wallet}"),
            LedgerAccount::Merchant(wallet) => write!(f, "merchant:{wallet}"),
        }
    }
}

/// One movement: `amount` leaves `credit` and arrives in `debit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LedgerLeg {
    pub movement: LedgerMovement,
    pub debit: LedgerAccount,
    pub credit: LedgerAccount,
    pub amount: TokenAmount,
}

/// A transfer of `amount` to a receipt's deposit after `received_before` had arrived, against a total of
/// `total`: the part that pays the receipt and the part beyond it (either may be zero; zero legs are
/// left out).
///
/// ```
/// use payments_core::{LedgerMovement, TokenAmount, Wallet, deposit_legs};
/// let buyer: Wallet = "0x00000000000000000000000000000000000000b1".parse().unwrap();
/// let units = TokenAmount::from_base_units;
/// let legs = deposit_legs("r-1", buyer, units(10_000_000), units(8_000_000), units(5_000_000));
/// let kinds: Vec<_> = legs.iter().map(|leg| (leg.movement, leg.amount)).collect();
/// assert_eq!(kinds, [(LedgerMovement::Payment, units(2_000_000)), (LedgerMovement::Overpayment, units(3_000_000))]);
/// ```
pub fn deposit_legs(
    receipt_id: &str,
    buyer: Wallet,
    total: TokenAmount,
    received_before: TokenAmount,
    amount: TokenAmount,
) -> Vec<LedgerLeg> {
    let still_due = total.base_units().saturating_sub(received_before.base_units());
    let paying = amount.base_units().min(still_due);
    let beyond = amount.base_units() - paying;
    [
        (LedgerMovement::Payment, paying),
        (LedgerMovement::Overpayment, beyond),
    ]
    .into_iter()
    .filter(|(_, units)| *units > 0)
    .map(|(movement, units)| LedgerLeg {
        movement,
        debit: LedgerAccount::Deposit(receipt_id.to_owned()),
        credit: LedgerAccount::Buyer(buyer),
        amount: TokenAmount::from_base_units(units),
    })
    .collect()
}

/// The split's payout of a settled deposit holding `forwarded`: one leg per recipient with a share, as the
/// split contract allocates it ([`Split::allocate`]); the platform's wallet, when it is a recipient, gets
/// a [`LedgerMovement::PlatformFee`] leg.
pub fn settlement_legs(
    receipt_id: &str,
    split: &Split,
    platform: Option<Wallet>,
    forwarded: TokenAmount,
) -> Vec<LedgerLeg> {
    split
        .allocate(forwarded.base_units())
        .into_iter()
        .filter(|(_, units)| *units > 0)
        .map(|(wallet, units)| {
            let (movement, debit) = if Some(wallet) == platform {
                (LedgerMovement::PlatformFee, LedgerAccount::Platform(Some(wallet)))
            } else {
                (LedgerMovement::SplitShare, LedgerAccount::Recipient(wallet))
            };
            LedgerLeg {
                movement,
                debit,
                credit: LedgerAccount::Deposit(receipt_id.to_owned()),
                amount: TokenAmount::from_base_units(units),
            }
        })
        .collect()
}

/// A subscription charge: the net to the merchant and the fee to the platform, both from the customer (a
/// zero fee has no leg).
pub fn charge_legs(
    customer: Wallet,
    merchant: Wallet,
    platform: Option<Wallet>,
    net: TokenAmount,
    fee: TokenAmount,
) -> Vec<LedgerLeg> {
    let mut legs = vec![LedgerLeg {
        movement: LedgerMovement::SubscriptionCharge,
        debit: LedgerAccount::Merchant(merchant),
        credit: LedgerAccount::Customer(customer),
        amount: net,
    }];
    if fee.base_units() > 0 {
        legs.push(LedgerLeg {
            movement: LedgerMovement::PlatformFee,
            debit: LedgerAccount::Platform(platform),
            credit: LedgerAccount::Customer(customer),
            amount: fee,
        });
    }
    legs
}

/// A refund: `amount` from the merchant's wallet to the buyer.
pub fn refund_leg(merchant: Wallet, buyer: Wallet, amount: TokenAmount) -> LedgerLeg {
    LedgerLeg {
        movement: LedgerMovement::Refund,
        debit: LedgerAccount::Buyer(buyer),
        credit: LedgerAccount::Merchant(merchant),
        amount,
    }
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
mod tests;
