//! The application: shared state plus the per-request pipeline (correlation id and span, request deadline,
//! routing, error rendering, rate-limit headers). The body is read later, by the handler that takes one.

pub(crate) mod dev_bootstrap;
pub(crate) mod server;

use std::any::Any;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use futures_util::FutureExt;
use http_body_util::BodyExt;
use hyper::Request;
use hyper::body::Body;
use tracing::Instrument;

use crate::api::routes;
use crate::chain::simulated::SimulatedChain;
use crate::http::context::{Ctx, RequestBody};
use crate::http::correlation::{self, CorrelationId};
use crate::http::error::ApiError;
use crate::http::rate_limit::RateLimits;
use crate::http::receipt_bodies::ReceiptBodies;
use crate::http::response::HttpResponse;
use crate::http::state::{ApiSlot, AppState};
use crate::runtime::clock::Clock;
use crate::runtime::config::ServerConfig;
use crate::runtime::metrics::{Metrics, UPKEEP_INTERVAL};
use crate::services::Services;
use crate::services::instance_settings::{InstanceError, agree_with_database};
use crate::services::keys::KeyAdmin;
use crate::services::receipts;
use crate::services::reconcile::{ReconcileError, ReconcileReport};
use crate::services::worker::WorkerHandle;
use crate::store::{self, Repositories, StoreObserver};

/// The HTTP application; cheap to clone (one shared state).
#[derive(Debug, Clone)]
pub struct App {
    state: Arc<AppState>,
}

impl App {
    /// Opens the database named by the config (SQLite file or PostgreSQL URL, applying migrations) and
    /// builds the app.
    ///
    /// # Errors
    /// When the database cannot be opened or migrated, or belongs to the other mode (test/live).
    pub async fn open(mut config: ServerConfig, clock: Arc<dyn Clock>) -> Result<App, InstanceError> {
        let repositories = store::open(&config.database, clock.now_ms()).await?;
        agree_with_database(&mut config, repositories.keys.as_ref(), clock.now_ms()).await?;
        let cursor = repositories.chain.fetch_cursor(config.chain_id).await?;
        let app = App::with_repositories(config, repositories, clock, None);
        // The test-mode chain lives in memory: it resumes where the watcher left the previous start's chain.
        if let (Some(chain), Some(cursor)) = (app.simulated_chain(), cursor) {
            let last_hash = cursor
                .last_block_hash
                .as_deref()
                .and_then(|hash| hash.parse().ok());
            chain.resume_after(cursor.next_block, last_hash);
        }
        Ok(app)
    }

    pub(crate) fn with_repositories(
        config: ServerConfig,
        repositories: Repositories,
        clock: Arc<dyn Clock>,
        simulated: Option<Arc<SimulatedChain>>,
    ) -> App {
        let rate_limits = RateLimits::per_minute(config.rate_limit_per_minute, Arc::clone(&clock));
        let sign_in_limits = RateLimits::per_minute(config.sign_in_rate_limit_per_minute, Arc::clone(&clock));
        let portal_limits = RateLimits::per_minute(config.rate_limit_per_minute, Arc::clone(&clock));
        let metrics = Arc::new(Metrics::new());
        repositories
            .timing
            .attach(Arc::clone(&metrics) as Arc<dyn StoreObserver>);
        let services = Services::new(&config, &repositories, &clock, simulated, &metrics);
        let state = Arc::new(AppState {
            config,
            services,
            clock,
            rate_limits,
            sign_in_limits,
            portal_limits,
            metrics,
            receipt_bodies: ReceiptBodies::default(),
            graphql: ApiSlot::default(),
        });
        // Built here, at start, as before the schema moved up to the API: the first query does not pay for it.
        crate::api::graphql::endpoint(&state);
        App { state }
    }

    /// The configuration the app runs with.
    pub fn config(&self) -> &ServerConfig {
        &self.state.config
    }

    /// Compares what the database records for `[from_ms, to_ms)` with the chain (`payments-server reconcile`
    /// and `GET /api/admin/reconcile`).
    ///
    /// # Errors
    /// When the database or the chain cannot be read.
    pub async fn reconcile(&self, from_ms: i64, to_ms: i64) -> Result<ReconcileReport, ReconcileError> {
        self.state.services.reconcile.run(from_ms, to_ms).await
    }

    /// The shared state, for the crate's own start-up steps (the development bootstrap).
    pub(crate) fn state(&self) -> &AppState {
        &self.state
    }

    /// Starts the webhook dispatcher (`serve` does, and stops it on shutdown).
    pub(crate) fn start_webhook_dispatcher(&self) -> WorkerHandle {
        receipts::start_dispatcher(Arc::clone(&self.state.services.dispatcher))
    }

    /// Starts the subscription batch timer (`serve` does, and stops it on shutdown).
    pub(crate) fn start_subscription_scheduler(&self) -> WorkerHandle {
        crate::services::recurring::start_scheduler(
            self.state.services.recurring.clone(),
            self.state.config.subscription_batch_interval,
        )
    }

    /// Folds histogram samples into their buckets every few seconds, so they do not pile up between
    /// scrapes (`serve` starts it and aborts it on shutdown).
    pub(crate) fn start_metrics_upkeep(&self) -> tokio::task::JoinHandle<()> {
        let metrics = Arc::clone(&self.state.metrics);
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(UPKEEP_INTERVAL);
            loop {
                ticks.tick().await;
                metrics.run_upkeep();
            }
        })
    }

    /// Key administration on the app's own datastore (dev bootstrap, tests).
    /// Starts the deposit watcher and settlement, when the chain's factories are known.
    pub(crate) fn start_chain_workers(&self) -> Option<WorkerHandle> {
        self.state
            .services
            .chain_workers
            .clone()
            .map(crate::services::chain::start_chain_workers)
    }

    /// The test-mode chain this server runs, when it runs one (resumed at start, driven by tests).
    pub(crate) fn simulated_chain(&self) -> Option<Arc<SimulatedChain>> {
        self.state.services.simulated.clone()
    }

    pub fn key_admin(&self) -> KeyAdmin {
        self.state.services.keys.clone()
    }

    /// Answers one request. Never fails and never panics outward: every failure becomes an error envelope.
    /// A request that takes longer than the configured deadline is answered 503 `deadline_exceeded`.
    pub async fn handle<B>(&self, request: Request<B>) -> HttpResponse
    where
        B: Body<Data = Bytes> + Send + 'static,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let correlation_id = CorrelationId::from_headers(request.headers());
        let (method, route) = (
            routes::method_label(request.method()),
            routes::pattern(request.uri().path()).unwrap_or("unmatched"),
        );
        let span = tracing::info_span!(
            "request",
            method = %request.method(),
            path = %request.uri().path(),
            correlation_id = %correlation_id,
        );
        async move {
            let started = Instant::now();
            let (parts, body) = request.into_parts();
            let body: RequestBody = body.map_err(Into::into).boxed_unsync();
            let deadline = self.state.config.limits.request_deadline;
            let dispatched =
                tokio::time::timeout(deadline, self.dispatch(Request::from_parts(parts, ()), body));
            let mut response = match dispatched.await {
                Ok(response) => response,
                Err(_) => ApiError::DeadlineExceeded {
                    deadline_ms: deadline.as_millis(),
                }
                .into_response(),
            };
            if let Some(value) = correlation_id.header_value() {
                response.headers_mut().insert(correlation::HEADER, value);
            }
            let elapsed = started.elapsed();
            self.state
                .metrics
                .request(method, route, response.status().as_u16(), elapsed);
            let elapsed_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
            tracing::info!(
                status = response.status().as_u16(),
                elapsed_us,
                "request finished"
            );
            response
        }
        .instrument(span)
        .await
    }

    async fn dispatch(&self, request: Request<()>, body: RequestBody) -> HttpResponse {
        let ctx = Ctx::new(&self.state, &request, body);
        let routed = AssertUnwindSafe(routes::route(&ctx, request.method(), request.uri().path()))
            .catch_unwind()
            .await;
        let mut response = match routed {
            Ok(Ok(response)) => response,
            Ok(Err(error)) => error.into_response(),
            Err(panic) => {
                ApiError::internal(format!("handler panicked: {}", panic_message(&*panic))).into_response()
            }
        };
        if let Some(status) = ctx.rate_status() {
            status.write_headers(response.headers_mut());
        }
        response
    }
}

fn panic_message(panic: &(dyn Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("non-string panic payload")
}
