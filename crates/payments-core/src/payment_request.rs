//! How a buyer pays a receipt: the ERC-20 transfer it needs, as an EIP-681 URI for wallets and QR codes.

use std::fmt;

use crate::money::{Cents, MoneyError, TokenAmount};
use crate::wallet::Wallet;

/// A request to transfer `amount` of `token` to `recipient` on `chain_id`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaymentRequest {
    /// The stablecoin contract.
    pub token: Wallet,
    /// The EVM chain id.
    pub chain_id: u64,
    /// Who receives: the merchant's split address.
    pub recipient: Wallet,
    /// How much, in token base units.
    pub amount: TokenAmount,
}

impl PaymentRequest {
    /// The request for paying `total` (in cents) of a 6-decimal stablecoin.
    ///
    /// # Errors
    /// [`MoneyError::Negative`] for a negative total.
    pub fn for_total(
        token: Wallet,
        chain_id: u64,
        recipient: Wallet,
        total: Cents,
    ) -> Result<Self, MoneyError> {
        Ok(PaymentRequest {
            token,
            chain_id,
            recipient,
            amount: total.to_token_amount()?,
        })
    }

    /// The [EIP-681](https://eips.ethereum.org/EIPS/eip-681) URI of the transfer:
    /// `ethereum:<token>@<chainId>/transfer?address=<recipient>&uint256=<amount>`.
    ///
    /// ```
    /// use payments_core::{Cents, PaymentRequest, Wallet};
    /// let token: Wallet = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913".parse().unwrap();
    /// let to: Wallet = "0x00000000000000000000000000000000000000aa".parse().unwrap();
    /// let request = PaymentRequest::for_total(token, 8453, to, Cents::new(1265)).unwrap();
    /// assert_eq!(
    ///     request.eip681_uri(),
    ///     "ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@8453/transfer\
    ///      ?address=0x00000000000000000000000000000000000000AA&uint256=12650000"
    /// );
    /// ```
    pub fn eip681_uri(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for PaymentRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Checksummed addresses let wallets detect a mistyped or corrupted address.
        write!(
            f,
            "ethereum:{}@{}/transfer?address={}&uint256={}",
            self.token.to_checksum(),
            self.chain_id,
            self.recipient.to_checksum(),
            self.amount
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_uri_names_token_chain_recipient_and_base_units() {
        let token = Wallet::parse("0x833589fcd6edb6e08f4c7c32d4f71b54bda02913").unwrap();
        let recipient = Wallet::parse("0x2c7536e3605d9c16a7a3d7b1898e529396a65c23").unwrap();
        let request = PaymentRequest::for_total(token, 31337, recipient, Cents::new(2608)).unwrap();
        assert_eq!(request.amount, TokenAmount::from_base_units(26_080_000));
        assert_eq!(
            request.eip681_uri(),
            "ethereum:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913@31337/transfer\
             ?address=0x2c7536E3605D9C16a7a3D7b1898e529396a65c23&uint256=26080000"
        );
    }

    #[test]
    fn a_negative_total_cannot_become_a_payment_request() {
        let wallet = Wallet::parse("0x00000000000000000000000000000000000000aa").unwrap();
        assert!(PaymentRequest::for_total(wallet, 1, wallet, Cents::new(-1)).is_err());
    }
}
