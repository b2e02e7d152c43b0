//! The repository contract: one suite of backend-independent test bodies, each taking [`Repositories`]
//! over a fresh, empty database, through the store's public API only. A backend runs the whole suite with
//! [`contract_suite!`] and a [`ContractBackend`] that opens it (and may check its own invariants when a test
//! finishes): [`sqlite`] on a temporary file, [`postgres`] on a fresh database at
//! `PAYMENTS_TEST_POSTGRES_URL` (skipped with a message when none answers, failed under `CI=true`).
//!
//! Races are run through a [`tokio::sync::Barrier`] and the outcome is asserted on what the repositories
//! read back afterwards, not only on the answers.

// Helpers here are test code too (clippy's allow-in-tests covers only `#[test]` functions): a failed unwrap
// is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

pub(crate) mod chain;
pub(crate) mod endpoints;
pub(crate) mod finality;
pub(crate) mod health;
pub(crate) mod idempotency_keep;
pub(crate) mod images;
pub(crate) mod inventory;
pub(crate) mod keys;
pub(crate) mod ledger;
pub(crate) mod onramp_sessions;
pub(crate) mod outbox;
pub(crate) mod paging;
pub(crate) mod payment_windows;
mod pgbouncer;
mod postgres;
pub(crate) mod receipt_stamps;
pub(crate) mod reconcile;
pub(crate) mod recurring;
pub(crate) mod recurring_changes;
pub(crate) mod recurring_charges;
pub(crate) mod recurring_idempotency;
pub(crate) mod recurring_notices;
pub(crate) mod refunds;
pub(crate) mod reserve;
pub(crate) mod sale_inputs;
pub(crate) mod sales;
pub(crate) mod sessions;
pub(crate) mod shops;
mod sqlite;
pub(crate) mod subscription_webhooks;
pub(crate) mod transitions;
pub(crate) mod users;

pub(crate) use payments_store::testing::fixtures::{self, Repositories};
pub(crate) use payments_store::testing::{all_items, product_id};

/// A backend under contract: a fresh database per test.
pub(crate) trait ContractBackend: Sized {
    /// `None` when the backend is not available here (the test then passes vacuously, having said why).
    async fn start() -> Option<Self>;
    fn repositories(&self) -> Repositories;
    /// Called after a passing test body: check backend-level invariants and clean up.
    async fn finish(self);
}

/// Expands to one `#[tokio::test]` per contract body, each on a fresh `$backend` ([`ContractBackend`]).
macro_rules! contract_suite {
    ($backend:ty) => {
        $crate::contract_suite!(@each $backend;
            sales::a_created_receipt_reads_back_with_its_initial_status,
            receipt_stamps::a_receipts_stamp_is_the_full_reads_and_moves_with_every_change_its_view_shows,
            receipt_stamps::concurrent_stamp_reads_each_answer_their_own_receipt,
            sales::a_created_receipt_with_every_field_set_is_what_a_read_returns,
            sales::receipts_list_newest_first_within_the_limit,
            sales::parallel_idempotent_creates_have_one_effect,
            sales::parallel_creates_of_one_id_without_a_key_store_one_receipt_and_refuse_the_rest,
            idempotency_keep::a_committed_claim_without_a_kept_response_answers_from_the_named_resource,
            idempotency_keep::a_committed_transition_without_a_kept_response_answers_the_statuses_it_moved_between,
            idempotency_keep::a_committed_change_without_a_kept_response_answers_from_its_record,
            idempotency_keep::a_committed_plan_without_a_kept_response_answers_the_stored_plan,
            idempotency_keep::keep_after_commit_is_visible_to_a_replay,
            sales::an_idempotency_key_reused_with_another_body_conflicts,
            sales::a_taken_receipt_id_is_refused_and_writes_nothing,
            sales::two_merchants_create_the_same_receipt_id_and_each_sees_only_its_own,
            sales::parallel_orders_never_oversell_finite_stock,
            sales::an_order_past_the_stock_reserves_nothing,
            sales::unlimited_stock_is_never_reserved,
            sale_inputs::a_sale_sees_a_products_update_made_after_an_earlier_sale,
            sale_inputs::a_sale_sees_the_stock_left_by_earlier_sales_and_refused_ones,
            sale_inputs::a_sale_sees_deleted_products_gone_and_new_ones_under_their_sku,
            sale_inputs::a_sale_sees_a_products_new_image,
            sale_inputs::a_sale_sees_the_merchants_new_split_and_shop_settings,
            transitions::a_transition_writes_its_state_and_enqueues_its_webhook,
            transitions::a_transition_of_another_merchants_receipt_is_not_found,
            transitions::an_acknowledged_event_writes_nothing_but_keeps_its_response,
            transitions::a_refused_transition_writes_nothing,
            transitions::parallel_transitions_see_each_others_results,
            transitions::parallel_transitions_with_one_key_have_one_effect,
            refunds::a_transaction_that_proves_one_refund_is_refused_for_another_receipt,
            refunds::parallel_refunds_of_many_receipts_with_one_transaction_record_exactly_one,
            refunds::a_pending_refund_is_listed_until_a_transition_confirms_it,
            outbox::two_dispatchers_never_claim_the_same_delivery,
            outbox::claimed_deliveries_carry_their_receipt_and_key_in_due_order,
            outbox::attempts_show_in_the_log_and_redelivery_starts_a_new_round,
            outbox::a_claim_takes_at_most_the_per_endpoint_limit_counting_attempts_in_flight,
            outbox::a_redelivery_during_an_attempt_starts_a_new_round_when_it_ends,
            outbox::the_depth_counts_pending_and_in_flight_deliveries_until_they_end,
            endpoints::an_event_reaches_each_enabled_matching_endpoint_of_its_merchant_only,
            endpoints::parallel_creates_never_pass_the_per_merchant_limit,
            endpoints::a_rotation_keeps_the_previous_secret_and_recover_queues_failed_deliveries_again,
            endpoints::a_disabled_endpoint_is_not_claimed_and_a_deleted_one_takes_its_deliveries,
            keys::keys_are_found_by_hash_rotated_and_revoked,
            ledger::the_ledger_reads_the_merchants_transfers_settlements_and_refunds_in_time_order,
            ledger::ledger_pages_after_a_cursor_return_every_record_once_and_ranges_bound_them,
            reconcile::reconcile_pages_give_each_deposit_its_token_transfers_and_settlement_and_each_refund,
            keys::an_instance_setting_keeps_the_first_value_recorded_even_under_a_race,
            keys::parallel_first_key_bootstraps_create_one_subscription,
            inventory::upserts_update_by_sku_and_refuse_a_taken_sku,
            inventory::listings_filter_by_search_tags_stock_and_price_and_page,
            images::images_attach_up_to_the_maximum_and_list_without_their_bytes,
            images::an_image_is_read_alone_and_left_unread_when_the_caller_has_it,
            images::embedded_images_are_read_only_where_named_and_only_the_merchants,
            images::upserts_keep_reorder_and_replace_images_and_refuse_images_not_their_own,
            images::deleting_a_product_deletes_its_images,
            inventory::tag_filters_with_the_most_tags_follow_updates_deletes_and_merchants,
            inventory::deleting_a_product_twice_reports_the_second_as_missing,
            paging::receipt_pages_return_every_receipt_once_while_receipts_are_created,
            paging::inventory_pages_after_a_cursor_return_every_product_once_in_each_sort,
            shops::shop_settings_and_the_fee_are_saved_independently,
            shops::a_split_is_kept_unless_replaced_and_replacements_are_archived,
            shops::parallel_split_deploys_keep_one_active_split,
            shops::a_receipt_reads_with_its_merchants_current_split,
            sessions::a_nonce_opens_one_session_even_when_raced,
            sessions::expired_or_foreign_nonces_open_nothing,
            sessions::sessions_end_expire_and_are_revoked_per_wallet,
            health::a_switched_off_datastore_answers_unavailable_everywhere,
            chain::a_rescanned_transfer_is_recorded_once_and_credits_only_its_unpaid_receipt,
            chain::a_transition_records_what_the_deposit_received_and_funded_deposits_report_it,
            finality::a_removed_transfer_stops_counting_until_it_comes_back_and_the_tip_says_how_final_a_payment_is,
            payment_windows::ended_windows_are_listed_until_expired_and_never_once_paid,
            payment_windows::an_expiry_gives_back_the_orders_stock_and_a_late_payment_takes_it_again,
            payment_windows::a_late_payment_short_of_stock_is_marked_and_takes_nothing,
            payment_windows::the_paid_late_filter_lists_only_late_or_only_other_receipts,
            onramp_sessions::an_onramp_session_is_recorded_on_an_unpaid_receipt_of_its_merchant_only,
            onramp_sessions::a_paid_receipt_takes_no_new_onramp_session,
            reserve::volume_counts_the_windows_payments_and_refunds_of_one_merchant,
            reserve::deposit_addresses_name_only_the_merchants_own_receipts,
            reserve::the_first_deposit_block_is_the_merchants_lowest_recorded_transfer,
            users::a_profile_is_replaced_whole_and_its_metrics_follow,
            users::paid_receipts_credit_their_buyer_and_refunds_take_it_back,
            users::a_buyer_who_never_wrote_is_credited_but_not_listed,
            users::parallel_payments_by_one_buyer_credit_every_one,
            users::search_orders_by_xp_and_filters_within_the_scan_window,
            users::heartbeats_keep_a_live_session_and_live_lists_recent_public_users,
            users::follows_are_paged_by_wallet_and_need_a_listed_user,
            users::parallel_follows_of_one_pair_store_one_follow,
            users::the_fee_base_counts_paid_and_settled_receipts_of_one_merchant,
            recurring::plans_list_while_active_and_change_only_for_their_merchant,
            recurring::one_permission_backs_one_subscription_even_when_raced,
            recurring::an_inactive_plan_takes_no_subscriber,
            recurring::subscriptions_list_by_customer_and_merchant_and_cancel_once,
            recurring_idempotency::a_replayed_plan_create_answers_the_kept_response_and_stores_nothing_more,
            recurring_idempotency::a_plan_key_reused_with_another_body_conflicts_and_stores_nothing,
            recurring_idempotency::parallel_plan_creates_under_one_key_store_one_plan,
            recurring_idempotency::parallel_subscription_creates_under_one_key_store_one_subscription,
            recurring_idempotency::a_subscription_key_reused_with_another_body_conflicts,
            recurring_idempotency::a_refused_subscription_keeps_no_response,
            recurring_idempotency::kept_responses_belong_to_one_wallet_and_one_scope,
            recurring_changes::an_applied_upgrade_switches_the_plan_and_records_its_prorated_charge_once,
            recurring_changes::one_of_two_raced_changes_is_recorded_and_a_failed_one_changes_nothing,
            recurring_changes::a_change_whose_lease_ran_out_is_handed_out_for_reconciliation,
            recurring_changes::a_downgrades_credit_comes_off_in_the_settlement_that_uses_it,
            recurring_charges::parallel_claims_lease_each_due_period_once,
            recurring_charges::only_the_lease_owner_settles_and_the_schedule_advances,
            recurring_charges::an_expired_lease_comes_back_for_reconciliation,
            recurring_charges::a_failed_attempt_is_claimed_again_when_its_retry_is_due,
            recurring_charges::a_subscription_canceled_mid_charge_stays_canceled,
            recurring_charges::the_relayers_send_lease_is_held_by_one_owner_until_released_or_expired,
            subscription_webhooks::a_subscription_enqueues_created_with_its_plans_key_and_a_refused_one_nothing,
            subscription_webhooks::a_settlement_enqueues_its_outcome_and_a_lost_lease_nothing,
            subscription_webhooks::failures_enqueue_charge_failed_and_the_policys_cancel_enqueues_canceled,
            subscription_webhooks::a_cancel_enqueues_canceled_once,
            subscription_webhooks::a_charge_credits_the_customers_xp_and_a_failure_does_not,
            subscription_webhooks::receipt_logs_and_the_depth_live_beside_subscription_deliveries,
            subscription_webhooks::a_plans_webhook_target_is_kept_replaced_and_removed_with_its_key,
            recurring_notices::a_trial_subscription_is_trialing_and_due_only_at_its_anchor,
            recurring_notices::a_charge_notice_is_recorded_once_per_period_with_its_webhook_even_when_raced,
            recurring_notices::a_cancel_for_a_platform_reason_records_it_and_its_webhook_once,
        );
    };
    (@each $backend:ty; $($module:ident :: $test:ident),* $(,)?) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $test() {
                use $crate::ContractBackend as _;
                let Some(backend) = <$backend>::start().await else {
                    return;
                };
                $crate::$module::$test(backend.repositories()).await;
                backend.finish().await;
            }
        )*
    };
}
pub(crate) use contract_suite;
