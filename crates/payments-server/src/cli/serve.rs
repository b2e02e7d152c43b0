//! `payments-server [serve]`: bind, open the database, bootstrap development mode, serve.

use std::sync::Arc;

use anyhow::Context as _;
use payments_server::{App, Clock, OffsetClock, SystemClock};
use url::Url;

use crate::cli::serve_args::{ServeArgs, build_config};

/// Runs the server until a shutdown signal.
pub(crate) fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let _log_guard =
        payments_server::init_tracing(args.log_format).map_err(|error| anyhow::anyhow!(error))?;
    let db_display = args.db.to_string();
    let listen = args.listen;
    let prepared = build_config(&args)?;
    let explicit_base_url = prepared.explicit_base_url;
    let mut config = prepared.config;
    if config.dev_mode {
        eprintln!("{}", payments_server::DEV_MODE_WARNING);
        tracing::warn!("development mode");
    }
    let open_files = payments_server::raise_open_file_limit();
    tracing::info!(open_files, "open-file limit");
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        // Bound before anything is created or printed: with the port taken, the start fails before the
        // development key exists, so the next start (on a free port) still prints it.
        let listener = tokio::net::TcpListener::bind(listen).await.with_context(|| {
            format!("binding {listen} (is another server running there? --listen picks another address)")
        })?;
        if !explicit_base_url && let Ok(bound) = listener.local_addr() {
            // `--listen 127.0.0.1:0`: payment links and the printed example name the port actually bound.
            config.base_url =
                Url::parse(&format!("http://{bound}")).context("building the default base URL")?;
        }
        // Development mode without --cron-secret keeps one beside the database, as the admin key, so the charge
        // and test-clock routes work on the README's dev server (`payments subscriptions charge-due` reads it).
        if config.dev_mode && config.cron_secret.is_none() {
            let path = payments_server::dev_cron_secret_file(&config.database.sidecar_base());
            config.cron_secret = Some(payments_server::load_or_create_dev_cron_secret(&path)?);
        }
        // Development mode runs the test clock (POST /api/test-clock/advance); production the wall clock.
        let clock: Arc<dyn Clock> = if config.dev_mode {
            Arc::new(OffsetClock::new())
        } else {
            Arc::new(SystemClock)
        };
        let app = App::open(config, clock)
            .await
            .with_context(|| format!("opening the database {db_display}"))?;
        if let Some(welcome) = app
            .bootstrap_development()
            .await
            .context("creating the development merchant")?
        {
            print!("{}", welcome.render(&app.config().base_url));
        }
        tracing::info!(listen = %listen, dev = app.config().dev_mode, "payments-server listening");
        payments_server::serve(listener, app, payments_server::shutdown_signal()).await;
        Ok(())
    })
}
