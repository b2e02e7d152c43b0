//! `payments webhooks endpoints create|list|update|delete|rotate|deliveries|recover` and `payments webhooks
//! trigger`: the merchant's webhook endpoints (scopes webhooks:read / webhooks:write).

use std::process::ExitCode;

use clap::{Args, Subcommand};
use payments_client::{DeliveryFilter, EndpointDeliveries, EndpointFields, WebhookEndpoint};

use crate::connection::{ConnectionArgs, block_on};
use crate::output::{Table, one_line, print_json, print_text, utc};
use crate::report::{exit_code, failure};

/// Webhook endpoints of the key's merchant.
#[derive(Debug, Args)]
pub(crate) struct EndpointsArgs {
    #[command(subcommand)]
    command: EndpointsCommand,
}

#[derive(Debug, Subcommand)]
enum EndpointsCommand {
    /// Register an endpoint; prints its whsec_ secret (shown this once).
    Create(CreateArgs),
    /// List the endpoints.
    List(ConnectionOnly),
    /// Change an endpoint's url, events, description or enabled.
    Update(UpdateArgs),
    /// Delete an endpoint and its delivery log.
    Delete(IdArgs),
    /// A new secret (printed once); the old one keeps signing beside it for 24 hours.
    Rotate(IdArgs),
    /// An endpoint's deliveries, newest first.
    Deliveries(DeliveriesArgs),
    /// Send again every failed delivery since a time (after an outage).
    Recover(RecoverArgs),
}

#[derive(Debug, Args)]
struct ConnectionOnly {
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct IdArgs {
    /// The endpoint id (we_...).
    id: String,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct CreateArgs {
    /// Where deliveries go (HTTPS to a public address; a development server also takes http://127.0.0.1).
    /// Not `--url`: that names the service.
    #[arg(long, value_name = "URL")]
    endpoint_url: String,
    /// Event types or patterns, comma-separated: `*`, `receipt.*`, `subscription.charged`, ...
    #[arg(long, value_delimiter = ',', default_value = "*")]
    events: Vec<String>,
    /// A note for people.
    #[arg(long)]
    description: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct UpdateArgs {
    /// The endpoint id (we_...).
    id: String,
    /// New target URL.
    #[arg(long, value_name = "URL")]
    endpoint_url: Option<String>,
    /// Replaces the event patterns (comma-separated).
    #[arg(long, value_delimiter = ',')]
    events: Option<Vec<String>>,
    /// New description ("" clears it).
    #[arg(long)]
    description: Option<String>,
    /// true or false.
    #[arg(long)]
    enabled: Option<bool>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct DeliveriesArgs {
    /// The endpoint id (we_...).
    id: String,
    /// pending, delivered or failed.
    #[arg(long)]
    state: Option<String>,
    /// Only this event type.
    #[arg(long)]
    event_type: Option<String>,
    /// Page size, 1 to 200.
    #[arg(long)]
    limit: Option<u32>,
    /// The next cursor a previous page printed.
    #[arg(long)]
    cursor: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

#[derive(Debug, Args)]
struct RecoverArgs {
    /// The endpoint id (we_...).
    id: String,
    /// Unix milliseconds: every failed delivery created at or after it is sent again.
    #[arg(long)]
    since: i64,
    #[command(flatten)]
    connection: ConnectionArgs,
}

/// `payments webhooks trigger <type> [--endpoint ID]`.
#[derive(Debug, Args)]
pub(crate) struct TriggerArgs {
    /// The event type, e.g. receipt.status_updated or subscription.charged.
    event_type: String,
    /// Only this endpoint (whatever its patterns); default: every enabled endpoint that matches.
    #[arg(long)]
    endpoint: Option<String>,
    #[command(flatten)]
    connection: ConnectionArgs,
}

pub(crate) fn run(args: EndpointsArgs) -> ExitCode {
    let outcome = match args.command {
        EndpointsCommand::Create(create) => block_on(run_create(create)),
        EndpointsCommand::List(list) => block_on(run_list(list)),
        EndpointsCommand::Update(update) => block_on(run_update(update)),
        EndpointsCommand::Delete(delete) => block_on(run_delete(delete)),
        EndpointsCommand::Rotate(rotate) => block_on(run_rotate(rotate)),
        EndpointsCommand::Deliveries(deliveries) => block_on(run_deliveries(deliveries)),
        EndpointsCommand::Recover(recover) => block_on(run_recover(recover)),
    };
    exit_code(outcome.and_then(|result| result))
}

pub(crate) fn run_trigger(args: TriggerArgs) -> ExitCode {
    let outcome = block_on(async move {
        let sent = args
            .connection
            .keyed_client()?
            .send_test_event(&args.event_type, args.endpoint.as_deref())
            .await?;
        if args.connection.json {
            print_json(&serde_json::json!({
                "eventId": sent.event_id, "type": sent.event_type, "deliveries": sent.deliveries,
            }))?;
        } else {
            print_text(&format!(
                "sent test event {} ({}) to {} endpoint(s)\n",
                sent.event_id, sent.event_type, sent.deliveries
            ))?;
        }
        Ok(ExitCode::SUCCESS)
    });
    exit_code(outcome.and_then(|result| result))
}

async fn run_create(args: CreateArgs) -> anyhow::Result<ExitCode> {
    let mut fields = EndpointFields::new(args.endpoint_url, args.events);
    fields.description = args.description;
    let created = args
        .connection
        .keyed_client()?
        .create_webhook_endpoint(&fields)
        .await?;
    show(&args.connection, &created)
}

async fn run_list(args: ConnectionOnly) -> anyhow::Result<ExitCode> {
    let endpoints = args.connection.keyed_client()?.webhook_endpoints().await?;
    if args.connection.json {
        print_json(&endpoints)?;
    } else {
        print_text(&endpoints_table(&endpoints))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_update(args: UpdateArgs) -> anyhow::Result<ExitCode> {
    if args.endpoint_url.is_none()
        && args.events.is_none()
        && args.description.is_none()
        && args.enabled.is_none()
    {
        return Err(failure(
            "invalid_input",
            "nothing to change: give --endpoint-url, --events, --description or --enabled",
        ));
    }
    let mut fields = EndpointFields::default();
    fields.url = args.endpoint_url;
    fields.events = args.events;
    fields.description = args.description;
    fields.enabled = args.enabled;
    let updated = args
        .connection
        .keyed_client()?
        .update_webhook_endpoint(&args.id, &fields)
        .await?;
    show(&args.connection, &updated)
}

async fn run_delete(args: IdArgs) -> anyhow::Result<ExitCode> {
    args.connection
        .keyed_client()?
        .delete_webhook_endpoint(&args.id)
        .await?;
    if args.connection.json {
        print_json(&serde_json::json!({"ok": true, "id": args.id}))?;
    } else {
        print_text(&format!("deleted {}\n", args.id))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_rotate(args: IdArgs) -> anyhow::Result<ExitCode> {
    let rotated = args
        .connection
        .keyed_client()?
        .rotate_webhook_endpoint_secret(&args.id)
        .await?;
    show(&args.connection, &rotated)
}

async fn run_deliveries(args: DeliveriesArgs) -> anyhow::Result<ExitCode> {
    let mut filter = DeliveryFilter::default();
    filter.limit = args.limit;
    filter.cursor = args.cursor;
    filter.state = args.state;
    filter.event_type = args.event_type;
    let page = args
        .connection
        .keyed_client()?
        .webhook_endpoint_deliveries(&args.id, &filter)
        .await?;
    if args.connection.json {
        print_json(&serde_json::json!({
            "deliveries": page.deliveries, "nextCursor": page.next_cursor,
        }))?;
    } else {
        print_text(&deliveries_table(&page))?;
    }
    Ok(ExitCode::SUCCESS)
}

async fn run_recover(args: RecoverArgs) -> anyhow::Result<ExitCode> {
    let recovered = args
        .connection
        .keyed_client()?
        .recover_webhook_endpoint(&args.id, args.since)
        .await?;
    if args.connection.json {
        print_json(&serde_json::json!({"ok": true, "recovered": recovered}))?;
    } else {
        print_text(&format!("queued {recovered} failed deliveries again\n"))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One endpoint; its secret (create, rotate) on a line of its own, as it is shown only now.
fn show(connection: &ConnectionArgs, endpoint: &WebhookEndpoint) -> anyhow::Result<ExitCode> {
    if connection.json {
        print_json(endpoint)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = endpoints_table(std::slice::from_ref(endpoint));
    if let Some(secret) = &endpoint.secret {
        text.push_str(&format!(
            "secret: {secret}   (shown only now: keep it to verify deliveries)\n"
        ));
    }
    print_text(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn endpoints_table(endpoints: &[WebhookEndpoint]) -> String {
    let mut table = Table::new(["ENDPOINT", "URL", "EVENTS", "ENABLED", "DESCRIPTION"]);
    for endpoint in endpoints {
        table.row([
            endpoint.id.clone(),
            one_line(&endpoint.url),
            endpoint.events.join(","),
            if endpoint.enabled { "yes" } else { "no" }.to_owned(),
            one_line(endpoint.description.as_deref().unwrap_or("")),
        ]);
    }
    table.render()
}

fn deliveries_table(page: &EndpointDeliveries) -> String {
    let mut table = Table::new(["DELIVERY", "EVENT", "STATE", "ATTEMPTS", "LAST", "CREATED"]);
    for delivery in &page.deliveries {
        table.row([
            delivery.delivery_id.clone(),
            delivery.event_type.clone(),
            delivery.state.to_string(),
            delivery.attempts.to_string(),
            delivery.last_status_code.map_or_else(
                || delivery.last_error.clone().unwrap_or_default(),
                |code| code.to_string(),
            ),
            utc(delivery.created_at),
        ]);
    }
    let mut text = table.render();
    if let Some(cursor) = &page.next_cursor {
        text.push_str(&format!("more: --cursor {cursor}\n"));
    }
    text
}
