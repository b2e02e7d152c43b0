//! [`Chain`] over any EVM node's JSON-RPC, through alloy's HTTP provider. The relayer key (when configured)
//! signs the platform's own transactions; reads need no key. Every call has a deadline, so a hung node turns
//! into [`ChainError::Unavailable`] and the caller's retry, never a stuck worker.

mod batch;
mod failure;
mod finality;
mod history;
mod redaction;
mod relayer_key;
mod sender;
mod sent;
mod spend;

use failure::{contract_error, rpc_error, within};
pub use relayer_key::RelayerKey;

use std::sync::Arc;
use std::time::Duration;

use alloy::network::{EthereumWallet, ReceiptResponse, TransactionBuilder};
use alloy::primitives::{Address, B256, Bytes, keccak256};
use alloy::providers::{DynProvider, Provider, ProviderBuilder};
use alloy::rpc::types::{Filter, Log, TransactionRequest};
use alloy::sol_types::SolEvent;
use async_trait::async_trait;
use payments_core::{ReceiptSalt, SPLIT_RUNTIME_CODE, Split, SplitRecipient, TokenAmount, Wallet};

use crate::chain::bindings::{IDepositFactory, IPaymentToken, ISplit, ISplitFactory};
use crate::chain::spend::{BatchChargeOutcome, PermissionChange, PermissionPeriod, SpendCharge};
use crate::chain::{BlockRef, Chain, ChainError, MinedTransaction, SentTransaction, TokenTransfer};

/// How long a read may take before the node counts as unavailable.
const READ_DEADLINE: Duration = Duration::from_secs(15);
/// How long a write may take to be mined (a busy chain, a low fee) before it counts as failed for now.
const WRITE_DEADLINE: Duration = Duration::from_secs(180);

/// A node reached over HTTP(S) JSON-RPC.
#[derive(Debug, Clone)]
pub(crate) struct RpcChain {
    provider: DynProvider,
    relayer: Option<Address>,
    /// The relayer's nonces (see `sender.rs`), shared by the clones of this chain.
    nonces: Arc<sender::Nonces>,
}

impl RpcChain {
    /// A chain at `url` (nothing is sent until the first call); with `relayer_key` it can also send the
    /// platform's transactions, signed by that key.
    pub(crate) fn connect(url: &url::Url, relayer_key: Option<&RelayerKey>) -> RpcChain {
        match relayer_key {
            None => RpcChain {
                provider: ProviderBuilder::new().connect_http(url.clone()).erased(),
                relayer: None,
                nonces: Arc::default(),
            },
            Some(key) => RpcChain {
                // No nonce filler: every relayer transaction goes through `submit`, which gives it its nonce
                // (`sender.rs`); gas and fees are filled there too, the chain id and signature here.
                provider: ProviderBuilder::default()
                    .with_gas_estimation()
                    .fetch_chain_id()
                    .wallet(EthereumWallet::from(key.0.clone()))
                    .connect_http(url.clone())
                    .erased(),
                relayer: Some(key.0.address()),
                nonces: Arc::default(),
            },
        }
    }

    /// Deploys `creation_code` from the relayer and returns the new contract's address.
    pub(crate) async fn deploy_code(&self, creation_code: &[u8]) -> Result<Wallet, ChainError> {
        self.writer()?;
        let request = TransactionRequest::default().with_deploy_code(Bytes::copy_from_slice(creation_code));
        let receipt = self.submit(request).await?;
        if !receipt.status() {
            return Err(ChainError::Reverted("the deployment reverted".to_owned()));
        }
        receipt
            .contract_address()
            .map(Wallet::from_address)
            .ok_or_else(|| ChainError::Reverted("the deployment has no contract address".to_owned()))
    }

    fn writer(&self) -> Result<Address, ChainError> {
        self.relayer.ok_or_else(|| {
            ChainError::NotConfigured("no relayer key (--relayer-key-file) is configured".to_owned())
        })
    }

    /// Sends a relayer call, waits for it to be mined and checks that it succeeded.
    async fn mined(&self, request: TransactionRequest) -> Result<B256, ChainError> {
        let receipt = self.submit(request).await?;
        let hash = receipt.transaction_hash;
        if receipt.status() {
            Ok(hash)
        } else {
            Err(ChainError::Reverted(format!("transaction {hash} reverted")))
        }
    }
}

#[async_trait]
impl Chain for RpcChain {
    async fn chain_id(&self) -> Result<u64, ChainError> {
        within(READ_DEADLINE, async {
            self.provider.get_chain_id().await.map_err(rpc_error)
        })
        .await
    }

    async fn head(&self) -> Result<u64, ChainError> {
        within(READ_DEADLINE, async {
            self.provider.get_block_number().await.map_err(rpc_error)
        })
        .await
    }

    async fn block_hash(&self, number: u64) -> Result<Option<B256>, ChainError> {
        let block = within(READ_DEADLINE, async {
            self.provider
                .get_block_by_number(number.into())
                .await
                .map_err(rpc_error)
        })
        .await?;
        Ok(block.map(|block| block.header.hash))
    }

    async fn finalized_block(&self) -> Result<Option<u64>, ChainError> {
        self.finalized_number().await
    }

    async fn transfers_to(
        &self,
        from: u64,
        to: u64,
        recipients: &[Wallet],
    ) -> Result<Vec<TokenTransfer>, ChainError> {
        if recipients.is_empty() || from > to {
            return Ok(Vec::new());
        }
        let topics: Vec<B256> = recipients
            .iter()
            .map(|wallet| wallet.address().into_word())
            .collect();
        let filter = Filter::new()
            .from_block(from)
            .to_block(to)
            .event_signature(IPaymentToken::Transfer::SIGNATURE_HASH)
            .topic2(topics);
        let logs = within(READ_DEADLINE, async {
            self.provider.get_logs(&filter).await.map_err(rpc_error)
        })
        .await?;
        Ok(logs.iter().filter_map(transfer_of).collect())
    }

    async fn token_transfers_of(
        &self,
        token: Wallet,
        account: Wallet,
        from: u64,
        to: u64,
    ) -> Result<Vec<TokenTransfer>, ChainError> {
        self.transfers_from_or_to(token, account, from, to).await
    }

    async fn block_timestamp(&self, number: u64) -> Result<Option<u64>, ChainError> {
        self.timestamp_of(number).await
    }

    async fn mined_transaction(&self, hash: B256) -> Result<Option<MinedTransaction>, ChainError> {
        let receipt = within(READ_DEADLINE, async {
            self.provider
                .get_transaction_receipt(hash)
                .await
                .map_err(rpc_error)
        })
        .await?;
        let Some(receipt) = receipt else { return Ok(None) };
        let (Some(number), Some(block_hash)) = (receipt.block_number, receipt.block_hash) else {
            return Ok(None);
        };
        Ok(Some(MinedTransaction {
            succeeded: receipt.status(),
            block: BlockRef {
                number,
                hash: block_hash,
            },
            transfers: receipt.inner.logs().iter().filter_map(transfer_of).collect(),
        }))
    }

    async fn sent_transaction(&self, hash: B256) -> Result<Option<SentTransaction>, ChainError> {
        let found = within(READ_DEADLINE, async {
            self.provider
                .get_transaction_by_hash(hash)
                .await
                .map_err(rpc_error)
        })
        .await?;
        Ok(found.map(|transaction| sent::sent_transaction(&transaction)))
    }

    async fn has_code(&self, address: Wallet) -> Result<bool, ChainError> {
        let code = within(READ_DEADLINE, async {
            self.provider
                .get_code_at(address.address())
                .await
                .map_err(rpc_error)
        })
        .await?;
        Ok(!code.is_empty())
    }

    async fn token_balance(&self, token: Wallet, owner: Wallet) -> Result<TokenAmount, ChainError> {
        let contract = IPaymentToken::new(token.address(), &self.provider);
        let balance = within(READ_DEADLINE, async {
            contract
                .balanceOf(owner.address())
                .call()
                .await
                .map_err(contract_error)
        })
        .await?;
        u128::try_from(balance)
            .map(TokenAmount::from_base_units)
            .map_err(|_| ChainError::Reverted(format!("the balance of {owner} does not fit in 128 bits")))
    }

    async fn token_allowance(
        &self,
        token: Wallet,
        owner: Wallet,
        spender: Wallet,
    ) -> Result<alloy::primitives::U256, ChainError> {
        self.allowance_of(token, owner, spender).await
    }

    async fn split_recipients(&self, split: Wallet) -> Result<Option<Split>, ChainError> {
        let code = within(READ_DEADLINE, async {
            self.provider
                .get_code_at(split.address())
                .await
                .map_err(rpc_error)
        })
        .await?;
        // Only the genuine Split runtime (it has no immutables, so every Split has the same code) is trusted to
        // report its own recipients: any other contract could answer anything.
        if keccak256(&code) != keccak256(SPLIT_RUNTIME_CODE) {
            return Ok(None);
        }
        let contract = ISplit::new(split.address(), &self.provider);
        let answer = within(READ_DEADLINE, async {
            contract.recipients().call().await.map_err(contract_error)
        })
        .await?;
        let recipients = answer
            .accounts
            .iter()
            .zip(answer.bps.iter())
            .map(|(account, bps)| SplitRecipient {
                address: Wallet::from_address(*account),
                shares_bps: u32::from(*bps),
            })
            .collect();
        Ok(Split::new(recipients).ok())
    }

    async fn deploy_split(&self, factory: Wallet, split: &Split) -> Result<B256, ChainError> {
        self.writer()?;
        let (recipients, bps) = split_arguments(split);
        let factory = ISplitFactory::new(factory.address(), &self.provider);
        // `deploy` is also the generated instance's own method (deploying bytecode): build the call explicitly.
        let call = factory.call_builder(&ISplitFactory::deployCall { recipients, bps });
        self.mined(call.into_transaction_request()).await
    }

    async fn forward_deposit(
        &self,
        factory: Wallet,
        receipt: ReceiptSalt,
        split: Wallet,
        token: Wallet,
    ) -> Result<B256, ChainError> {
        self.writer()?;
        let factory = IDepositFactory::new(factory.address(), &self.provider);
        let call = factory.deployAndForward(B256::from(receipt.to_bytes()), split.address(), token.address());
        self.mined(call.into_transaction_request()).await
    }

    async fn distribute(&self, split: Wallet, token: Wallet) -> Result<B256, ChainError> {
        self.writer()?;
        let contract = ISplit::new(split.address(), &self.provider);
        let call = contract.distribute(token.address());
        self.mined(call.into_transaction_request()).await
    }

    async fn simulate_payment(
        &self,
        _token: Wallet,
        _to: Wallet,
        _amount: TokenAmount,
    ) -> Result<B256, ChainError> {
        Err(ChainError::NotConfigured(
            "simulated payments exist only on the test-mode chain".to_owned(),
        ))
    }

    fn relayer(&self) -> Option<Wallet> {
        self.relayer.map(Wallet::from_address)
    }

    async fn is_valid_contract_signature(
        &self,
        account: Wallet,
        hash: B256,
        signature: &[u8],
    ) -> Result<bool, ChainError> {
        self.contract_signature(account, hash, signature).await
    }

    async fn charge_subscription(&self, charge: &SpendCharge) -> Result<B256, ChainError> {
        self.send_charge(charge).await
    }

    async fn charge_batch(&self, charges: &[SpendCharge]) -> Result<Vec<BatchChargeOutcome>, ChainError> {
        self.send_charge_batch(charges).await
    }

    async fn change_permission(&self, change: &PermissionChange) -> Result<B256, ChainError> {
        self.send_permission_change(change).await
    }

    async fn permission_period(
        &self,
        manager: Wallet,
        permission: &payments_core::SpendPermission,
    ) -> Result<PermissionPeriod, ChainError> {
        self.current_period(manager, permission).await
    }

    async fn relayer_has_unmined(&self) -> Result<bool, ChainError> {
        self.unmined_sends().await
    }

    fn is_test_mode(&self) -> bool {
        false
    }
}

/// The constructor arguments of a split as the factory takes them.
pub(crate) fn split_arguments(split: &Split) -> (Vec<Address>, Vec<u16>) {
    split
        .recipients()
        .iter()
        .map(|recipient| {
            // Shares are validated to at most 10000 bps, which fits in a uint16.
            let bps = u16::try_from(recipient.shares_bps).unwrap_or(u16::MAX);
            (recipient.address.address(), bps)
        })
        .unzip()
}

/// A `Transfer` log as a [`TokenTransfer`]; `None` for other logs or a log without its block (pending).
fn transfer_of(log: &Log) -> Option<TokenTransfer> {
    let decoded = log.log_decode::<IPaymentToken::Transfer>().ok()?;
    let event = &decoded.inner.data;
    Some(TokenTransfer {
        token: Wallet::from_address(log.address()),
        from: Wallet::from_address(event.from),
        to: Wallet::from_address(event.to),
        amount: u128::try_from(event.value).ok().map(TokenAmount::from_base_units),
        transaction_hash: log.transaction_hash?,
        log_index: log.log_index?,
        block: BlockRef {
            number: log.block_number?,
            hash: log.block_hash?,
        },
    })
}
